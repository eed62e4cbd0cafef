package io.concurrencylab.cache;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.EmbeddedRedis;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.OwnServers.Stoppable;
import io.concurrencylab.support.OwnServers;
import io.concurrencylab.support.PlainRedis;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Stops, then stalls, the real Redis under the running app: the cached aggregation must go on answering 200 in every
 * model (from the local tier, else computed), quickly, counting the failures, with readiness UP, since Redis is an
 * optimisation; and once Redis is back, the remote tier and the invalidation channel must work again without a
 * restart. The test has a Redis of its own ({@link OwnServers}), so that stopping it disturbs no other test.
 */
@QuarkusTest
@TestProfile(OwnServers.class)
class RedisOutageTest {

    @Stoppable
    EmbeddedRedis redis;

    @Test
    void answers200WhileRedisIsDownAndUsesItAgainWhenItIsBack() throws Exception {
        Map<String, Long> cachedBefore = new HashMap<>();
        Map<String, String> bodies = new HashMap<>();
        for (String model : Models.ALL) {
            long id = CachedAggregateTest.unusedId();
            cachedBefore.put(model, id);
            bodies.put(model, CachedAggregateTest.cached(model, id));
        }
        double errors = CachedAggregateTest.remoteLookups("error");

        redis.suspend();
        try {
            for (String model : Models.ALL) {
                long id = cachedBefore.get(model);
                given().get("/{model}/users/{id}/aggregate/cached", model, id)
                        .then().statusCode(200).body(equalTo(bodies.get(model))); // the local tier
                // Computed: the downstream's 600 ms plus at most one bounded Redis attempt; a loose bound.
                given().get("/{model}/users/{id}/aggregate/cached", model, CachedAggregateTest.unusedId())
                        .then().statusCode(200).contentType(ContentType.JSON).time(lessThan(3_000L));
            }
            assertTrue(CachedAggregateTest.remoteLookups("error") > errors, "Redis failures counted");
            given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
            given().delete("/cache/aggregate/{id}", cachedBefore.get("virtual"))
                    .then().statusCode(503).contentType(ContentType.JSON).header("Retry-After", "1")
                    .body("status", equalTo(503), "error", equalTo("cache_unavailable"));
        } finally {
            redis.resume();
        }

        try (PlainRedis plain = new PlainRedis(redis.port())) {
            // The remote tier stores again (each attempt a new id: a local hit would not ask Redis)...
            for (String model : Models.ALL) {
                await(model + " stores in Redis again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                        .until(() -> {
                            long id = CachedAggregateTest.unusedId();
                            CachedAggregateTest.cached(model, id);
                            return "1".equals(plain.send("EXISTS", CachedAggregateTest.key(id)));
                        });
            }
            // ...and the app listens on the invalidation channel again.
            await("subscribed again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Long.parseLong(plain.send("PUBLISH", CachedAggregateTest.CHANNEL, "0")) >= 1);
        }
        given().delete("/cache/aggregate/{id}", cachedBefore.get("virtual")).then().statusCode(204);
        assertEquals(200, given().get("/q/health/ready").statusCode());
    }

    @Test
    void aStalledRedisCostsARequestAtMostTheTimeout() throws Exception {
        try (PlainRedis plain = new PlainRedis(redis.port())) {
            for (String model : Models.ALL) {
                double errors = CachedAggregateTest.remoteLookups("error");
                plain.send("CLIENT", "PAUSE", "4000"); // Redis answers no client for 4 s: up, but stalled
                // The downstream's 600 ms plus one 250 ms Redis timeout, not the 4 s; a loose bound.
                given().get("/{model}/users/{id}/aggregate/cached", model, CachedAggregateTest.unusedId())
                        .then().statusCode(200).time(lessThan(2_500L));
                assertEquals(errors + 1, CachedAggregateTest.remoteLookups("error"), "the lookup timed out");
                plain.send("PING"); // answered when the pause ends; by then the app's pause after the failure is over
            }
        }
    }
}
