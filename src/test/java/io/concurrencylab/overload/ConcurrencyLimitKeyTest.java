package io.concurrencylab.overload;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;

import io.concurrencylab.Model;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.ThreadRecorder;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.mockito.InjectSpy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which requests share a concurrency counter, as the filter learns it from the matched route: one counter per model and
 * kind of work, none for anything else. Each is counted on the event loop, before the request reaches its model's
 * thread: without {@code nonBlocking}, or behind another request filter, the blocking models would count on a virtual
 * or worker thread, after waiting in the very queue the limit keeps short.
 */
@QuarkusTest
class ConcurrencyLimitKeyTest {

    static final String TOKEN = Tokens.rs256("user20@example.com");

    @InjectSpy
    ConcurrencyLimit limit;

    /** "worker AGGREGATION on event loop": what each request was counted as, and where. */
    final List<String> counted = new CopyOnWriteArrayList<>();

    @BeforeEach
    void recordTheCounters() {
        doAnswer(call -> {
            counted.add(((Model) call.getArgument(0)).path() + " " + call.getArgument(1) + " on "
                    + ThreadRecorder.currentKind());
            return call.callRealMethod();
        }).when(limit).enter(any(), any(), any());
    }

    static Stream<Arguments> countedRoutes() {
        return Models.ALL.stream().flatMap(model -> Stream.of(
                arguments("GET", "/" + model + "/users/me", model + " LOOKUP"),
                arguments("POST", "/" + model + "/users/me/report", model + " REPORT"),
                arguments("GET", "/" + model + "/users/20/aggregate", model + " AGGREGATION"),
                arguments("GET", "/" + model + "/users/20/aggregate/cached", model + " AGGREGATION"),
                arguments("GET", "/" + model + "/users/20/aggregate/sequential", model + " AGGREGATION")));
    }

    @ParameterizedTest
    @MethodSource("countedRoutes")
    void aModelsKindOfWorkIsOneCounterTakenOnTheEventLoop(String method, String path, String counter) {
        given().auth().oauth2(TOKEN).request(method, path).then().statusCode(200);

        assertEquals(List.of(counter + " on event loop"), counted);
    }

    /** The models' other routes, the downstream, the cache's own endpoint, health, metrics, unknown paths. */
    static Stream<Arguments> uncountedRoutes() {
        return Stream.concat(Models.ALL.stream().flatMap(model -> Stream.of(
                arguments("GET", "/" + model + "/hold?ms=0", 200),
                arguments("GET", "/" + model + "/mixed?cpu=0", 200),
                arguments("GET", "/" + model + "/gateway/api/data", 200),
                arguments("GET", "/" + model + "/users/me/settings", 404))), Stream.of(
                arguments("GET", "/downstream/base/1", 200),
                arguments("DELETE", "/cache/aggregate/1", 204),
                arguments("GET", "/lab/saturation", 200),
                arguments("GET", "/q/health/ready", 200),
                arguments("GET", "/carrier/users/me", 404)));
    }

    @ParameterizedTest
    @MethodSource("uncountedRoutes")
    void anythingElseHasNoCounter(String method, String path, int status) {
        given().auth().oauth2(TOKEN).request(method, path).then().statusCode(status);

        assertEquals(List.of(), counted);
    }
}
