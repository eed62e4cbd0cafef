package io.concurrencylab.downstream;

import io.concurrencylab.user.UserAggregate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Article 000's aggregation in blocking style: base first, then detail and extra in parallel on the
 * executor the caller chooses. The virtual and worker models differ only in that executor, which is
 * exactly the difference the benchmark measures.
 */
@ApplicationScoped
public class BlockingAggregation {

    private final DownstreamClient downstream;
    private final Duration deadline;

    BlockingAggregation(@RestClient DownstreamClient downstream,
            @ConfigProperty(name = "downstream.aggregate-deadline") Duration deadline) {
        this.downstream = downstream;
        this.deadline = deadline;
    }

    public UserAggregate aggregate(long id, Executor branches) {
        BaseInfo base = downstream.base(id);
        CompletableFuture<DetailInfo> detail = CompletableFuture.supplyAsync(() -> downstream.detail(base.id()), branches);
        CompletableFuture<ExtraInfo> extra = CompletableFuture.supplyAsync(() -> downstream.extra(base.id()), branches);
        try {
            return detail.thenCombine(extra, (d, e) -> UserAggregate.of(base, d, e))
                    .get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // A starved pool queues the branches behind new requests while this thread waits for them: without a
            // deadline every pool thread ends up waiting and the pool never recovers. Cancelled branches that
            // have not started yet are skipped, which drains the queue.
            detail.cancel(false);
            extra.cancel(false);
            throw new ProcessingException("Aggregation not done within " + deadline, e);
        } catch (ExecutionException e) {
            // Rethrow what the branch threw, so that the error mapping sees the real cause.
            throw e.getCause() instanceof RuntimeException cause ? cause : new ProcessingException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProcessingException(e);
        }
    }

    /** The reference without parallelism: 100 + 300 + 500 ms. */
    public UserAggregate aggregateSequentially(long id) {
        BaseInfo base = downstream.base(id);
        return UserAggregate.of(base, downstream.detail(base.id()), downstream.extra(base.id()));
    }
}
