package io.concurrencylab.observability;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * {@code jvm_compilation_time_ms_total}: the time the JIT compilers have spent so far. The benchmark's warm-up reads it
 * from {@code /lab/saturation} and ends only once it has stopped growing: a JVM still compiling makes each request
 * cost several times what it costs warm. Quarkus' JVM metrics leave it out; Micrometer has the binder. A runtime
 * without a JIT (a native executable) has no such series.
 */
public class JitCompilationMetrics {

    @Produces
    @Singleton
    MeterBinder jitCompilationTime() {
        return new JvmCompilationMetrics();
    }
}
