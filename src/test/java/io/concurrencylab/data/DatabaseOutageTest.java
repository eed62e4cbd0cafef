package io.concurrencylab.data;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.EmbeddedDatabase;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.OwnServers.Stoppable;
import io.concurrencylab.support.OwnServers;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Stops the real database under the running app, with load on every model all along: every model must answer 503 JSON quickly, readiness must
 * go DOWN, and once the database is back every model must answer again, without a restart of the app.
 * The test has a database of its own ({@link OwnServers}), so that stopping it disturbs no other test.
 */
@QuarkusTest
@TestProfile(OwnServers.class)
class DatabaseOutageTest {

    @Stoppable
    EmbeddedDatabase database;

    @Test
    void answers503WhileTheDatabaseIsDownAndRecoversWhenItIsBack() throws InterruptedException {
        String token = Tokens.rs256("user3@example.com");
        for (String model : Models.ALL) {
            given().auth().oauth2(token).get("/{model}/users/me", model).then().statusCode(200);
        }

        // Load on every model all along: before, during and after the outage.
        Map<String, Map<Integer, Integer>> statuses = new ConcurrentHashMap<>();
        AtomicBoolean loading = new AtomicBoolean(true);
        ExecutorService load = Executors.newFixedThreadPool(Models.ALL.size());
        for (String model : Models.ALL) {
            load.submit(() -> {
                while (loading.get()) {
                    int status = given().auth().oauth2(token).get("/{model}/users/me", model).statusCode();
                    statuses.computeIfAbsent(model, m -> new ConcurrentSkipListMap<>()).merge(status, 1, Integer::sum);
                }
            });
        }

        database.suspend();
        try {
            for (String model : Models.ALL) {
                given().auth().oauth2(token).get("/{model}/users/me", model)
                        .then().statusCode(503).contentType(ContentType.JSON)
                        .body("status", equalTo(503), "error", equalTo("database_unavailable"))
                        .body(not(containsString("Exception")))
                        .time(lessThan(10_000L));
            }
            given().get("/q/health/ready").then().statusCode(503).body("status", equalTo("DOWN"));
        } finally {
            database.resume();
        }

        for (String model : Models.ALL) {
            await(model + " recovers").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(
                    () -> given().auth().oauth2(token).get("/{model}/users/me", model).statusCode() == 200);
        }
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));

        loading.set(false);
        load.shutdown();
        assertTrue(load.awaitTermination(30, TimeUnit.SECONDS));
        System.out.println("database outage under load, statuses per model: " + statuses);
        for (String model : Models.ALL) {
            assertEquals(Set.of(200, 503), statuses.get(model).keySet(), model + ": only answers or fast 503s");
        }
    }
}
