package io.concurrencylab.downstream;

import io.concurrencylab.user.UserAggregate;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Article 000's aggregation in blocking style: base first, then detail and extra in parallel on the
 * executor the caller chooses. The virtual and worker models differ only in that executor, which is
 * exactly the difference the benchmark measures.
 */
@ApplicationScoped
public class BlockingAggregation {

    private final DownstreamClient downstream;

    BlockingAggregation(@RestClient DownstreamClient downstream) {
        this.downstream = downstream;
    }

    public UserAggregate aggregate(long id, Executor branches) {
        BaseInfo base = downstream.base(id);
        CompletableFuture<DetailInfo> detail = CompletableFuture.supplyAsync(() -> downstream.detail(base.id()), branches);
        CompletableFuture<ExtraInfo> extra = CompletableFuture.supplyAsync(() -> downstream.extra(base.id()), branches);
        try {
            return detail.thenCombine(extra, (d, e) -> UserAggregate.of(base, d, e)).join();
        } catch (CompletionException e) {
            // Rethrow what the branch threw, so that the error mapping sees the real cause.
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /** The reference without parallelism: 100 + 300 + 500 ms. */
    public UserAggregate aggregateSequentially(long id) {
        BaseInfo base = downstream.base(id);
        return UserAggregate.of(base, downstream.detail(base.id()), downstream.extra(base.id()));
    }
}
