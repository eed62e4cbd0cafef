package io.concurrencylab.observability;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ExecutorRecorder;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.util.ForwardingScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.lang.reflect.Method;
import java.util.concurrent.Executor;
import org.jboss.logging.Logger;
import org.jboss.threads.EnhancedQueueExecutor;

/**
 * Gauges of Quarkus' worker pool, the one the worker model's requests and branches run on. Quarkus exports
 * {@code worker_pool_*{pool_name="vert.x-worker-thread"}}, but that series counts only work handed over through
 * Vert.x ({@code executeBlocking}); Quarkus REST dispatches {@code @Blocking} methods to the pool directly, so it
 * stays at 0 while the pool starves. These read the pool itself: {@code lab_worker_pool_queued_tasks} (counted only
 * when the queue has a bound, hence {@code quarkus.thread-pool.queue-size}) and {@code lab_worker_pool_threads}.
 *
 * <p>Quarkus has no API for the pool's executor: {@link ExecutorRecorder#getCurrent()} is where its runtime keeps it,
 * wrapped (outside dev mode) in a forwarding executor whose {@code delegate()} is protected. Read through reflection
 * once at start; where that fails (another Quarkus version, a native image without the reflection entry) the gauges
 * are left out with one log line, and the benchmark's sampler reports the queue as not sampled.
 */
@ApplicationScoped
public class WorkerPoolGauges {

    private static final Logger LOG = Logger.getLogger(WorkerPoolGauges.class);

    void register(@Observes StartupEvent start, MeterRegistry registry) {
        EnhancedQueueExecutor pool = workerPool(ExecutorRecorder.getCurrent());
        if (pool == null) {
            LOG.infof("worker pool gauges left out: cannot reach the pool behind %s", ExecutorRecorder.getCurrent());
            return;
        }
        Gauge.builder("lab.worker.pool.queued.tasks", pool, EnhancedQueueExecutor::getQueueSize)
                .description("Tasks waiting for a worker thread").register(registry);
        Gauge.builder("lab.worker.pool.threads", pool, EnhancedQueueExecutor::getPoolSize)
                .description("Worker threads started").register(registry);
    }

    private static EnhancedQueueExecutor workerPool(Executor executor) {
        if (executor instanceof EnhancedQueueExecutor pool) {
            return pool;
        }
        if (executor instanceof ForwardingScheduledExecutorService forwarding) {
            try {
                Method delegate = ForwardingScheduledExecutorService.class.getDeclaredMethod("delegate");
                delegate.setAccessible(true);
                return workerPool((Executor) delegate.invoke(forwarding));
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.debugf(e, "cannot unwrap %s", executor);
            }
        }
        return null;
    }
}
