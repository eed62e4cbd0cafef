package io.concurrencylab.health;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness DOWN once the app can no longer serve: requests are in progress, and none has been answered for
 * {@code lab.liveness.stalled-after}, counted from the last answer or from the first request after it. A process can be alive and serve nothing: within
 * 0.5 CPU and a 128 MB heap, the executable timed out every request for 40 s after a burst. The kubelet restarts it.
 * <p>
 * Only the models' requests count, not the probes or the metrics the event loop answers even then. A request whose
 * client gave up is no longer waited for; an answer is a response sent. The default, 60 s, is twice the longest hold a
 * request may ask for ({@code lab.workload.max-hold-ms}).
 */
@Liveness
@Singleton
public class ServingLiveness implements HealthCheck {

    /** After the first gate, before the routes: every request the models serve. */
    private static final int ORDER = -999_999_999;
    private static final long NONE = Long.MIN_VALUE;

    private final Duration stalledAfter;
    private final AtomicInteger inProgress = new AtomicInteger();
    /** Since when requests in progress have had no answer; NONE while none is in progress. */
    private final AtomicLong waitingSince = new AtomicLong(NONE);

    ServingLiveness(@ConfigProperty(name = "lab.liveness.stalled-after", defaultValue = "60s") Duration stalledAfter) {
        this.stalledAfter = stalledAfter;
    }

    void register(@Observes @Priority(ORDER) Router router) {
        router.route().order(ORDER).handler(this::watch);
    }

    void watch(RoutingContext request) {
        String path = request.normalizedPath();
        if (path.startsWith("/q/") || path.startsWith("/lab/")) {
            request.next();
            return;
        }
        inProgress.incrementAndGet();
        waitingSince.compareAndSet(NONE, System.nanoTime());
        request.addEndHandler(ended -> {
            boolean idle = inProgress.decrementAndGet() == 0;
            if (idle) {
                waitingSince.set(NONE);
            } else if (ended.succeeded()) {
                waitingSince.set(System.nanoTime()); // the others wait from this answer on
            }
        });
        request.next();
    }

    @Override
    public HealthCheckResponse call() {
        long since = waitingSince.get();
        long waitedMs = since == NONE || inProgress.get() == 0 ? 0 : (System.nanoTime() - since) / 1_000_000;
        return HealthCheckResponse.named("serving").status(waitedMs < stalledAfter.toMillis())
                .withData("requests in progress", inProgress.get())
                .withData("ms without an answer", waitedMs).build();
    }
}
