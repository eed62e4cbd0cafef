package io.concurrencylab.aggregation;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.concurrencylab.support.Models;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpVersion;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The documented option {@code quarkus.rest-client.downstream.http2=true}: every model gives the same answers, and its
 * downstream calls reach the downstream service as HTTP/2 (the service sees the protocol of each request).
 */
@QuarkusTest
@TestProfile(DownstreamHttp2Test.Http2.class)
class DownstreamHttp2Test {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void aggregatesOverHttp2(String model) {
        // The first call of a client may be the HTTP/1.1 request that upgrades its connection (h2c).
        given().get("/{model}/users/41/aggregate", model).then().statusCode(200);
        long http2Before = DownstreamProtocols.count(HttpVersion.HTTP_2);
        long http1Before = DownstreamProtocols.count(HttpVersion.HTTP_1_1);

        given().get("/{model}/users/42/aggregate", model).then().statusCode(200).body(equalTo("""
                {"id":42,"name":"User 42","age":60,"sex":"F","phone":"+1-555-0000042","level":"gold"}"""));

        assertEquals(3, DownstreamProtocols.count(HttpVersion.HTTP_2) - http2Before, model + ": HTTP/2 calls");
        assertEquals(0, DownstreamProtocols.count(HttpVersion.HTTP_1_1) - http1Before, model + ": HTTP/1.1 calls");
        given().get("/{model}/users/100001/aggregate", model).then().statusCode(404)
                .body("error", equalTo("user_not_found"));
    }

    /** Counts the downstream service's requests per HTTP version (a test bean: it is in every test app, and cheap). */
    @ApplicationScoped
    static class DownstreamProtocols {

        private static final Map<HttpVersion, LongAdder> COUNTS = new ConcurrentHashMap<>();

        static long count(HttpVersion version) {
            LongAdder count = COUNTS.get(version);
            return count == null ? 0 : count.sum();
        }

        void register(@Observes Filters filters) {
            filters.register(rc -> {
                if (rc.normalizedPath().startsWith("/downstream/")) {
                    COUNTS.computeIfAbsent(rc.request().version(), v -> new LongAdder()).increment();
                }
                rc.next();
            }, 100);
        }
    }

    public static class Http2 implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.rest-client.downstream.http2", "true");
        }
    }
}
