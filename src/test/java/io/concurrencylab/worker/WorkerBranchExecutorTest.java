package io.concurrencylab.worker;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.PackagedApp;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Article 000's mistake in miniature: the worker model's branches on a dedicated pool far too small for the load
 * (one core thread, a long queue, so ThreadPoolExecutor never grows). Branches queue and the answers slow down,
 * visibly in the executor's metrics, while the same burst on virtual threads stays near the 600 ms ideal.
 */
@QuarkusTest
@TestProfile(WorkerBranchExecutorTest.TinyDedicatedPool.class)
class WorkerBranchExecutorTest {

    static final int BURST = 8;
    static final Pattern QUEUED = Pattern.compile("^executor_queued_tasks\\{.*name=\"worker-branches\".*} (\\S+)$",
            Pattern.MULTILINE);

    @Test
    void aTooSmallDedicatedPoolQueuesBranchesWhileVirtualThreadsDoNot() throws Exception {
        long[] worker = burst("worker", true);
        long[] virtual = burst("virtual", false);
        System.out.printf("branch executor 1/2/100: worker slowest %d ms, queue seen %d; virtual slowest %d ms%n",
                worker[0], worker[1], virtual[0]);
        assertTrue(worker[1] > 0, "branches queued on the dedicated pool");
        assertTrue(worker[0] > 1_500, "the queue shows in the answers: slowest " + worker[0] + " ms");
        assertTrue(virtual[0] < 1_500, "virtual threads do not queue: slowest " + virtual[0] + " ms");
    }

    /** The slowest answer of a burst, and the longest branch queue seen during it. */
    private static long[] burst(String model, boolean watchQueue) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(BURST);
        try {
            List<CompletableFuture<Long>> requests = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                int id = 20 + i;
                requests.add(CompletableFuture.supplyAsync(() -> {
                    long started = System.nanoTime();
                    given().get("/{model}/users/{id}/aggregate", model, id).then().statusCode(200);
                    return (System.nanoTime() - started) / 1_000_000;
                }, clients));
            }
            long queued = 0;
            while (watchQueue && !requests.stream().allMatch(CompletableFuture::isDone)) {
                Matcher gauge = QUEUED.matcher(given().accept("text/plain").get("/q/metrics").asString());
                if (gauge.find()) {
                    queued = Math.max(queued, (long) Double.parseDouble(gauge.group(1)));
                }
                PackagedApp.sleep(100);
            }
            long slowest = 0;
            for (CompletableFuture<Long> request : requests) {
                slowest = Math.max(slowest, request.get());
            }
            return new long[] { slowest, queued };
        } finally {
            clients.shutdown();
        }
    }

    public static class TinyDedicatedPool implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // The deadline widened so that the queueing shows as latency rather than as 504s.
            return Map.of("lab.worker.branches.executor", "dedicated", "lab.worker.branches.core-size", "1",
                    "lab.worker.branches.max-size", "2", "lab.worker.branches.queue-size", "100",
                    "lab.aggregate.deadline", "30s");
        }
    }
}
