package io.concurrencylab.overload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.Tokens;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Far more requests at once than a model is allowed to hold: the excess is answered at once with 503
 * service_overloaded and Retry-After, nothing queues without bound, and every model serves again right after the
 * burst, including after clients that gave up mid-request (the cancellations that once left the reactive pool stuck).
 * The limits are lowered here so that a test client can exceed them; the real ones are far above the benchmark's loads.
 */
class OverloadIT {

    static final int LOOKUP_LIMIT = 4;
    static final int AGGREGATION_LIMIT = 10;
    static final int BURST = 100; // ten times what a model may hold

    @Test
    void theExcessIsShedAtOnceAndEveryModelRecovers() throws Exception {
        try (PackagedApp app = PackagedApp.start("overload-app", Map.of(
                "lab.overload.max-concurrent-lookups", Integer.toString(LOOKUP_LIMIT),
                "lab.overload.max-concurrent-aggregations", Integer.toString(AGGREGATION_LIMIT)))) {
            for (String model : Models.ALL) {
                List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
                for (int i = 0; i < BURST; i++) {
                    burst.add(send(app, "/" + model + "/users/" + (i + 1) + "/aggregate", Duration.ofSeconds(10), null));
                }
                Map<Integer, Integer> statuses = new TreeMap<>();
                for (CompletableFuture<HttpResponse<String>> request : burst) {
                    HttpResponse<String> response = request.get();
                    statuses.merge(response.statusCode(), 1, Integer::sum);
                    if (response.statusCode() == 503) {
                        assertTrue(response.body().contains("\"error\":\"service_overloaded\""), response.body());
                        assertEquals("1", response.headers().firstValue("Retry-After").orElse(null));
                    }
                }
                System.out.printf("overload %s: %d aggregations at once, limit %d: %s%n", model, BURST,
                        AGGREGATION_LIMIT, statuses);
                assertEquals(Map.of(200, AGGREGATION_LIMIT, 503, BURST - AGGREGATION_LIMIT), statuses, model);
            }

            // Lookups from clients that give up after 20 ms: requests cancelled at every stage of their work.
            String token = Tokens.rs256("user16@example.com");
            List<CompletableFuture<HttpResponse<String>>> impatient = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                impatient.add(send(app, "/" + Models.ALL.get(i % 3) + "/users/me", Duration.ofMillis(20), token));
            }
            for (CompletableFuture<HttpResponse<String>> request : impatient) {
                request.handle((response, failure) -> null).get();
            }

            long burstEnded = System.nanoTime();
            for (String model : Models.ALL) {
                awaitOk(app, "/" + model + "/users/me", token, burstEnded);
                awaitOk(app, "/" + model + "/users/17/aggregate", null, burstEnded);
            }
            assertEquals(200, app.get("/q/health/ready").statusCode());
            // Every connection went back to its pool: none was leaked by a cancelled or refused request.
            for (String gauge : List.of("sql_pool_active", "agroal_active_count")) {
                awaitGaugeZero(app, gauge, burstEnded);
            }
            System.out.printf("overload: every model answering again %d ms after the bursts%n",
                    (System.nanoTime() - burstEnded) / 1_000_000);
        }
    }

    private static void awaitGaugeZero(PackagedApp app, String gauge, long since) throws Exception {
        Pattern line = Pattern.compile("^" + gauge + "\\{[^}]*} (\\S+)$", Pattern.MULTILINE);
        while (true) {
            Matcher value = line.matcher(app.get("/q/metrics").body());
            if (value.find() && Double.parseDouble(value.group(1)) == 0) {
                return;
            }
            long waited = (System.nanoTime() - since) / 1_000_000;
            assertTrue(waited < 5_000, gauge + " still not 0 " + waited + " ms after the burst");
            PackagedApp.sleep(100);
        }
    }

    private static CompletableFuture<HttpResponse<String>> send(PackagedApp app, String path, Duration timeout,
            String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(app.uri(path)).timeout(timeout);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return PackagedApp.HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Full service again within 5 s of the burst. */
    private static void awaitOk(PackagedApp app, String path, String token, long since) throws Exception {
        while (true) {
            HttpResponse<String> response = send(app, path, Duration.ofSeconds(5), token).handle(
                    (ok, failure) -> ok).get();
            if (response != null && response.statusCode() == 200) {
                return;
            }
            long waited = (System.nanoTime() - since) / 1_000_000;
            assertTrue(waited < 5_000, path + " still " + (response == null ? "failing" : response.statusCode())
                    + " " + waited + " ms after the burst");
            PackagedApp.sleep(100);
        }
    }
}
