package io.concurrencylab.worker;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.context.ManagedExecutor;
import org.eclipse.microprofile.context.ThreadContext;

/**
 * The executor of the worker model's parallel branches (see {@link BranchExecutorConfig}): the worker pool, or a
 * dedicated {@code ThreadPoolExecutor} with the article's semantics (core threads, then the queue, then up to max
 * threads, then refusal), its tasks wrapped to carry the caller's context as SmallRye Context Propagation does for
 * the worker pool. The dedicated pool reports {@code executor_*{name="worker-branches"}} metrics (queue, active).
 */
@ApplicationScoped
public class BranchExecutor implements Executor {

    private final Executor executor;
    private final ThreadPoolExecutor dedicated;

    BranchExecutor(BranchExecutorConfig config, ManagedExecutor workerPool, ThreadContext context, MeterRegistry metrics) {
        if (config.executor() == BranchExecutorConfig.Kind.WORKER_POOL) {
            this.dedicated = null;
            this.executor = workerPool;
            return;
        }
        AtomicInteger threads = new AtomicInteger();
        this.dedicated = new ThreadPoolExecutor(config.coreSize(), config.maxSize(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(config.queueSize()),
                task -> new Thread(task, "worker-branch-" + threads.incrementAndGet()),
                new ThreadPoolExecutor.AbortPolicy());
        ExecutorServiceMetrics.monitor(metrics, dedicated, "worker-branches");
        this.executor = task -> dedicated.execute(context.contextualRunnable(task));
    }

    @Override
    public void execute(Runnable branch) {
        executor.execute(branch);
    }

    @PreDestroy
    void stop() {
        if (dedicated != null) {
            dedicated.shutdownNow();
        }
    }
}
