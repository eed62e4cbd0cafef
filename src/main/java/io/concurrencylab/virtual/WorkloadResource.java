package io.concurrencylab.virtual;

import io.concurrencylab.workload.BlockingWorkloads;
import io.concurrencylab.workload.HoldAnswer;
import io.concurrencylab.workload.MixedAnswer;
import io.concurrencylab.workload.WorkloadLimits;
import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/** Long-held requests and I/O mixed with CPU work, one virtual thread per request: it unmounts while it waits. */
@Path("/virtual")
@RunOnVirtualThread
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
