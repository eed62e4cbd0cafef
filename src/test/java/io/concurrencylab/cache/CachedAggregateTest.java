package io.concurrencylab.cache;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.EmbeddedRedis;
import io.concurrencylab.support.Metrics;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.PlainRedis;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code GET /{model}/users/{id}/aggregate/cached}: the aggregate through a local tier and Redis, on the real Redis the
 * test profile starts. Downstream calls are counted from the app's own metrics: a hit calls nothing.
 */
@QuarkusTest
class CachedAggregateTest {

    static final List<String> models = Models.ALL;
    static final String CHANNEL = "lab:aggregate:invalidations";

    /** The tests share one app and one Redis: each takes ids no other has cached. */
    private static final AtomicLong unusedIds = new AtomicLong(60_000);

    static long unusedId() {
        return unusedIds.incrementAndGet();
    }

    static String key(long id) {
        return "lab:aggregate:" + id;
    }

    /** The Redis the application under test uses. */
    static int redisPort() {
        return EmbeddedRedis.sharedPort();
    }

    static String cached(String model, long id) {
        return given().get("/{model}/users/{id}/aggregate/cached", model, id)
                .then().statusCode(200).contentType(ContentType.JSON).extract().asString();
    }

    /** Waits until the downstream has answered {@code expected} calls in all (metrics are recorded as answers end). */
    static void awaitDownstreamCalls(double expected) {
        await().atMost(Duration.ofSeconds(5)).until(() -> Metrics.downstreamCalls() >= expected);
        assertEquals(expected, Metrics.downstreamCalls(), "downstream calls");
    }

    @ParameterizedTest
    @FieldSource("models")
    void answersTheSameJsonAsTheUncachedAggregateInEveryModel(String model) {
        String uncached = given().get("/{model}/users/42/aggregate", model).then().statusCode(200).extract().asString();
        String expected = """
                {"id":42,"name":"User 42","age":60,"sex":"F","phone":"+1-555-0000042","level":"gold"}""";
        assertEquals(expected, uncached);
        assertEquals(expected, cached(model, 42), "computed or cached by another model");
        assertEquals(expected, cached(model, 42), "cached");
    }

    @ParameterizedTest
    @FieldSource("models")
    void theSecondCallIsALocalHitAndCallsNoDownstream(String model) {
        long id = unusedId();
        double calls = Metrics.downstreamCalls();
        double remoteMisses = remoteLookups("miss");

        String first = cached(model, id);
        awaitDownstreamCalls(calls + 3); // base, detail, extra
        assertEquals(remoteMisses + 1, remoteLookups("miss"), "Redis asked once");
        double localHits = localLookups("hit");
        double localMisses = localLookups("miss");

        assertEquals(first, cached(model, id));
        assertEquals(calls + 3, Metrics.downstreamCalls(), "no downstream call for a hit");
        // More hits, no more misses (not +1: Quarkus 3.33's cache and Caffeine 3.2 both count each lookup,
        // docs/design.md).
        assertTrue(localLookups("hit") > localHits, "a local hit");
        assertEquals(localMisses, localLookups("miss"), "no local miss");
    }

    /** The benchmark reads the hit ratios from /lab/saturation (the event loop's scrape), not from /q/metrics. */
    @Test
    void theSaturationRouteCarriesTheCountersOfBothTiers() {
        cached(models.get(0), unusedId());
        String saturation = given().get("/lab/saturation").then().statusCode(200).extract().asString();
        assertTrue(saturation.lines().anyMatch(l -> l.startsWith("cache_gets_total{") && l.contains("result=\"miss\"")),
                saturation);
        assertTrue(saturation.lines().anyMatch(l -> l.startsWith("lab_cache_remote_total{")), saturation);
    }

    static double localLookups(String result) {
        return Metrics.sum("cache_gets_total", "cache=\"aggregate\"", "result=\"" + result + "\"");
    }

    static double remoteLookups(String result) {
        return Metrics.sum("lab_cache_remote_total", "result=\"" + result + "\"");
    }

    @ParameterizedTest
    @FieldSource("models")
    void storesTheAggregateInRedisAsJsonWithATimeToLive(String model) throws Exception {
        long id = unusedId();
        String body = cached(model, id);
        try (PlainRedis redis = new PlainRedis(redisPort())) {
            assertEquals(body, redis.send("GET", key(id)));
            long ttl = Long.parseLong(redis.send("PTTL", key(id)));
            assertTrue(ttl > 0 && ttl <= Duration.ofMinutes(10).toMillis(), "TTL " + ttl + " ms");
        }
    }

