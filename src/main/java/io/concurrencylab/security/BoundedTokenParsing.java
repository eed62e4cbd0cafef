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
 * and a claim of an unexpected type (a numeric {@code groups}, say) is a parse failure rather than a crash. Each of
 * the three segments must be strict base64url (RFC 7515): the standard decoder skips stray bytes, so one token would
 * otherwise be accepted in many spellings, which defeats any deny-list or cache keyed on the token's text.
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
        int payloadEnd = compactSegments(token);
        if (payloadEnd < 0) {
            throw new ParseException("Token is not three strict base64url segments");
        }
        checkClaimDepth(token, token.indexOf('.') + 1, payloadEnd);
        try {
            return standard.parse(token, context);
        } catch (RuntimeException | StackOverflowError e) {
            throw new ParseException("Token claims of an unexpected shape: " + e.getClass().getSimpleName(), e);
        }
    }

    /**
     * Where the payload segment ends (the second dot), or -1 unless the token is exactly three segments of unpadded
     * base64url: characters {@code A-Z a-z 0-9 - _}, each segment 4n, 4n + 2 or 4n + 3 long (4n + 1 encodes no whole
     * byte). One pass over the token, no regular expression: it runs on every request.
     */
    static int compactSegments(String token) {
        int dots = 0;
        int segmentStart = 0;
        int payloadEnd = -1;
        for (int i = 0; i <= token.length(); i++) {
            char c = i < token.length() ? token.charAt(i) : '.';
            if (c == '.') {
                if ((i - segmentStart) % 4 == 1 || ++dots > 3) {
                    return -1;
                }
                if (dots == 2) {
                    payloadEnd = i;
                }
                segmentStart = i + 1;
            } else if (!isBase64Url(c)) {
                return -1;
            }
        }
        return dots == 3 ? payloadEnd : -1;
    }

    private static boolean isBase64Url(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    }

    /** Counts the nesting of the payload's JSON (brackets outside strings) without building anything. */
    private void checkClaimDepth(String token, int payloadStart, int payloadEnd) throws ParseException {
        byte[] payload = Base64.getUrlDecoder().decode(token.substring(payloadStart, payloadEnd)); // checked above
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
