package io.concurrencylab.worker;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Article 000's starvation, made certain: with one worker thread, a worker-model aggregation holds it and queues
 * its two branches behind it, so neither can run: the case of N aggregations holding all N threads, reduced to one.
 * The deadline turns that into a 504 instead of a thread stuck for ever, and the other models, which do not use
 * the pool, are unaffected.
 */
@QuarkusTest
@TestProfile(WorkerPoolStarvationTest.OneWorkerThread.class)
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

    /**
     * The sampler's view of the same starvation: /q/metrics is served by the starved pool itself, /lab/saturation by
     * the event loop, so the latter answers and shows the branches queued behind the aggregation.
     */
    @Test
    void theSaturationRouteShowsTheQueueOfAStarvedPool() {
        assertEquals(0, workerQueue(saturation()));
        // A client of its own, not the common pool (see DownstreamPoolWaitTest).
        try (ExecutorService client = Executors.newSingleThreadExecutor()) {
            CompletableFuture<Integer> starved = CompletableFuture.supplyAsync(
                    () -> given().when().get("/worker/users/6/aggregate").statusCode(), client);
            try {
                Awaitility.await().atMost(Duration.ofMillis(1400)).pollInterval(Duration.ofMillis(50))
                        .until(() -> workerQueue(saturation()) >= 1);
            } finally {
                assertEquals(504, starved.join());
            }
        }
    }

    private static String saturation() {
        return given().when().get("/lab/saturation").then().statusCode(200).extract().asString();
    }

    private static final Pattern WORKER_QUEUE = Pattern.compile(
            "^lab_worker_pool_queued_tasks ([0-9.E+-]+)$", Pattern.MULTILINE);

    private static double workerQueue(String scrape) {
        Matcher m = WORKER_QUEUE.matcher(scrape);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    public static class OneWorkerThread implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.thread-pool.max-threads", "1", "quarkus.thread-pool.core-threads", "1",
                    "lab.aggregate.deadline", "1500ms");
        }
    }
}
