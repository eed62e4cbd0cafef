package io.concurrencylab.workload;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.TestProfileConfig;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code GET /{model}/hold?ms=N}: answers after N ms and refuses what it must; against the packaged jar too
 * ({@link HoldIT}). Where each model waits: {@link ThreadModelTest}.
 */
@QuarkusTest
class HoldTest {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void answersAfterTheRequestedTime(String model) {
        long started = System.nanoTime();
        given().queryParam("ms", 300).when().get("/{model}/hold", model)
                .then().statusCode(200).contentType(ContentType.JSON).body(equalTo("{\"heldMs\":300}"));
        long took = (System.nanoTime() - started) / 1_000_000;
        // A lower bound only: how much longer it takes is the benchmark's business.
        assertTrue(took >= 300, model + " answered after " + took + " ms");
    }

    @ParameterizedTest
    @FieldSource("models")
    void zeroAnswersAtOnce(String model) {
        given().queryParam("ms", 0).when().get("/{model}/hold", model)
                .then().statusCode(200).body(equalTo("{\"heldMs\":0}"));
    }

    @ParameterizedTest(name = "{0}: ms={1}")
    @MethodSource("invalidDurations")
    void answers400JsonForADurationThatIsNotAWholeNumber(String model, String ms) {
        given().queryParam("ms", ms).when().get("/{model}/hold", model)
                .then().statusCode(400).contentType(ContentType.JSON)
                .body("status", equalTo(400), "error", equalTo("bad_request"));
    }

    static Stream<Arguments> invalidDurations() {
        return Models.ALL.stream().flatMap(model -> Stream.of("-1", "abc", "1.5", "", "99999999999999999999")
                .map(ms -> Arguments.of(model, ms)));
    }

    @ParameterizedTest
    @FieldSource("models")
    void answers400JsonBeyondTheConfiguredMaximumOrWithoutADuration(String model) {
        given().queryParam("ms", TestProfileConfig.longValue("lab.workload.max-hold-ms") + 1).when().get("/{model}/hold", model)
                .then().statusCode(400).contentType(ContentType.JSON).body("error", equalTo("bad_request"));
        given().when().get("/{model}/hold", model)
                .then().statusCode(400).contentType(ContentType.JSON).body("error", equalTo("bad_request"));
    }
}
