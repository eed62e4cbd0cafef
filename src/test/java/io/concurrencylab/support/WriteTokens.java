package io.concurrencylab.support;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.stream.IntStream;

/**
 * Writes signed tokens for users 1..N, one per line (line n is user n), for k6 to load:
 * <pre>
 * ./mvnw -q test-compile exec:java@tokens -Dtokens.count=100000 -Dtokens.out=target/tokens.txt
 * </pre>
 * Options (system properties): tokens.alg (RS256, default, or HS256), tokens.key (PEM private key for RS256;
 * default: the development key), tokens.secret (HS256 secret; default: the JWT_SECRET environment variable),
 * tokens.issuer, tokens.lifespan (seconds, default 86400).
 */
public final class WriteTokens {

    public static void main(String[] args) throws IOException {
        int count = Integer.getInteger("tokens.count", 100_000);
        Path out = Path.of(System.getProperty("tokens.out", "target/tokens.txt"));
        String alg = System.getProperty("tokens.alg", "RS256").toUpperCase();
        String issuer = System.getProperty("tokens.issuer", Tokens.ISSUER);
        Duration lifespan = Duration.ofSeconds(Long.getLong("tokens.lifespan", 86_400));

        Signer signer = switch (alg) {
            case "RS256" -> {
                String keyFile = System.getProperty("tokens.key");
                PrivateKey key = keyFile == null ? Tokens.devPrivateKey() : Tokens.privateKey(Path.of(keyFile));
                yield email -> Tokens.claimsFor(email, issuer, lifespan).sign(key);
            }
            case "HS256" -> {
                String secret = System.getProperty("tokens.secret", System.getenv("JWT_SECRET"));
                if (secret == null || secret.isBlank()) {
                    throw new IllegalArgumentException("HS256 needs -Dtokens.secret or the JWT_SECRET environment variable");
                }
                yield email -> Tokens.claimsFor(email, issuer, lifespan).signWithSecret(secret);
            }
            default -> throw new IllegalArgumentException("tokens.alg must be RS256 or HS256, not " + alg);
        };

        long started = System.nanoTime();
        // RS256 signing costs about a millisecond: sign in parallel, write in order.
        String[] tokens = IntStream.rangeClosed(1, count).parallel()
                .mapToObj(n -> signer.sign("user" + n + "@example.com")).toArray(String[]::new);
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        try (BufferedWriter writer = Files.newBufferedWriter(out)) {
            for (String token : tokens) {
                writer.write(token);
                writer.newLine();
            }
        }
        System.out.printf("Wrote %d %s tokens for user1..user%d@example.com to %s in %d ms%n", count, alg, count, out,
                (System.nanoTime() - started) / 1_000_000);
    }

    @FunctionalInterface
    private interface Signer {
        String sign(String email);
    }
}
