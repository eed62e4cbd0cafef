package io.concurrencylab.workload;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.OptionalInt;

/** Bounds of the hold and mixed endpoints, and the pool that mixed/offload runs its CPU part on. */
@ConfigMapping(prefix = "lab.workload")
public interface WorkloadConfig {

    /** {@code hold?ms=N}: the longest a request may ask to be held; beyond it, 400. */
    @WithDefault("30000")
    long maxHoldMs();

    /** {@code mixed?cpu=N}: the most SHA-256 rounds a request may ask for; beyond it, 400. */
    @WithDefault("10000")
    int maxCpuRounds();

    Offload offload();

    interface Offload {

        /** Threads of the CPU pool; by default one per core the JVM sees. */
        OptionalInt threads();

        /** Tasks waiting for a CPU thread; past it a request is answered 503 at once. */
        @WithDefault("1000")
        int queueSize();
    }
}
