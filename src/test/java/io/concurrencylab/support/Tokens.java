package io.concurrencylab.support;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import io.smallrye.jwt.util.KeyUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Base64;

/** Mints tokens the way an identity provider would, for the tests and for the load generator. */
public final class Tokens {

    public static final String ISSUER = "https://concurrency-lab.example/issuer";

    private Tokens() {
    }

    public static JwtClaimsBuilder claimsFor(String email, String issuer, Duration lifespan) {
        return Jwt.issuer(issuer).upn(email).claim("email", email).expiresIn(lifespan);
    }

    /** An RS256 token signed with the development key pair whose public half the app trusts in dev and test. */
    public static String rs256(String email) {
        return claimsFor(email, ISSUER, Duration.ofHours(1)).sign(devPrivateKey());
    }

    public static String hs256(String email, String secret) {
        return claimsFor(email, ISSUER, Duration.ofHours(1)).signWithSecret(secret);
    }

    /** A token that states {@code alg: none} and carries no signature. */
    public static String unsigned(String email) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String header = b64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = b64.encodeToString(("{\"iss\":\"" + ISSUER + "\",\"upn\":\"" + email + "\",\"email\":\"" + email
                + "\",\"exp\":" + (System.currentTimeMillis() / 1000 + 3600) + "}").getBytes(StandardCharsets.UTF_8));
        return header + "." + payload + ".";
    }

    public static PrivateKey devPrivateKey() {
        try (InputStream pem = Tokens.class.getResourceAsStream("/privateKey.pem")) {
            return KeyUtils.decodePrivateKey(new String(pem.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public static PrivateKey privateKey(Path pemFile) {
        try {
            return KeyUtils.decodePrivateKey(Files.readString(pemFile));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
