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
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * SmallRye JWT's own parsing behind two bounds, so that no token, however hostile, costs more than a 401: a token
 * longer than {@code lab.jwt.max-token-length} or whose claims nest deeper than {@code lab.jwt.max-claim-depth} is
 * refused before it is parsed (deep nesting would otherwise exhaust the stack of the recursive claim conversion),
 * and a claim of an unexpected type (a numeric {@code groups}, say) is a parse failure rather than a crash. Each of
 * the three segments must be strict base64url (RFC 7515): the standard decoder skips stray bytes, so one token would
 * otherwise be accepted in many spellings, which defeats any deny-list or cache keyed on the token's text.
 */
@ApplicationScoped
@Alternative
@Priority(1)
public class BoundedTokenParsing extends JWTCallerPrincipalFactory {

    /** Unpadded base64url: groups of 4, then 2 or 3 characters or none (a lone 1 encodes no whole byte). */
    private static final String SEGMENT = "(?:[A-Za-z0-9_-]{4})*+(?:[A-Za-z0-9_-]{2,3})?+";
    private static final Pattern COMPACT_JWS = Pattern.compile(SEGMENT + "\\." + SEGMENT + "\\." + SEGMENT);

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
        if (!COMPACT_JWS.matcher(token).matches()) {
            throw new ParseException("Token is not three strict base64url segments");
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
        byte[] payload = Base64.getUrlDecoder().decode(token.split("\\.", -1)[1]); // strict base64url: checked above
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
