package io.concurrencylab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.EmbeddedDatabase;
import io.concurrencylab.support.HostileHeaders;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.Pod;
import io.concurrencylab.support.Tokens;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A pod's faults, on the packaged app (the jar, or the executable of -Dnative) within 0.5 CPU and a 128 MB heap
 * ({@link Pod}), in the order one pod meets them: hostile tokens, its database killed under load, then SIGTERM with
 * aggregations in flight. The app has a database of its own, so that killing it disturbs no other test, and a
 * downstream that runs as a process of its own outside the pod, since a draining app refuses new work, its own
 * downstream calls included. {@code PodEdgeIT} has the bursts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class PodFaultsIT {

    static final int HOSTILE_HEADERS = 1_000;
    /** The slowest a 503 may be while the database is down: well within a client's usual timeout. */
    static final Duration FAST_503 = Duration.ofSeconds(5);
    static final Duration RECOVERED = Duration.ofSeconds(30);
    static final int IN_FLIGHT_PER_MODEL = 20;

    Pod pod;
    EmbeddedDatabase database;
    PackagedApp downstream;
    PackagedApp app;

    @BeforeAll
    void startThePod() {
        pod = Pod.create("concurrency-lab-pod-faults");
        database = EmbeddedDatabase.start();
        downstream = PackagedApp.start("pod-faults-downstream", Map.of());
        app = PackagedApp.start("pod-faults", Map.of(
                "quarkus.datasource.jdbc.url", EmbeddedDatabase.jdbcUrl(database.port()),
                "quarkus.rest-client.downstream.url", "http://127.0.0.1:" + downstream.port,
                "quarkus.shutdown.delay", "2s", "quarkus.shutdown.timeout", "8s"), pod);
    }

    @AfterAll
    void stopThePod() throws Exception {
        try (Pod stopped = pod; EmbeddedDatabase db = database; PackagedApp d = downstream; PackagedApp a = app) {
            assertEquals(0, app.logLinesWith("OutOfMemoryError"), "lines with OutOfMemoryError in " + app.log);
        }
    }

    @Test
    @Order(1)
    void hostileTokensGetA4xxOnEveryModel() throws Exception {
        HostileHeaders hostile = new HostileHeaders();
        Map<Integer, Integer> statuses = new TreeMap<>();
        Map<HttpClient.Version, Integer> protocols = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (int n = 0; n < HOSTILE_HEADERS; n++) {
            String header = hostile.header(n);
            for (String model : Models.ALL) {
                // Every other header over h2c: past 8 KB it closed the connection there before the app saw it.
                HttpResponse<String> response = app.send(n % 2 == 0 ? PackagedApp.HTTP : PackagedApp.H2C,
                        HttpRequest.newBuilder(app.uri("/" + model + "/users/me")).header("Authorization", header));
                statuses.merge(response.statusCode(), 1, Integer::sum);
                protocols.merge(response.version(), 1, Integer::sum);
                if (response.statusCode() >= 500 || !response.body().startsWith("{")
                        || response.body().contains("Exception")) {
                    failures.add(model + " " + response.statusCode() + " for kind " + hostile.kind(n) + ": "
                            + response.body());
                }
            }
        }
        System.out.printf("pod faults, hostile tokens: %d headers x %d models, statuses %s, protocols %s%n",
                HOSTILE_HEADERS, Models.ALL.size(), statuses, protocols);
        assertEquals(Set.of(HttpClient.Version.HTTP_1_1, HttpClient.Version.HTTP_2), protocols.keySet());
        assertEquals(List.of(), failures.subList(0, Math.min(5, failures.size())), failures.size() + " failures");
    }

    @Test
    @Order(2)
    void theDatabaseKilledUnderLoadGetsFast503sAndComesBack() throws Exception {
        String token = Tokens.rs256("user3@example.com");
        // Load on every model all along; a status of 0 is no answer at all, a wrong user counts as -1.
        Map<String, Map<Integer, Integer>> statuses = new ConcurrentHashMap<>();
        AtomicBoolean loading = new AtomicBoolean(true);
        ExecutorService load = Executors.newFixedThreadPool(Models.ALL.size());
        for (String model : Models.ALL) {
            load.submit(() -> {
                while (loading.get()) {
                    statuses.computeIfAbsent(model, m -> new ConcurrentHashMap<>())
                            .merge(userMe(model, token, "user3@example.com"), 1, Integer::sum);
                }
                return null;
            });
        }
        PackagedApp.sleep(2_000);
        database.suspend();
        long slowest503 = 0;
        try {
            for (String model : Models.ALL) {
                long started = System.nanoTime();
                HttpResponse<String> response = app.send(authorized(model, token));
                slowest503 = Math.max(slowest503, (System.nanoTime() - started) / 1_000_000);
                assertEquals(503, response.statusCode(), model + " with the database down: " + response.body());
                assertTrue(response.body().contains("\"database_unavailable\""), response.body());
            }
            assertEquals(503, app.get("/q/health/ready").statusCode(), "readiness with the database down");
            assertEquals(200, app.get("/q/health/live").statusCode(), "liveness: answering 503s is serving");
        } finally {
            database.resume();
        }
        long resumed = System.nanoTime();
        for (String model : Models.ALL) {
            while (userMe(model, token, "user3@example.com") != 200) {
                assertTrue(System.nanoTime() - resumed < RECOVERED.toNanos(), model + " not back within " + RECOVERED);
                PackagedApp.sleep(250);
            }
        }
        app.awaitReady(RECOVERED);
        long recoveredAfter = (System.nanoTime() - resumed) / 1_000_000;
        loading.set(false);
        load.shutdown();
        assertTrue(load.awaitTermination(30, TimeUnit.SECONDS), "the load stopped");
        System.out.printf("pod faults, database killed under load: slowest 503 %d ms, every model back %d ms after"
                + " the database; statuses per model %s%n", slowest503, recoveredAfter, statuses);
        assertTrue(slowest503 <= FAST_503.toMillis(), "slowest 503: " + slowest503 + " ms");
        for (String model : Models.ALL) {
            assertEquals(Set.of(200, 503), statuses.get(model).keySet(), model + ": only its user or a 503");
        }
    }

    @Test
    @Order(3)
    void noAggregationInFlightIsLostOnSigterm() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        for (int i = 0; i < IN_FLIGHT_PER_MODEL; i++) {
            for (String model : Models.ALL) {
                inFlight.add(PackagedApp.HTTP.sendAsync(
                        HttpRequest.newBuilder(app.uri("/" + model + "/users/" + (i + 1) + "/aggregate"))
                                .timeout(Duration.ofSeconds(20)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
        }
        PackagedApp.sleep(250); // all of them are now waiting on the downstream's timers
        long signalled = System.nanoTime();
        app.terminate();

        PackagedApp.sleep(300);
        assertEquals(503, app.get("/q/health/ready").statusCode(), "readiness during the pre-shutdown delay");
        assertEquals(200, app.get("/virtual/users/3/aggregate").statusCode(), "new work during the delay");

        long lost = inFlight.stream().filter(request -> !request.handle(
                (response, failure) -> failure == null && response.statusCode() == 200).join()).count();
        assertEquals(0, lost, "aggregations in flight at SIGTERM that did not get their 200");
        assertTrue(app.process.waitFor(25, TimeUnit.SECONDS), "the app exits by itself after draining");
        assertFalse(app.process.isAlive());
        System.out.printf("pod faults, SIGTERM: %d aggregations in flight, 0 lost, exited %d ms after SIGTERM%n",
                inFlight.size(), (System.nanoTime() - signalled) / 1_000_000);
    }

    private HttpRequest.Builder authorized(String model, String token) {
        return HttpRequest.newBuilder(app.uri("/" + model + "/users/me")).header("Authorization", "Bearer " + token);
    }

    /** The status of one request for this user: 0 for no answer, -1 for a 200 with another user. */
    private int userMe(String model, String token, String email) {
        try {
            HttpResponse<String> response = app.send(authorized(model, token));
            return response.statusCode() == 200 && !response.body().contains("\"" + email + "\"") ? -1
                    : response.statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }
}
