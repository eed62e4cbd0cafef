package io.concurrencylab.worker;

import io.concurrencylab.workload.BlockingWorkloads;
import io.concurrencylab.workload.HoldAnswer;
import io.concurrencylab.workload.MixedAnswer;
import io.concurrencylab.workload.WorkloadLimits;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/** Long-held requests and I/O mixed with CPU work on the worker pool: each waits holding a pool thread. */
@Path("/worker")
@Blocking
public class WorkloadResource {

    private final BlockingWorkloads workloads;
    private final WorkloadLimits limits;

    WorkloadResource(BlockingWorkloads workloads, WorkloadLimits limits) {
        this.workloads = workloads;
        this.limits = limits;
    }

    @GET
    @Path("/hold")
    public HoldAnswer hold(@QueryParam("ms") String ms) {
        return workloads.hold(limits.holdMs(ms));
    }

    @GET
    @Path("/mixed")
    public MixedAnswer mixed(@QueryParam("cpu") String cpu) {
        return workloads.mixed(limits.cpuRounds(cpu));
    }

    @GET
    @Path("/mixed/offload")
    public MixedAnswer mixedOffloaded(@QueryParam("cpu") String cpu) {
        return workloads.mixedOffloaded(limits.cpuRounds(cpu));
    }
}
