package io.concurrencylab.workload;

import io.concurrencylab.aggregation.ReactiveDownstreamClient;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Hold and mixed in non-blocking style, for the reactive model: the twin of {@link BlockingWorkloads}. Waiting is a
 * pending timer or call, no thread.
 */
@ApplicationScoped
public class ReactiveWorkloads {

    private final ReactiveDownstreamClient downstream;
    private final Timers timers;
    private final Sha256Rounds sha256;
    private final CpuOffload offload;

    ReactiveWorkloads(@RestClient ReactiveDownstreamClient downstream, Timers timers, Sha256Rounds sha256,
            CpuOffload offload) {
        this.downstream = downstream;
        this.timers = timers;
        this.sha256 = sha256;
        this.offload = offload;
    }

    /** A timer: the connection is held, no thread is. */
    public Uni<HoldAnswer> hold(long ms) {
        return timers.after(Duration.ofMillis(ms), () -> new HoldAnswer(ms));
    }

    /** The downstream call, then the rounds on the event loop: while they run, no other request on it progresses. */
    public Uni<MixedAnswer> mixed(int rounds) {
        return downstream.base(MixedAnswer.DOWNSTREAM_USER)
                .map(base -> new MixedAnswer(base.name(), rounds, sha256.digest(rounds), false));
    }

    /** The downstream call, then the rounds on the CPU pool; the event loop goes on meanwhile. */
    public Uni<MixedAnswer> mixedOffloaded(int rounds) {
        return downstream.base(MixedAnswer.DOWNSTREAM_USER).chain(base -> Uni.createFrom()
                .completionStage(() -> offload.supply(() -> sha256.digest(rounds)))
                .map(digest -> new MixedAnswer(base.name(), rounds, digest, true)));
    }
}
