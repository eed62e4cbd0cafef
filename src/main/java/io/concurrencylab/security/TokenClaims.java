package io.concurrencylab.security;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** What the endpoints read from a verified token. */
public final class TokenClaims {

    private TokenClaims() {
    }

    /**
     * The {@code email} claim. Only a JSON string counts: a number, boolean, array or object in its place makes the
     * token as good as no token, like a missing claim.
     */
    public static String email(JsonWebToken token) {
        if (token.getClaim("email") instanceof String email && !email.isBlank()) {
            return email;
        }
        throw new ServiceException(ErrorCode.INVALID_TOKEN, "The token has no email claim of type string");
    }
}
