package io.concurrencylab.aggregation;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Article 000's aggregation in non-blocking style, for the reactive model: base first, then detail and extra as two
 * pending calls at once. The twin of {@link BlockingAggregation}: no thread waits for a branch, so there is no
 * executor to choose.
 */
@ApplicationScoped
public class ReactiveAggregation {

    private final ReactiveDownstreamClient downstream;
    private final Duration deadline;

    ReactiveAggregation(@RestClient ReactiveDownstreamClient downstream, AggregationConfig config) {
        this.downstream = downstream;
        this.deadline = config.deadline();
    }

    public Uni<UserAggregate> aggregate(long id) {
        return downstream.base(id).chain(base -> Uni.combine().all()
                .unis(downstream.detail(base.id()), downstream.extra(base.id()))
                .with((detail, extra) -> UserAggregate.of(base, detail, extra)))
                // The same deadline as the blocking models; cancelling the Uni cancels the calls still pending.
                .ifNoItem().after(deadline).failWith(AggregationConfig::deadlineExceeded);
    }

    /** The reference without parallelism: 100 + 300 + 500 ms. */
    public Uni<UserAggregate> aggregateSequentially(long id) {
        return downstream.base(id).chain(base -> downstream.detail(base.id())
                .chain(detail -> downstream.extra(base.id())
                        .map(extra -> UserAggregate.of(base, detail, extra))));
    }
}
