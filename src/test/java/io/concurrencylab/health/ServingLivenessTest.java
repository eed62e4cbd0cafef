package io.concurrencylab.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Liveness says DOWN while requests wait with no answer for longer than the limit (here 1 s), for every model, and UP
 * again once they are answered; a request whose client gave up is not waited for, and the probe's own requests do not
 * count.
 */
@QuarkusTest
@TestProfile(ServingLivenessTest.StalledAfterOneSecond.class)
class ServingLivenessTest {

    static final List<String> models = Models.ALL;

    @TestHTTPResource("/")
    URI root;

    public static class StalledAfterOneSecond implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lab.liveness.stalled-after", "1s");
        }
    }

    @ParameterizedTest
    @FieldSource("models")
    void downWhileRequestsWaitWithoutAnAnswerAndUpOnceAnswered(String model) throws Exception {
        live(200);
        CompletableFuture<Response> held = CompletableFuture.supplyAsync(
                () -> given().queryParam("ms", 2500).get("/{model}/hold", model));
        PackagedApp.sleep(1600);
        live(503).body("checks.find { it.name == 'serving' }.status", is("DOWN"));

        assertEquals(200, held.get().statusCode(), "the held request itself");
        live(200).body("checks.name", hasItem("serving"));
    }

    @ParameterizedTest
    @FieldSource("models")
    void aRequestWhoseClientGaveUpIsNotWaitedFor(String model) throws Exception {
        HttpRequest hold = HttpRequest.newBuilder(root.resolve("/" + model + "/hold?ms=2500"))
                .timeout(Duration.ofMillis(300)).build();
        try (HttpClient client = HttpClient.newHttpClient()) {
            assertThrows(HttpTimeoutException.class,
                    () -> client.send(hold, HttpResponse.BodyHandlers.discarding()));
        }
        PackagedApp.sleep(1600); // past the limit, with nobody waiting for an answer
        live(200);
        PackagedApp.sleep(1200); // the abandoned hold ends, unseen
    }

    private static ValidatableResponse live(int status) {
        return given().get("/q/health/live").then().statusCode(status);
    }
}
