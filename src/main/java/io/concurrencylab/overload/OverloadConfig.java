package io.concurrencylab.overload;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How many requests of one kind a model may have in progress before the next one is answered 503 at once. Set well
 * above what the benchmark's scenarios drive (the aggregation at 1,000 concurrent users must never see one), so that
 * only an overload meets them; widen them to watch unbounded queueing on purpose.
 */
@ConfigMapping(prefix = "lab.overload")
public interface OverloadConfig {

    /** {@code /{model}/users/me}: a primary-key select behind a 20-connection pool queues, not parallelises, past this. */
    @WithDefault("256")
    int maxConcurrentLookups();

    /** {@code /{model}/users/{id}/aggregate[/sequential]}: each waits 600-900 ms on timers, holding little. */
    @WithDefault("4000")
    int maxConcurrentAggregations();

    /**
     * The first gate ({@link AdmissionControl}), off unless set: on, it kept a pod of 0.5 CPU answering a burst, but in
     * the bench it shed aggregations from 140/s, a tenth of their capacity, and JWT + MySQL from 710/s.
     */
    @WithDefault("false")
    boolean admissionControl();
}
