package io.concurrencylab.cache;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Keeps Redis an optimisation for both remote tiers, blocking and reactive: after a failed command requests leave
 * Redis alone for {@code lab.cache.remote.retry-interval}, then the next one tries again, so an outage costs each
 * request nothing and recovery needs no restart. An outage is logged once when it starts and once when it ends, not
 * per request, and every lookup is counted: {@code lab_cache_remote_total{result="hit|miss|error|skipped"}}
 * (skipped: not asked, during the pause after a failure).
 */
@ApplicationScoped
public class RemoteTierGuard {

    private static final Logger LOG = Logger.getLogger(RemoteTierGuard.class);

    private final boolean configured;
    private final long retryIntervalNanos;
    private final Counter hits;
    private final Counter misses;
    private final Counter errors;
    private final Counter skipped;
    private final AtomicBoolean failing = new AtomicBoolean();
    private volatile long pausedUntil;

    RemoteTierGuard(RedisLocation location, RemoteTierConfig config, MeterRegistry registry) {
        this.configured = location.isConfigured();
        this.retryIntervalNanos = config.retryInterval().toNanos();
        this.hits = counter(registry, "hit");
        this.misses = counter(registry, "miss");
        this.errors = counter(registry, "error");
        this.skipped = counter(registry, "skipped");
    }

    private static Counter counter(MeterRegistry registry, String result) {
        return Counter.builder("lab.cache.remote").description("Lookups of the aggregate cache's Redis tier")
                .tag("result", result).register(registry);
    }

    /** Whether a lookup may ask Redis now; a lookup refused during a pause counts as skipped. */
    boolean allowsLookup() {
        if (!configured) {
            return false;
        }
        if (isPaused()) {
            skipped.increment();
            return false;
        }
        return true;
    }

    /** Whether a write may go to Redis now. */
    boolean allowsStore() {
        return configured && !isPaused();
    }

    void found(boolean hit) {
        (hit ? hits : misses).increment();
        succeeded();
    }

    void succeeded() {
        if (failing.compareAndSet(true, false)) {
            LOG.info("Redis answers again: the aggregate cache's remote tier is back");
        }
    }

    void failed(Throwable failure) {
        errors.increment();
        pausedUntil = System.nanoTime() + retryIntervalNanos;
        if (failing.compareAndSet(false, true)) {
            LOG.warnf("Redis failed (%s): the aggregate cache goes on with its local tier and the downstream, and tries "
                    + "Redis again every %d ms until it answers", failure, retryIntervalNanos / 1_000_000);
        }
    }

    private boolean isPaused() {
        return failing.get() && System.nanoTime() - pausedUntil < 0;
    }
}
