package io.concurrencylab;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Article 000's starvation, made certain: with two worker threads, a worker-model aggregation holds one thread
 * and queues its two branches behind it, so one branch can never run. The deadline turns that into a 504 instead
 * of a thread stuck for ever, and the other models, which do not use the pool, are unaffected.
 */
@QuarkusTest
@TestProfile(WorkerPoolStarvationTest.TwoWorkerThreads.class)
class WorkerPoolStarvationTest {

    @Test
    void aStarvedWorkerPoolAnswers504AtTheDeadlineAndRecovers() {
        for (int attempt = 0; attempt < 2; attempt++) {
            given().when().get("/worker/users/5/aggregate")
                    .then().statusCode(504).contentType(ContentType.JSON)
                    .body("error", equalTo("aggregate_deadline"))
                    .time(lessThan(5_000L));
        }
        given().when().get("/virtual/users/5/aggregate").then().statusCode(200).body("id", equalTo(5));
        given().when().get("/reactive/users/5/aggregate").then().statusCode(200).body("id", equalTo(5));
    }

    public static class TwoWorkerThreads implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.thread-pool.max-threads", "2", "quarkus.thread-pool.core-threads", "1",
                    "lab.aggregate.deadline", "1500ms");
        }
    }
}
