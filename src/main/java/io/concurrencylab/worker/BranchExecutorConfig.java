package io.concurrencylab.worker;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Where the worker model runs its two parallel branches. Article 000 ran them on a dedicated Spring
 * {@code ThreadPoolTaskExecutor}, whose size decided everything; its presets are profiles in application.properties:
 * {@code article-small} (core 6, max 12, queue 500), {@code article-50-150}, {@code article-100-300}.
 */
@ConfigMapping(prefix = "lab.worker.branches")
public interface BranchExecutorConfig {

    /** {@code worker-pool}: the request pool itself (it starves under load); {@code dedicated}: a bounded pool of its own. */
    @WithDefault("worker-pool")
    Kind executor();

    /** Dedicated pool: threads kept. {@code ThreadPoolExecutor} starts more only once the queue is full. */
    @WithDefault("6")
    int coreSize();

    @WithDefault("12")
    int maxSize();

    /** Dedicated pool: branches waiting; past it a branch is refused and the request answers 503. */
    @WithDefault("500")
    int queueSize();

    enum Kind {
        WORKER_POOL,
        DEDICATED
    }
}
