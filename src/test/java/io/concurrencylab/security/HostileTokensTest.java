package io.concurrencylab.security;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.HostileHeaders;
import io.concurrencylab.support.Models;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A seeded fuzz of hostile Authorization headers ({@link HostileHeaders}): whatever a token holds, every model answers
 * a 4xx in the error contract, never a 5xx, never a trace. {@code PodFaultsIT} sends them to the packaged app in a pod.
 */
@QuarkusTest
class HostileTokensTest {

    static final int HEADERS = 3_000;

    final HostileHeaders hostile = new HostileHeaders();

    @Test
    void noAuthorizationHeaderCausesA5xxOrATrace() {
        Map<Integer, Integer> statuses = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < HEADERS; i++) {
            String header = hostile.header(i);
            for (String model : Models.ALL) {
                Response response = given().header("Authorization", header).get("/{model}/users/me", model);
                statuses.merge(response.statusCode(), 1, Integer::sum);
                String body = response.asString();
                if (response.statusCode() >= 500 || body.contains("Exception") || body.contains("\tat ")) {
                    failures.add(model + " " + response.statusCode() + " for kind " + hostile.kind(i) + ": "
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
        String token = hostile.validToken();
        assertEquals(200, given().header("Authorization", HostileHeaders.bearer(token)).get("/virtual/users/me").statusCode());
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
                    String header = HostileHeaders.bearer(String.join(".", spelled));
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
}
