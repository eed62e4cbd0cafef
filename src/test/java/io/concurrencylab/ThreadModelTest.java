package io.concurrencylab;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;

import io.concurrencylab.gateway.GatewayAnswers;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.ThreadRecorder;
import io.concurrencylab.support.Tokens;
import io.concurrencylab.user.BlockingUserRepository;
import io.concurrencylab.user.ReactiveUserRepository;
import io.concurrencylab.workload.BlockingWorkloads;
import io.concurrencylab.workload.Sha256Rounds;
import io.concurrencylab.workload.Timers;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.mockito.InjectSpy;
import io.restassured.http.ContentType;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each model runs where it claims: the resource and its repository call on a virtual thread, a worker-pool thread or
 * the event loop, and so do the downstream calls (the blocking models' parallel branches included), the gateway's
 * answers, the holds' waits and the mixed workload's rounds; a request refused for its input does none of that work.
 * Removing {@code @RunOnVirtualThread} or {@code @Blocking}, or blocking on the event loop, fails here.
 */
@QuarkusTest
class ThreadModelTest {

    static final List<String> models = Models.ALL;

    @InjectSpy
    BlockingUserRepository users;

    @InjectSpy
    ReactiveUserRepository reactiveUsers;

    @InjectSpy
    GatewayAnswers gatewayAnswers;

    @InjectSpy
    BlockingWorkloads blocking;

    @InjectSpy
    Timers timers;

    @InjectSpy
    Sha256Rounds sha256;

    final List<String> repositoryCalls = new CopyOnWriteArrayList<>();

    /** Where the gateway answered and the holds waited: "answer on worker thread", "sleep on virtual thread". */
    final List<String> work = new CopyOnWriteArrayList<>();

    /** Where the mixed workload's rounds ran (its downstream call waits on the downstream's own timers, in work). */
    final List<String> rounds = new CopyOnWriteArrayList<>();

    @BeforeEach
    void recordRepositoryThreads() {
        doAnswer(call -> {
            repositoryCalls.add("query on " + ThreadRecorder.currentKind());
            return call.callRealMethod();
        }).when(users).findViewByEmail(anyString());
        doAnswer(call -> {
            repositoryCalls.add("query on " + ThreadRecorder.currentKind());
            Uni<?> result = (Uni<?>) call.callRealMethod();
            return result.invoke(() -> repositoryCalls.add("row on " + ThreadRecorder.currentKind()));
        }).when(reactiveUsers).findViewByEmail(anyString());
        doAnswer(call -> {
            work.add("answer on " + ThreadRecorder.currentKind());
            return call.callRealMethod();
        }).when(gatewayAnswers).answer(any(), any(), anyString(), anyLong());
        doAnswer(call -> {
            work.add("sleep on " + ThreadRecorder.currentKind());
            return call.callRealMethod();
        }).when(blocking).hold(anyLong());
        doAnswer(call -> {
            work.add("timer set on " + ThreadRecorder.currentKind());
            Uni<?> answer = (Uni<?>) call.callRealMethod();
            return answer.invoke(() -> work.add("answer on " + ThreadRecorder.currentKind()));
        }).when(timers).after(any(), any());
        doAnswer(call -> {
            rounds.add("rounds on " + ThreadRecorder.currentKind());
            return call.callRealMethod();
        }).when(sha256).digest(anyInt());
        ThreadRecorder.DOWNSTREAM_CALLS.clear();
    }

    @ParameterizedTest
    @FieldSource("models")
    void theTokenLookupRunsOnTheModelsThread(String model) {
        given().auth().oauth2(Tokens.rs256("user13@example.com")).get("/{model}/users/me", model).then().statusCode(200);

        String kind = Models.THREAD_KIND.get(model);
        List<String> expected = model.equals("reactive") ? List.of("query on " + kind, "row on " + kind)
                : List.of("query on " + kind);
        assertEquals(expected, repositoryCalls);
    }

    @ParameterizedTest
    @FieldSource("models")
    void theAggregationsCallsRunOnTheModelsThreads(String model) {
        given().get("/{model}/users/14/aggregate", model).then().statusCode(200);

        String kind = Models.THREAD_KIND.get(model);
        assertEquals(List.of("base on " + kind, "detail on " + kind, "extra on " + kind),
                ThreadRecorder.DOWNSTREAM_CALLS.stream().sorted().toList());
    }

    @ParameterizedTest
    @FieldSource("models")
    void theGatewayAnswersOnTheModelsThread(String model) {
        given().get("/{model}/gateway/api/data", model).then().statusCode(200);

        assertEquals(List.of("answer on " + Models.THREAD_KIND.get(model)), work);
    }

    static final Map<String, List<String>> HOLD_WAITS = Map.of(
            "virtual", List.of("sleep on virtual thread"),
            "worker", List.of("sleep on worker thread"),
            "reactive", List.of("timer set on event loop", "answer on event loop"));

    @ParameterizedTest
    @FieldSource("models")
    void aHoldWaitsWhereTheModelClaims(String model) {
        given().queryParam("ms", 20).get("/{model}/hold", model).then().statusCode(200);

        assertEquals(HOLD_WAITS.get(model), work);
    }

    static List<String> mixedVariants() {
        return Models.ALL.stream().flatMap(model -> List.of(model + "/mixed", model + "/mixed/offload").stream())
                .toList();
    }

    @ParameterizedTest
    @MethodSource("mixedVariants")
    void theMixedWorkloadCallsOnTheModelsThreadAndComputesWhereTheVariantSays(String path) {
        given().queryParam("cpu", 10).get("/" + path).then().statusCode(200);

        String kind = Models.THREAD_KIND.get(path.substring(0, path.indexOf('/')));
        assertEquals(List.of("base on " + kind), ThreadRecorder.DOWNSTREAM_CALLS);
        assertEquals(1, rounds.size(), rounds.toString());
        if (path.endsWith("offload")) {
            assertTrue(rounds.get(0).startsWith("rounds on cpu-offload-"), rounds.toString());
        } else {
            assertEquals("rounds on " + kind, rounds.get(0));
        }
    }

    @ParameterizedTest
    @FieldSource("models")
    void noWorkIsDoneForARefusedRequestNorAnswerBuiltForAFailedBackend(String model) {
        given().queryParam("ms", -1).get("/{model}/hold", model).then().statusCode(400);
        given().queryParam("cpu", "abc").get("/{model}/mixed", model).then().statusCode(400);
        given().queryParam("cpu", "abc").get("/{model}/mixed/offload", model).then().statusCode(400);
        given().queryParam("status", 503).get("/{model}/gateway/api/data", model)
                .then().statusCode(502).contentType(ContentType.JSON);

        assertEquals(List.of(), work);
        assertEquals(List.of(), rounds);
        assertEquals(List.of(), ThreadRecorder.DOWNSTREAM_CALLS);
    }
}
