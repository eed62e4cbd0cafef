package io.concurrencylab.overload;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.EmbeddedDatabase;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.SmallPools;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every pooled connection held by a query that waits on a lock: the requests that find no free connection within the
 * pool's wait bound (JDBC: a time, reactive: a queue length) answer 503 database_busy (the database is up, so not database_unavailable), and once the lock is
 * released every request is served again.
 */
@QuarkusTest
@TestProfile(SmallPools.class)
class BusyPoolTest {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void requestsThatFindNoFreeConnectionAnswer503DatabaseBusy(String model) throws Exception {
        String token = Tokens.rs256("user18@example.com");
        given().auth().oauth2(token).get("/{model}/users/me", model).then().statusCode(200);

        List<CompletableFuture<Response>> requests = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try (Connection locker = DriverManager.getConnection(
                EmbeddedDatabase.jdbcUrl(EmbeddedDatabase.sharedPort()), "lab", "lab");
                Statement lock = locker.createStatement()) {
            lock.execute("LOCK TABLES users WRITE");
            for (int i = 0; i < 8; i++) {
                requests.add(CompletableFuture.supplyAsync(
                        () -> given().auth().oauth2(token).get("/{model}/users/me", model), clients));
            }
            PackagedApp.sleep(3_000); // past the 1 s wait bound, well within the 5 s socket timeout
            lock.execute("UNLOCK TABLES");
        } finally {
            clients.shutdown();
        }
        int busy = 0;
        for (CompletableFuture<Response> request : requests) {
            Response response = request.get();
            if (response.statusCode() == 503) {
                assertEquals("database_busy", response.jsonPath().getString("error"), response.asString());
                assertEquals("1", response.header("Retry-After"));
                busy++;
            } else {
                assertEquals(200, response.statusCode(), response.asString());
            }
        }
        // JDBC: the 6 without a connection give up after 1 s; reactive: past 2 waiting, the rest are refused at once.
        assertTrue(busy >= 4, model + ": " + busy + " of 8 answered database_busy with 2 connections held");
        given().auth().oauth2(token).get("/{model}/users/me", model).then().statusCode(200);
    }
}
