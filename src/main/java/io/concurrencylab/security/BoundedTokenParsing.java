package io.concurrencylab.security;

import io.smallrye.jwt.auth.principal.DefaultJWTCallerPrincipalFactory;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTCallerPrincipal;
import io.smallrye.jwt.auth.principal.JWTCallerPrincipalFactory;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.util.Base64;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * SmallRye JWT's own parsing behind two bounds, so that no token, however hostile, costs more than a 401: a token
 * longer than {@code lab.jwt.max-token-length} or whose claims nest deeper than {@code lab.jwt.max-claim-depth} is
 * refused before it is parsed (deep nesting would otherwise exhaust the stack of the recursive claim conversion),
 * and a claim of an unexpected type (a numeric {@code groups}, say) is a parse failure rather than a crash.
 */
@ApplicationScoped
@Alternative
@Priority(1)
public class BoundedTokenParsing extends JWTCallerPrincipalFactory {

    private final JWTCallerPrincipalFactory standard = new DefaultJWTCallerPrincipalFactory();
    private final int maxLength;
    private final int maxDepth;

    BoundedTokenParsing(@ConfigProperty(name = "lab.jwt.max-token-length") int maxLength,
            @ConfigProperty(name = "lab.jwt.max-claim-depth") int maxDepth) {
        this.maxLength = maxLength;
        this.maxDepth = maxDepth;
    }

    @Override
    public JWTCallerPrincipal parse(String token, JWTAuthContextInfo context) throws ParseException {
        if (token.length() > maxLength) {
            throw new ParseException("Token longer than " + maxLength + " characters");
        }
        checkClaimDepth(token);
        try {
            return standard.parse(token, context);
        } catch (RuntimeException | StackOverflowError e) {
            throw new ParseException("Token claims of an unexpected shape: " + e.getClass().getSimpleName(), e);
        }
    }

    /** Counts the nesting of the payload's JSON (brackets outside strings) without building anything. */
    private void checkClaimDepth(String token) throws ParseException {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            return; // not a signed JWT: the standard parser refuses it
        }
        byte[] payload;
        try {
            payload = Base64.getUrlDecoder().decode(parts[1]);
        } catch (IllegalArgumentException e) {
            throw new ParseException("Token payload is not base64url");
        }
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < payload.length; i++) {
            byte b = payload[i];
            if (inString) {
                if (b == '\\') {
                    i++;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == '{' || b == '[') {
                if (++depth > maxDepth) {
                    throw new ParseException("Token claims nest deeper than " + maxDepth + " levels");
                }
            } else if (b == '}' || b == ']') {
                depth--;
            }
        }
    }
}
