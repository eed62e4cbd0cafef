package io.concurrencylab.aggregation;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Downstream calls in flight per REST client (the blocking one of the virtual and worker models, the Uni one of the
 * reactive model; each has its own connection pool) and, over HTTP/1.1, how many of them wait for a connection:
 * a connection carries one call at a time, so the calls beyond {@code connection-pool-size} queue in the pool.
 * Exported as {@code lab_downstream_calls_in_flight{client}} and {@code lab_downstream_calls_waiting{client}}; the
 * benchmark's report names the wait when it limits the aggregation. Over HTTP/2 a connection multiplexes many calls,
 * so the waiting gauge is left out there. Created at start, so that the gauges read 0 before the first call.
 */
@Startup
@ApplicationScoped
public class DownstreamCallGauges {

    private final AtomicInteger blocking = new AtomicInteger();
    private final AtomicInteger reactive = new AtomicInteger();

    DownstreamCallGauges(MeterRegistry registry,
            // Quarkus REST client's default pool size
            @ConfigProperty(name = "quarkus.rest-client.downstream.connection-pool-size", defaultValue = "50") int poolSize,
            @ConfigProperty(name = "quarkus.rest-client.downstream.http2", defaultValue = "false") boolean http2) {
        register(registry, "blocking", blocking, poolSize, http2);
        register(registry, "reactive", reactive, poolSize, http2);
    }

    private static void register(MeterRegistry registry, String client, AtomicInteger inFlight, int poolSize,
            boolean http2) {
        Gauge.builder("lab.downstream.calls.in.flight", inFlight, AtomicInteger::get).tag("client", client)
                .description("Downstream calls sent and not yet answered, waiting for a connection included")
                .register(registry);
        if (!http2) {
            Gauge.builder("lab.downstream.calls.waiting", inFlight, n -> Math.max(0, n.get() - poolSize))
                    .tag("client", client)
                    .description("Downstream calls beyond the client's connection pool: waiting for a connection")
                    .register(registry);
        }
    }

    /** Counts a blocking call for as long as it runs. */
    <T> T blockingCall(Call<T> call) throws Exception {
        blocking.incrementAndGet();
        try {
            return call.proceed();
        } finally {
            blocking.decrementAndGet();
        }
    }

    /** Counts a Uni call from its subscription to its item, failure or cancellation. */
    <T> Uni<T> reactiveCall(Uni<T> call) {
        return call.onSubscription().invoke(reactive::incrementAndGet)
                .onTermination().invoke(reactive::decrementAndGet);
    }

    @FunctionalInterface
    interface Call<T> {
        T proceed() throws Exception;
    }
}
