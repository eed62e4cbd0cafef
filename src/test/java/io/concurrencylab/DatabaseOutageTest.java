package io.concurrencylab;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.EmbeddedDatabase;
import io.concurrencylab.tokens.Tokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Stops the real database under the running app, with load on every model all along: every model must answer 503 JSON quickly, readiness must
 * go DOWN, and once the database is back every model must answer again, without a restart of the app.
 * The test has a database of its own, so that stopping it disturbs no other test.
 */
@QuarkusTest
@TestProfile(DatabaseOutageTest.OwnDatabase.class)
class DatabaseOutageTest {

    @StoppableDatabase
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

    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    @interface StoppableDatabase {
    }

    public static class OwnDatabase implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(Resource.class));
        }
    }

    /** Starts a database for this test alone and hands it to the test so that it can stop and start it. */
    public static class Resource implements QuarkusTestResourceLifecycleManager {

        private EmbeddedDatabase database;

        @Override
        public Map<String, String> start() {
            database = EmbeddedDatabase.start();
            // The reactive URL is derived from the JDBC one.
            return Map.of("quarkus.datasource.jdbc.url", EmbeddedDatabase.jdbcUrl(database.port()));
        }

        @Override
        public void inject(TestInjector injector) {
            injector.injectIntoFields(database,
                    new TestInjector.AnnotatedAndMatchesType(StoppableDatabase.class, EmbeddedDatabase.class));
        }

        @Override
        public void stop() {
            if (database != null) {
                database.close();
            }
        }
    }
}
