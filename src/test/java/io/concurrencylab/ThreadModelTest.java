package io.concurrencylab;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;

import io.concurrencylab.tokens.Tokens;
import io.concurrencylab.user.ReactiveUserRepository;
import io.concurrencylab.user.UserRepository;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.mockito.InjectSpy;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Each model runs where it claims: the resource and its repository call on a virtual thread, a worker-pool thread or
 * the event loop, and so do the downstream calls (the blocking models' parallel branches included). Removing
 * {@code @RunOnVirtualThread} or {@code @Blocking}, or blocking on the event loop, fails here.
 */
@QuarkusTest
class ThreadModelTest {

    static final List<String> models = Models.ALL;

    @InjectSpy
    UserRepository users;

    @InjectSpy
    ReactiveUserRepository reactiveUsers;

    final List<String> repositoryCalls = new CopyOnWriteArrayList<>();

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
}
