package io.concurrencylab.overload;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The first gate on a fresh app with a floor of 1 (and a queue time of 0): of lookups sent at once, some
 * are answered 503 service_overloaded with Retry-After before their token is read (a bad token gets the 503, not a
 * 401). Aggregations, in flight meanwhile, are never gated; one lookup at a time is served.
 */
@QuarkusTest
@TestProfile(AdmissionControlTest.OneLookupAtATime.class)
class AdmissionControlTest {

    static final List<String> models = Models.ALL;
    static final int ROUNDS = 50;
    static final int AT_ONCE = 20;

    @TestHTTPResource("/")
    URI root;

    public static class OneLookupAtATime implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lab.overload.queue-time", "0ms", "lab.overload.min-in-flight", "1");
        }
    }

    @ParameterizedTest
    @FieldSource("models")
    void pastTheLimitALookupIsShedBeforeItsTokenIsReadAndAggregationsAreNot(String model) throws Exception {
        CompletableFuture<HttpResponse<String>> aggregation = send("/" + model + "/users/7/aggregate", null);

        HttpResponse<String> shed = null;
        for (int n = 0; n < ROUNDS && shed == null; n++) {
            List<CompletableFuture<HttpResponse<String>>> sent = IntStream.range(0, AT_ONCE)
                    .mapToObj(i -> send("/" + model + "/users/me", "not-a-jwt")).toList();
            for (CompletableFuture<HttpResponse<String>> answer : sent) {
                HttpResponse<String> response = answer.get();
                if (response.statusCode() == 503) {
                    shed = response;
                } else {
                    assertEquals(401, response.statusCode(), "an admitted bad token: " + response.body());
                }
            }
        }
        assertNotNull(shed, "no lookup shed in " + ROUNDS + " rounds of " + AT_ONCE + " at once");
        assertTrue(shed.body().contains("\"error\":\"service_overloaded\""), shed.body());
        assertTrue(shed.body().contains("\"status\":503"), shed.body());
        assertEquals("1", shed.headers().firstValue("Retry-After").orElse(null));

        assertEquals(200, aggregation.get().statusCode(), "the aggregation in flight: " + aggregation.get().body());
        given().auth().oauth2(Tokens.rs256("user21@example.com")).get("/{model}/users/me", model).then()
                .statusCode(200);
    }

    private CompletableFuture<HttpResponse<String>> send(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(root.resolve(path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return PackagedApp.HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
