package io.concurrencylab.aggregation;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.SmallPools;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * With one connection in the REST client's pool, concurrent aggregations wait for it, and /lab/saturation (what the
 * benchmark samples) says so per client: lab_downstream_calls_waiting rises above 0 while they wait, and both gauges
 * are back at 0 once every aggregation has answered.
 */
@QuarkusTest
@TestProfile(SmallPools.class)
class DownstreamPoolWaitTest {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void callsBeyondThePoolAreCountedAsWaiting(String model) throws Exception {
        String client = model.equals("reactive") ? "reactive" : "blocking";
        double waitingSeen = 0;
        // Clients of their own, not the common pool: on 2 cores that pool has one thread, which Groovy's class
        // initialisation inside RestAssured also needs (a request blocked on it there deadlocked this test once).
        try (ExecutorService clients = Executors.newFixedThreadPool(2)) {
            // Two aggregations hold the one connection for 1 s + 0.3 s + 0.5 s each: one of them waits from the start.
            List<CompletableFuture<Response>> requests = IntStream.of(1, 2)
                    .mapToObj(id -> CompletableFuture.supplyAsync(
                            () -> given().get("/{model}/users/{id}/aggregate", model, id), clients))
                    .toList();
            for (int poll = 0; poll < 100 && waitingSeen < 1 && !requests.stream().allMatch(CompletableFuture::isDone);
                    poll++) {
                waitingSeen = Math.max(waitingSeen, saturation("lab_downstream_calls_waiting", client));
                PackagedApp.sleep(20);
            }
            for (CompletableFuture<Response> request : requests) {
                assertEquals(200, request.get().statusCode(), request.get().asString());
            }
        }
        assertTrue(waitingSeen >= 1, model + ": no call seen waiting for the " + client + " client's one connection");
        assertEquals(0, saturation("lab_downstream_calls_waiting", client), model);
        assertEquals(0, saturation("lab_downstream_calls_in_flight", client), model);
    }

    /** The value of a series of /lab/saturation with the given client label. */
    static double saturation(String metric, String client) {
        String prefix = metric + "{client=\"" + client + "\"";
        return given().get("/lab/saturation").asString().lines().filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError(metric + " for " + client + " not in /lab/saturation"));
    }
}