    @ParameterizedTest
    @FieldSource("models")
    void servesWhatRedisHoldsWithoutTheDownstream(String model) throws Exception {
        long id = unusedId();
        // Another replica's answer, recognisable by its name: only Redis can have it.
        String stored = "{\"id\":" + id + ",\"name\":\"Stored by another replica\",\"age\":30,\"sex\":\"M\","
                + "\"phone\":\"+1-555-0000000\",\"level\":\"silver\"}";
        try (PlainRedis redis = new PlainRedis(redisPort())) {
            redis.send("SET", key(id), stored, "PX", "60000");
        }
        double calls = Metrics.downstreamCalls();
        double remoteHits = remoteLookups("hit");

        assertEquals(stored, cached(model, id));
        assertEquals(calls, Metrics.downstreamCalls(), "no downstream call for a Redis hit");
        assertEquals(remoteHits + 1, remoteLookups("hit"));
    }

    @ParameterizedTest
    @FieldSource("models")
    void aMessageOnTheInvalidationChannelDropsTheLocalEntry(String model) throws Exception {
        long id = unusedId();
        String body = cached(model, id);
        double calls = Metrics.downstreamCalls();
        double remoteHits = remoteLookups("hit");

        try (PlainRedis redis = new PlainRedis(redisPort())) {
            long listeners = Long.parseLong(redis.send("PUBLISH", CHANNEL, Long.toString(id)));
            assertTrue(listeners >= 1, "the app listens on " + CHANNEL);
        }
        // Delivery is asynchronous: until it arrives the local entry answers. Then Redis answers (the key is still
        // there): a remote hit, still without the downstream.
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            assertEquals(body, cached(model, id));
            return remoteLookups("hit") > remoteHits;
        });
        assertEquals(calls, Metrics.downstreamCalls(), "no downstream call");
    }

    @ParameterizedTest
    @FieldSource("models")
    void theInvalidationEndpointDeletesTheEntryEverywhere(String model) throws Exception {
        long id = unusedId();
        double calls = Metrics.downstreamCalls();
        cached(model, id);
        awaitDownstreamCalls(calls + 3);

        given().delete("/cache/aggregate/{id}", id).then().statusCode(204);
        try (PlainRedis redis = new PlainRedis(redisPort())) {
            assertEquals("0", redis.send("EXISTS", key(id)), "the Redis key is gone");
        }
        cached(model, id);
        awaitDownstreamCalls(calls + 6); // computed again
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("io.concurrencylab.aggregation.AggregateTest#invalidIds")
    void answersTheSame400AsTheUncachedAggregate(String model, String id) {
        String uncached = given().get("/{model}/users/{id}/aggregate", model, id).then().statusCode(400).extract().asString();
        given().get("/{model}/users/{id}/aggregate/cached", model, id)
                .then().statusCode(400).contentType(ContentType.JSON)
                .body("error", equalTo("bad_request"))
                .body(equalTo(uncached));
    }

    @ParameterizedTest
    @FieldSource("models")
    void answersTheSame404AsTheUncachedAggregateAndDoesNotCacheIt(String model) {
        String uncached = given().get("/{model}/users/100001/aggregate", model).then().statusCode(404).extract().asString();
        for (int attempt = 0; attempt < 2; attempt++) {
            double calls = Metrics.downstreamCalls();
            given().get("/{model}/users/100001/aggregate/cached", model)
                    .then().statusCode(404).contentType(ContentType.JSON)
                    .body("error", equalTo("user_not_found"))
                    .body(equalTo(uncached));
            awaitDownstreamCalls(calls + 1); // base answers 404, every time: a failure is not cached
        }
    }

    @ParameterizedTest
    @FieldSource("invalidDeleteIds")
    void theInvalidationEndpointAnswers400ForAnIdThatIsNotAPositiveNumber(String id) {
        given().delete("/cache/aggregate/{id}", id)
                .then().statusCode(400).contentType(ContentType.JSON)
                .body("status", equalTo(400), "error", equalTo("bad_request"));
    }

    static final List<String> invalidDeleteIds = List.of("abc", "0", "-5", "1.5");
}
