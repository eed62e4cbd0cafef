package io.concurrencylab.user;

import io.quarkus.security.AuthenticationFailedException;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** What the endpoints read from a verified token. */
public final class TokenClaims {

    private TokenClaims() {
    }

    /** The {@code email} claim; a signed token without one is as good as no token. */
    public static String email(JsonWebToken token) {
        String email = token.getClaim("email");
        if (email == null || email.isBlank()) {
            throw new AuthenticationFailedException("The token has no email claim");
        }
        return email;
    }
}
