package io.concurrencylab.security;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.ForeignTokens;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A seeded fuzz of hostile Authorization headers, many of them validly signed so that they get past the signature
 * check: claims of every wrong type, nesting thousands deep, huge claim sets, broken encodings, confused algorithms.
 * Whatever a token holds, every model answers a 4xx in the error contract: never a 5xx, never a trace. Headers stay
 * under the HTTP server's own 20 KB limit, past which Vert.x closes the connection before the app sees anything.
 */
@QuarkusTest
class HostileTokensTest {

    static final int HEADERS = 3_000;
    static final long SEED = 20261122L;
    static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    final Random random = new Random(SEED);
    final PrivateKey key = Tokens.devPrivateKey();

    @Test
    void noAuthorizationHeaderCausesA5xxOrATrace() {
        List<Supplier<String>> kinds = List.of(this::randomSegments, this::truncated, this::bitFlipped,
                this::claimOfTheWrongType, this::deeplyNested, this::hugeClaimSet, this::confusedHeader,
                this::oddScheme);
        Map<Integer, Integer> statuses = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < HEADERS; i++) {
            String header = kinds.get(i % kinds.size()).get();
            for (String model : Models.ALL) {
                Response response = given().header("Authorization", header).get("/{model}/users/me", model);
                statuses.merge(response.statusCode(), 1, Integer::sum);
                String body = response.asString();
                if (response.statusCode() >= 500 || body.contains("Exception") || body.contains("\tat ")) {
                    failures.add(model + " " + response.statusCode() + " for kind " + (i % kinds.size()) + ": "
                            + header.substring(0, Math.min(120, header.length())) + " -> " + body);
                }
            }
        }
        System.out.printf("hostile tokens: %d headers x %d models, statuses %s%n", HEADERS, Models.ALL.size(), statuses);
        assertEquals(List.of(), failures.subList(0, Math.min(5, failures.size())), failures.size() + " failures");
        // Some of them are valid after all (a harmless extra claim, shallow nesting): those get their user.
        assertTrue(statuses.keySet().stream().allMatch(status -> status < 500), statuses.toString());
    }

    /**
     * A valid token with one stray byte inserted into one of its segments, at its start, middle and end: lenient
     * base64url decoding skips such a byte, so the same token would be accepted in many spellings (defeating any
     * deny-list or cache keyed on its text). Each segment must be strict base64url: every spelling is refused.
     */
    @Test
    void aStrayByteInAnySegmentIsRefused() {
        String token = signed(validClaims());
        assertEquals(200, given().header("Authorization", bearer(token)).get("/virtual/users/me").statusCode());
        char[] strays = { 0x01, 0x1F, 0x7F, 0x80, 0xA0, 0xE9, 0xFF, ' ', '\t', '=', '+', '/', '%', '~', '!', '*' };
        String[] segments = token.split("\\.");
        List<String> accepted = new ArrayList<>();
        int tried = 0;
        for (int s = 0; s < segments.length; s++) {
            for (int at : new int[] { 0, segments[s].length() / 2, segments[s].length() }) {
                for (char stray : strays) {
                    boolean outer = (s == 0 && at == 0) || (s == segments.length - 1 && at == segments[s].length());
                    if (outer && Character.isWhitespace(stray)) {
                        continue; // whitespace around the token is HTTP's and the Bearer scheme's, not the token's
                    }
                    String[] spelled = segments.clone();
                    spelled[s] = segments[s].substring(0, at) + stray + segments[s].substring(at);
                    String header = bearer(String.join(".", spelled));
                    for (String model : Models.ALL) {
                        tried++;
                        Response response = given().header("Authorization", header).get("/{model}/users/me", model);
                        if (response.statusCode() != 401 || !response.asString().contains("\"invalid_token\"")) {
                            accepted.add(String.format("%s: 0x%02X in segment %d at %d -> %d %s", model, (int) stray, s,
                                    at, response.statusCode(), response.asString()));
                        }
                    }
                }
            }
        }
        System.out.printf("stray bytes: %d spellings x models tried, %d not refused with invalid_token%n", tried,
                accepted.size());
        assertEquals(List.of(), accepted.subList(0, Math.min(10, accepted.size())), accepted.size() + " not refused");
    }

    private String bearer(String token) {
        return "Bearer " + token;
    }

    private String signed(String claimsJson) {
        return ForeignTokens.rs256(claimsJson, key, null);
    }

    private String validClaims() {
        return ForeignTokens.article001Claims("user" + (1 + random.nextInt(2000)) + "@example.com", Tokens.ISSUER);
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
        String token = signed(validClaims());
        return bearer(token.substring(0, random.nextInt(token.length())));
    }

    private String bitFlipped() {
        char[] token = signed(validClaims()).toCharArray();
        int at = random.nextInt(token.length);
        token[at] = token[at] == 'A' ? 'B' : 'A';
        return bearer(new String(token));
    }

    private String claimOfTheWrongType() {
        String[] names = { "email", "exp", "iat", "nbf", "iss", "aud", "sub", "upn", "groups", "jti", "preferred_username" };
        String[] values = { "42", "-1", "1e308", "true", "null", "[]", "[1,2]", "{}", "{\"a\":{\"b\":1}}", "\"\"",
                "\"" + "x".repeat(2000) + "\"", "[\"user1@example.com\",\"user2@example.com\"]", "\"\\u0000\"" };
        String name = names[random.nextInt(names.length)];
        String value = values[random.nextInt(values.length)];
        long now = Instant.now().getEpochSecond();
        Map<String, String> claims = new TreeMap<>(Map.of("email", "\"user3@example.com\"", "iss", "\"" + Tokens.ISSUER + "\"",
                "iat", Long.toString(now), "exp", Long.toString(now + 600)));
        claims.put(name, value);
        StringBuilder json = new StringBuilder("{");
        claims.forEach((k, v) -> json.append(json.length() > 1 ? "," : "").append('"').append(k).append("\":").append(v));
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
        String[] headers = { "{\"alg\":\"none\"}", "{\"alg\":\"HS256\"}", "{\"alg\":\"RS256\",\"kid\":\"../../../../etc/passwd\"}",
                "{\"alg\":\"RS256\",\"jku\":\"http://127.0.0.1:9/keys\"}", "{\"alg\":\"RS256\",\"crit\":[\"exp\"]}",
                "{\"alg\":\"ES512\"}", "[1,2,3]", "{\"alg\":" + "[".repeat(3000) + "]".repeat(3000) + "}", "not json" };
        String header = headers[random.nextInt(headers.length)];
        String payload = B64.encodeToString(validClaims().getBytes(StandardCharsets.UTF_8));
        String signature = signed(validClaims()).split("\\.")[2];
        return bearer(B64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "." + payload + "." + signature);
    }

    private String oddScheme() {
        String token = signed(validClaims());
        String[] headers = { "Bearer", "Bearer ", "bearer " + token, "Bearer  " + token, "Bearer " + token + " extra",
                "Basic " + token, "Bearer a.b.c.d.e", "Bearer ...", "Bearer " + "a".repeat(7000), "Bearer \u00e9\u00e9.\u00e9.\u00e9",
                "Token " + token, "Bearer " + token + "," + token };
        return headers[random.nextInt(headers.length)];
    }
}
