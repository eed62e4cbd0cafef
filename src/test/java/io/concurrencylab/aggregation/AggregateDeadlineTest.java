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

/**
 * One deadline for the whole aggregation, the same in every model, with its own code: a healthy downstream that
 * simply needs longer than the deadline is not a downstream timeout.
 */
@QuarkusTest
@TestProfile(AggregateDeadlineTest.ShortDeadline.class)
class AggregateDeadlineTest {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void answers504AggregateDeadlineInEveryModel(String model) {
        given().when().get("/{model}/users/8/aggregate", model)
                .then().statusCode(504).contentType(ContentType.JSON)
                .body("status", equalTo(504), "error", equalTo("aggregate_deadline"))
                .time(lessThan(3_000L));
    }

    /** 100 ms, then 300 and 500 ms in parallel: 600 ms, past a 400 ms deadline. */
    public static class ShortDeadline implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lab.aggregate.deadline", "400ms");
        }
    }
}
