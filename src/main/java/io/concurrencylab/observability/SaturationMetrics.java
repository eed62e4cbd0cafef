package io.concurrencylab.observability;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Set;

/**
 * {@code GET /lab/saturation}: the queues, pools and threads that say which resource saturated, in the Prometheus
 * text format, answered on the event loop. {@code /q/metrics} is served by the worker pool, so a starved worker pool
 * cannot report its own queue there; this route still answers then (the benchmark's sampler reads it every second).
 * Only the series listed here are rendered, which keeps the event loop's share to a fraction of a millisecond. The
 * JIT's compilation time is among them: the warm-up waits until it stops growing. A soak reads the heap in use, the
 * old generation after GC and the number of meters, which grows where a tag takes unbounded values.
 */
@ApplicationScoped
public class SaturationMetrics {

    static final String PATH = "/lab/saturation";

    /** Sample names as the Prometheus registry renders them. */
    static final Set<String> SERIES = Set.of(
            "lab_worker_pool_queued_tasks", "lab_worker_pool_threads",
            "lab_downstream_calls_in_flight", "lab_downstream_calls_waiting",
            "executor_queued_tasks", "executor_active_threads",
            "agroal_active_count", "agroal_awaiting_count", "agroal_blocking_time_average_milliseconds",
            "sql_pool_active", "sql_pool_queue_size",
            "cache_gets_total", "lab_cache_remote_total",
            "jvm_threads_live_threads", "jvm_gc_pause_seconds_count", "jvm_gc_pause_seconds_sum",
            "jvm_gc_memory_allocated_bytes_total", "jvm_compilation_time_ms_total",
            "jvm_memory_used_bytes", "jvm_gc_live_data_size_bytes", "lab_meters", "lab_gc_time_seconds_total");

    private final PrometheusMeterRegistry registry;

    SaturationMetrics(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    /** {@code lab_meters}: the meters the registry holds. */
    @Produces
    @Singleton
    MeterBinder meterCount() {
        return registry -> Gauge.builder("lab.meters", registry, (MeterRegistry r) -> r.getMeters().size())
                .description("Meters in the registry").register(registry);
    }

    /**
     * {@code lab_heap_max_bytes}: the heap the runtime allows itself, as it sized it from -Xmx or from its memory
     * (a pod's limit). The executable's memory pools report no maximum, so jvm_memory_max_bytes cannot say it.
     */
    @Produces
    @Singleton
    MeterBinder heapMax() {
        return registry -> Gauge.builder("lab.heap.max", Runtime.getRuntime(), Runtime::maxMemory)
                .baseUnit(BaseUnits.BYTES).description("The most heap the runtime will use").register(registry);
    }

    /**
     * {@code lab_gc_time_seconds_total}: the collectors' own time so far. The executable's collectors send no
     * notifications, so Micrometer's jvm_gc_pause stays empty there; this is its GC share's source.
     */
    @Produces
    @Singleton
    MeterBinder gcTime() {
        return registry -> FunctionCounter.builder("lab.gc.time", ManagementFactory.getGarbageCollectorMXBeans(),
                collectors -> collectors.stream().mapToLong(GarbageCollectorMXBean::getCollectionTime)
                        .filter(millis -> millis > 0).sum() / 1000.0)
                .baseUnit("seconds").description("Time the garbage collectors took so far").register(registry);
    }

    void register(@Observes Router router) {
        router.get(PATH).handler(request -> request.response()
                .putHeader(HttpHeaders.CONTENT_TYPE, TextFormat.CONTENT_TYPE_004)
                .end(registry.scrape(TextFormat.CONTENT_TYPE_004, SERIES)));
    }
}
