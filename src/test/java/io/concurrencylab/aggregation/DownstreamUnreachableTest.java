package io.concurrencylab.aggregation;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

import io.concurrencylab.support.Models;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** A downstream that cannot be reached gives a fast 502 JSON answer, in every model: aggregation and mixed. */
@QuarkusTest
@TestProfile(DownstreamUnreachableTest.Unreachable.class)
class DownstreamUnreachableTest {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void answers502Json(String model) {
        given().when().get("/{model}/users/1/aggregate", model)
                .then().statusCode(502).contentType(ContentType.JSON)
                .body("status", equalTo(502), "error", equalTo("downstream_unavailable"))
                .body(not(containsString("Exception")))
                .time(lessThan(3_000L));
    }

    @ParameterizedTest
    @FieldSource("models")
    void mixedAnswers502Json(String model) {
        for (String variant : List.of("mixed", "mixed/offload")) {
            given().queryParam("cpu", 1).when().get("/" + model + "/" + variant)
                    .then().statusCode(502).contentType(ContentType.JSON)
                    .body("status", equalTo(502), "error", equalTo("downstream_unavailable"))
                    .time(lessThan(3_000L));
        }
    }

    /** Nothing listens on port 1 of the loopback interface: connections are refused at once. */
    public static class Unreachable implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.rest-client.downstream.url", "http://127.0.0.1:1");
        }
    }
}
