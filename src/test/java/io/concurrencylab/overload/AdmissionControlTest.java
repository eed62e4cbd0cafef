package io.concurrencylab.overload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.EmbeddedDatabase;
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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The first gate on a fresh app with a floor of 1 (and a queue time of 0). One lookup waits on a locked table, so every
 * bad-token lookup that clients send back to back meets it in flight: a queue stands, and some are answered 503
 * service_overloaded with Retry-After before their token is read (a bad token gets the 503, not a 401). Without the
 * held lookup, an app that answers a bad token at once stood no queue in one model of three. Aggregations, in flight
 * meanwhile, are never gated; the held lookup is served once the table is free.
 */
@QuarkusTest
@TestProfile(AdmissionControlTest.OneLookupAtATime.class)
class AdmissionControlTest {

    static final List<String> models = Models.ALL;
    static final int CLIENTS = 8;
    /** Long past the two intervals of 100 ms a standing queue takes to show, within the held lookup's 8 s bound. */
    static final Duration AT_MOST = Duration.ofSeconds(5);

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

        AtomicReference<HttpResponse<String>> shed = new AtomicReference<>();
        Queue<String> otherAnswers = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<String>> held;
        try (Connection locker = DriverManager.getConnection(
                EmbeddedDatabase.jdbcUrl(EmbeddedDatabase.sharedPort()), "lab", "lab");
                Statement lock = locker.createStatement()) {
            lock.execute("LOCK TABLES users WRITE");
            held = send("/" + model + "/users/me", Tokens.rs256("user21@example.com"));
            PackagedApp.sleep(300); // the held lookup reaches its query before the others arrive
            long until = System.nanoTime() + AT_MOST.toNanos();
            CompletableFuture.allOf(IntStream.range(0, CLIENTS)
                    .mapToObj(i -> badTokensUntilShed(model, shed, otherAnswers, until))
                    .toArray(CompletableFuture[]::new)).get();
            lock.execute("UNLOCK TABLES");
        }

        assertEquals(List.of(), List.copyOf(otherAnswers), "admitted bad tokens are answered 401");
        assertNotNull(shed.get(), "no lookup shed from " + CLIENTS + " clients in " + AT_MOST);
        assertTrue(shed.get().body().contains("\"error\":\"service_overloaded\""), shed.get().body());
        assertTrue(shed.get().body().contains("\"status\":503"), shed.get().body());
        assertEquals("1", shed.get().headers().firstValue("Retry-After").orElse(null));

        assertEquals(200, aggregation.get().statusCode(), "the aggregation in flight: " + aggregation.get().body());
        assertEquals(200, held.get().statusCode(), "the lookup held by the lock: " + held.get().body());
    }

    /** One client: a bad-token lookup, then the next once it is answered, until some client was shed. */
    private CompletableFuture<Void> badTokensUntilShed(String model, AtomicReference<HttpResponse<String>> shed,
            Queue<String> otherAnswers, long until) {
        if (shed.get() != null || System.nanoTime() > until) {
            return CompletableFuture.completedFuture(null);
        }
        return send("/" + model + "/users/me", "not-a-jwt").thenCompose(response -> {
            if (response.statusCode() == 503) {
                shed.compareAndSet(null, response);
            } else if (response.statusCode() != 401) {
                otherAnswers.add(response.statusCode() + " " + response.body());
            }
            return badTokensUntilShed(model, shed, otherAnswers, until);
        });
    }

    private CompletableFuture<HttpResponse<String>> send(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(root.resolve(path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return PackagedApp.HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
