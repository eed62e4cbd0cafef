package io.concurrencylab.support;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A seeded fuzz of hostile Authorization headers, many of them validly signed with the development key so that they
 * get past the signature check: claims of every wrong type, nesting thousands deep, huge claim sets, broken encodings,
 * confused algorithms, odd schemes. Headers stay under the HTTP server's own 20 KB limit, past which Vert.x closes the
 * connection before the app sees anything. The same seed gives the same headers, in the same order.
 */
public final class HostileHeaders {

    public static final long SEED = 20261122L;
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final Random random = new Random(SEED);
    private final PrivateKey key = Tokens.devPrivateKey();
    private final List<Supplier<String>> kinds = List.of(this::randomSegments, this::truncated, this::bitFlipped,
            this::claimOfTheWrongType, this::deeplyNested, this::hugeClaimSet, this::confusedHeader, this::oddScheme);

    /** The n-th header: its kind is n modulo the number of kinds. */
    public String header(int n) {
        return kinds.get(kind(n)).get();
    }

    public int kind(int n) {
        return n % kinds.size();
    }

    /** A valid token of a random seeded user, article 001's claims signed with the development key. */
    public String validToken() {
        return ForeignTokens.rs256(validClaims(), key, null);
    }

    public static String bearer(String token) {
        return "Bearer " + token;
    }

    private String validClaims() {
        return ForeignTokens.article001Claims("user" + (1 + random.nextInt(2000)) + "@example.com", Tokens.ISSUER);
    }

    private String signed(String claimsJson) {
        return ForeignTokens.rs256(claimsJson, key, null);
    }

    private String randomSegments() {
        StringBuilder token = new StringBuilder();
        int parts = 1 + random.nextInt(5);
        for (int p = 0; p < parts; p++) {
            byte[] bytes = new byte[random.nextInt(200)];
            random.nextBytes(bytes);
            token.append(p == 0 ? "" : ".").append(B64.encodeToString(bytes));
        }
        return bearer(token.toString());
    }

    private String truncated() {
        String token = validToken();
        return bearer(token.substring(0, random.nextInt(token.length())));
    }

    private String bitFlipped() {
        char[] token = validToken().toCharArray();
        int at = random.nextInt(token.length);
        token[at] = token[at] == 'A' ? 'B' : 'A';
        return bearer(new String(token));
    }

    private String claimOfTheWrongType() {
        String[] names = { "email", "exp", "iat", "nbf", "iss", "aud", "sub", "upn", "groups", "jti",
            "preferred_username" };
        String[] values = { "42", "-1", "1e308", "true", "null", "[]", "[1,2]", "{}", "{\"a\":{\"b\":1}}", "\"\"",
            "\"" + "x".repeat(2000) + "\"", "[\"user1@example.com\",\"user2@example.com\"]", "\"\\u0000\"" };
        String name = names[random.nextInt(names.length)];
        String value = values[random.nextInt(values.length)];
        long now = Instant.now().getEpochSecond();
        Map<String, String> claims = new TreeMap<>(Map.of("email", "\"user3@example.com\"",
                "iss", "\"" + Tokens.ISSUER + "\"", "iat", Long.toString(now), "exp", Long.toString(now + 600)));
        claims.put(name, value);
        StringBuilder json = new StringBuilder("{");
        claims.forEach((k, v) -> json.append(json.length() > 1 ? "," : "").append('"').append(k).append("\":")
                .append(v));
        return bearer(signed(json.append('}').toString()));
    }

    private String deeplyNested() {
        int depth = 10 + random.nextInt(3_000);
        String nested = "[".repeat(depth) + "]".repeat(depth);
        String claims = validClaims();
        return bearer(signed(claims.substring(0, claims.length() - 1) + ",\"groups\":" + nested + "}"));
    }

    private String hugeClaimSet() {
        StringBuilder claims = new StringBuilder(validClaims());
        claims.setLength(claims.length() - 1);
        int count = 50 + random.nextInt(550);
        for (int c = 0; c < count; c++) {
            claims.append(",\"c").append(c).append("\":").append(random.nextInt());
        }
        return bearer(signed(claims.append('}').toString()));
    }

    private String confusedHeader() {
        String[] headers = { "{\"alg\":\"none\"}", "{\"alg\":\"HS256\"}",
            "{\"alg\":\"RS256\",\"kid\":\"../../../../etc/passwd\"}",
            "{\"alg\":\"RS256\",\"jku\":\"http://127.0.0.1:9/keys\"}", "{\"alg\":\"RS256\",\"crit\":[\"exp\"]}",
            "{\"alg\":\"ES512\"}", "[1,2,3]", "{\"alg\":" + "[".repeat(3000) + "]".repeat(3000) + "}", "not json" };
        String header = headers[random.nextInt(headers.length)];
        String payload = B64.encodeToString(validClaims().getBytes(StandardCharsets.UTF_8));
        String signature = validToken().split("\\.")[2];
        return bearer(B64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "." + payload + "." + signature);
    }

    private String oddScheme() {
        String token = validToken();
        String[] headers = { "Bearer", "Bearer ", "bearer " + token, "Bearer  " + token, "Bearer " + token + " extra",
            "Basic " + token, "Bearer a.b.c.d.e", "Bearer ...", "Bearer " + "a".repeat(7000),
            "Bearer \u00e9\u00e9.\u00e9.\u00e9", "Token " + token, "Bearer " + token + "," + token };
        return headers[random.nextInt(headers.length)];
    }
}
