package io.concurrencylab.overload;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

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
     * The first gate ({@link AdmissionControl}), on unless set false: within 0.5 CPU, without it a burst of lookups at
     * 2.5 times a pod's capacity went 97 % unanswered within 1 s.
     */
    @WithDefault("true")
    boolean admissionControl();

    /**
     * Once a queue stands, the first gate lets in as many of a model's lookups as it answered in this time, at its best
     * of the last second: a queue it drains within it. Short, so that the CPU the admitted leave answers the rest: at
     * 50 ms the executable left 1.2 % of a burst at 2.5 times its capacity unanswered, at 20 ms none.
     */
    @WithDefault("20ms")
    Duration queueTime();

    /**
     * Once an event loop runs its timer later than this twice in a row, the first gate answers every lookup and report
     * reaching it 503 at once: they waited that long in the sockets. Past the 50 ms a quota of 0.5 CPU can hold a loop
     * back.
     */
    @WithDefault("100ms")
    Duration maxLoopLag();

    /** The first gate's limit where the app answered fewer: at start-up, after an idle spell, or a database stall. */
    @WithDefault("8")
    int minInFlight();
}
