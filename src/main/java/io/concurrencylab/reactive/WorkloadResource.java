package io.concurrencylab.reactive;

import io.concurrencylab.aggregation.ReactiveDownstreamClient;
import io.concurrencylab.workload.CpuOffload;
import io.concurrencylab.workload.HoldAnswer;
import io.concurrencylab.workload.MixedAnswer;
import io.concurrencylab.workload.Sha256Rounds;
import io.concurrencylab.workload.Timers;
import io.concurrencylab.workload.WorkloadLimits;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.time.Duration;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** Long-held requests and I/O mixed with CPU work on the event loop: waiting is a pending timer or call, no thread. */
@Path("/reactive")
public class WorkloadResource {

    private final ReactiveDownstreamClient downstream;
    private final Timers timers;
    private final Sha256Rounds sha256;
    private final CpuOffload offload;
    private final WorkloadLimits limits;

    WorkloadResource(@RestClient ReactiveDownstreamClient downstream, Timers timers, Sha256Rounds sha256,
            CpuOffload offload, WorkloadLimits limits) {
        this.downstream = downstream;
        this.timers = timers;
        this.sha256 = sha256;
        this.offload = offload;
        this.limits = limits;
    }

    @GET
    @Path("/hold")
    public Uni<HoldAnswer> hold(@QueryParam("ms") String ms) {
        long held = limits.holdMs(ms);
        return timers.after(Duration.ofMillis(held), () -> new HoldAnswer(held));
    }

    /** The rounds run on the event loop: while they do, no other request on that loop makes progress. */
    @GET
    @Path("/mixed")
    public Uni<MixedAnswer> mixed(@QueryParam("cpu") String cpu) {
        int rounds = limits.cpuRounds(cpu);
        return downstream.base(MixedAnswer.DOWNSTREAM_USER)
                .map(base -> new MixedAnswer(base.name(), rounds, sha256.digest(rounds), false));
    }

    @GET
    @Path("/mixed/offload")
    public Uni<MixedAnswer> mixedOffloaded(@QueryParam("cpu") String cpu) {
        int rounds = limits.cpuRounds(cpu);
        return downstream.base(MixedAnswer.DOWNSTREAM_USER).chain(base -> Uni.createFrom()
                .completionStage(() -> offload.supply(() -> sha256.digest(rounds)))
                .map(digest -> new MixedAnswer(base.name(), rounds, digest, true)));
    }
}
