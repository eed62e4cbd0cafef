package io.concurrencylab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM with aggregations in flight on every model: readiness goes DOWN at once, new requests are still served
 * during the pre-shutdown delay, every request in flight completes, and the process exits by itself. The downstream
 * runs as a process of its own, since a draining app refuses new work, its own downstream calls included.
 */
class GracefulShutdownIT {

    @Test
    void noRequestInFlightIsLostOnSigterm() throws Exception {
        try (PackagedApp downstream = PackagedApp.start("shutdown-downstream", Map.of());
                PackagedApp app = PackagedApp.start("shutdown-app", Map.of(
                        "quarkus.rest-client.downstream.url", "http://127.0.0.1:" + downstream.port,
                        "quarkus.shutdown.delay", "2s", "quarkus.shutdown.timeout", "8s"))) {
            List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                for (String model : Models.ALL) {
                    inFlight.add(PackagedApp.HTTP.sendAsync(
                            HttpRequest.newBuilder(app.uri("/" + model + "/users/" + (i + 1) + "/aggregate"))
                                    .timeout(Duration.ofSeconds(20)).build(),
                            HttpResponse.BodyHandlers.ofString()));
                }
            }
            PackagedApp.sleep(250); // all 60 are now waiting on the downstream's timers
            long signalled = System.nanoTime();
            app.terminate();

            PackagedApp.sleep(300);
            assertEquals(503, app.get("/q/health/ready").statusCode(), "readiness during the pre-shutdown delay");
            assertEquals(200, app.get("/virtual/users/3/aggregate").statusCode(), "new work during the delay");

            long lost = 0;
            for (CompletableFuture<HttpResponse<String>> request : inFlight) {
                if (request.handle((response, failure) -> failure == null && response.statusCode() == 200).get()) {
                    continue;
                }
                lost++;
            }
            assertEquals(0, lost, "requests in flight at SIGTERM that did not get their 200");
            assertTrue(app.process.waitFor(25, TimeUnit.SECONDS), "the app exits by itself after draining");
            System.out.printf("graceful shutdown: 60 aggregations in flight, 0 lost, exited %d ms after SIGTERM%n",
                    (System.nanoTime() - signalled) / 1_000_000);
        }
    }
}
