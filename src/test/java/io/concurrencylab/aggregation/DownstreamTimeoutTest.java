package io.concurrencylab.aggregation;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;

import io.concurrencylab.support.Models;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** A downstream slower than the client's read timeout gives a fast 504 JSON answer, in every model. */
@QuarkusTest
@TestProfile(DownstreamTimeoutTest.TooSlow.class)
class DownstreamTimeoutTest {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void answers504Json(String model) {
        given().when().get("/{model}/users/1/aggregate", model)
                .then().statusCode(504).contentType(ContentType.JSON)
                .body("status", equalTo(504), "error", equalTo("downstream_timeout"))
                .time(lessThan(3_000L));
    }

    /** The extra call takes 500 ms; a 300 ms read timeout cuts it off. */
    public static class TooSlow implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.rest-client.downstream.read-timeout", "300");
        }
    }
}
