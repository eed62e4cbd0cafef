package io.concurrencylab.workload;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The platform pool that {@code mixed/offload} runs its CPU part on, in every model (article 002's advice: CPU-heavy
 * work belongs on a bounded platform pool). Bounded in threads, one per core by default, because more threads cannot
 * compute faster on the same cores and would only take them from the event loops and the request threads; bounded in
 * queue, because an unbounded one turns an overload into ever longer waits and a growing heap, whereas a full one
 * answers 503 {@code service_overloaded} at once. Its queue and active threads are the
 * {@code executor_*{name="cpu-offload"}} metrics.
 */
@ApplicationScoped
public class CpuOffload {

    private final ThreadPoolExecutor pool;

    CpuOffload(WorkloadConfig config, MeterRegistry metrics) {
        int threads = config.offload().threads().orElse(Runtime.getRuntime().availableProcessors());
        AtomicInteger created = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(config.offload().queueSize()),
                task -> new Thread(task, "cpu-offload-" + created.incrementAndGet()),
                new ThreadPoolExecutor.AbortPolicy());
        ExecutorServiceMetrics.monitor(metrics, pool, "cpu-offload");
    }

    /** The work's result, computed on the pool; a failed stage with 503 when the queue is full. */
    public <T> CompletionStage<T> supply(Supplier<T> work) {
        try {
            return CompletableFuture.supplyAsync(work, pool);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(
                    new ServiceException(ErrorCode.SERVICE_OVERLOADED, "The CPU pool's queue is full", e));
        }
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }
}
