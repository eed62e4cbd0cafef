package io.concurrencylab.aggregation;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Article 000's aggregation in blocking style: base first, then detail and extra in parallel on the executor the
 * caller chooses. The virtual and worker models differ only in that executor, which is exactly the difference the
 * benchmark measures.
 */
@ApplicationScoped
public class BlockingAggregation {

    private final BlockingDownstreamClient downstream;
    private final Duration deadline;

    BlockingAggregation(@RestClient BlockingDownstreamClient downstream, AggregationConfig config) {
        this.downstream = downstream;
        this.deadline = config.deadline();
    }

    public UserAggregate aggregate(long id, Executor branches) {
        long started = System.nanoTime();
        BaseInfo base = downstream.base(id);
        CompletableFuture<DetailInfo> detail;
        CompletableFuture<ExtraInfo> extra;
        try {
            detail = CompletableFuture.supplyAsync(() -> downstream.detail(base.id()), branches);
            extra = CompletableFuture.supplyAsync(() -> downstream.extra(base.id()), branches);
        } catch (RejectedExecutionException e) {
            throw new ServiceException(ErrorCode.SERVICE_OVERLOADED, "The branch executor's queue is full", e);
        }
        long remainingNanos = deadline.toNanos() - (System.nanoTime() - started);
        try {
            return detail.thenCombine(extra, (d, e) -> UserAggregate.of(base, d, e))
                    .get(Math.max(0, remainingNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // A starved pool queues the branches behind new requests while this thread waits for them: without a
            // deadline every pool thread ends up waiting and the pool never recovers. Cancelled branches that
            // have not started yet are skipped, which drains the queue.
            detail.cancel(false);
            extra.cancel(false);
            throw AggregationConfig.deadlineExceeded();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw AggregationConfig.deadlineExceeded();
        }
    }

    /** The reference without parallelism: 100 + 300 + 500 ms. */
    public UserAggregate aggregateSequentially(long id) {
        BaseInfo base = downstream.base(id);
        return UserAggregate.of(base, downstream.detail(base.id()), downstream.extra(base.id()));
    }
}
