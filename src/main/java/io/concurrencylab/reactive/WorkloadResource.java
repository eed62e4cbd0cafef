package io.concurrencylab.reactive;

import io.concurrencylab.workload.HoldAnswer;
import io.concurrencylab.workload.MixedAnswer;
import io.concurrencylab.workload.ReactiveWorkloads;
import io.concurrencylab.workload.WorkloadLimits;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/** Long-held requests and I/O mixed with CPU work on the event loop: waiting is a pending timer or call, no thread. */
@Path("/reactive")
public class WorkloadResource {

    private final ReactiveWorkloads workloads;
    private final WorkloadLimits limits;

    WorkloadResource(ReactiveWorkloads workloads, WorkloadLimits limits) {
        this.workloads = workloads;
        this.limits = limits;
    }

    @GET
    @Path("/hold")
    public Uni<HoldAnswer> hold(@QueryParam("ms") String ms) {
        return workloads.hold(limits.holdMs(ms));
    }

    @GET
    @Path("/mixed")
    public Uni<MixedAnswer> mixed(@QueryParam("cpu") String cpu) {
        return workloads.mixed(limits.cpuRounds(cpu));
    }

    @GET
    @Path("/mixed/offload")
    public Uni<MixedAnswer> mixedOffloaded(@QueryParam("cpu") String cpu) {
        return workloads.mixedOffloaded(limits.cpuRounds(cpu));
    }
}
