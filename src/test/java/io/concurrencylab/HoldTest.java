package io.concurrencylab;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.doAnswer;

import io.concurrencylab.workload.BlockingWorkloads;
import io.concurrencylab.workload.Timers;
import io.concurrencylab.workload.WorkloadConfig;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.mockito.InjectSpy;
import io.restassured.http.ContentType;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code GET /{model}/hold?ms=N}: answers after N ms, waiting where the model claims, and refuses what it must. */
@QuarkusTest
class HoldTest {

    static final List<String> models = Models.ALL;
    static final Map<String, List<String>> WAITS = Map.of(
            "virtual", List.of("sleep on virtual thread"),
            "worker", List.of("sleep on worker thread"),
            "reactive", List.of("timer set on event loop", "answer on event loop"));

    @Inject
    WorkloadConfig config;

    @InjectSpy
    BlockingWorkloads blocking;

    @InjectSpy
    Timers timers;

    final List<String> waits = new CopyOnWriteArrayList<>();

    @BeforeEach
    void recordWhereRequestsWait() {
        doAnswer(call -> {
            waits.add("sleep on " + ThreadRecorder.currentKind());
            return call.callRealMethod();
        }).when(blocking).hold(anyLong());
        doAnswer(call -> {
            waits.add("timer set on " + ThreadRecorder.currentKind());
            Uni<?> answer = (Uni<?>) call.callRealMethod();
            return answer.invoke(() -> waits.add("answer on " + ThreadRecorder.currentKind()));
        }).when(timers).after(any(), any());
    }

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
    void waitsWhereTheModelClaims(String model) {
        given().queryParam("ms", 20).when().get("/{model}/hold", model).then().statusCode(200);

        assertEquals(WAITS.get(model), waits);
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
        given().queryParam("ms", config.maxHoldMs() + 1).when().get("/{model}/hold", model)
                .then().statusCode(400).contentType(ContentType.JSON).body("error", equalTo("bad_request"));
        given().when().get("/{model}/hold", model)
                .then().statusCode(400).contentType(ContentType.JSON).body("error", equalTo("bad_request"));
        assertEquals(List.of(), waits);
    }
}
