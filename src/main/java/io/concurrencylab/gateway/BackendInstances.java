package io.concurrencylab.gateway;

import io.concurrencylab.backend.BackendServers;
import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.resteasy.reactive.client.api.QuarkusRestClientProperties;

/**
 * The backend instances and their REST clients, taken in turn (round-robin). The gateway names the instance that
 * served each answer, so it holds one client per instance instead of a load-balanced one that would hide it.
 */
@ApplicationScoped
public class BackendInstances {

    /** One instance: its name (host:port) and its two clients. */
    public record Instance(String name, BlockingBackendClient blocking, ReactiveBackendClient reactive) {
    }

    private final List<Instance> instances;
    private final AtomicLong turns = new AtomicLong();

    BackendInstances(GatewayConfig config, BackendServers local) {
        List<URI> urls = config.instances().orElseGet(local::urls);
        this.instances = urls.stream().map(url -> new Instance(url.getAuthority(),
                client(url, config, BlockingBackendClient.class), client(url, config, ReactiveBackendClient.class)))
                .toList();
    }

    private static <T> T client(URI url, GatewayConfig config, Class<T> type) {
        return QuarkusRestClientBuilder.newBuilder().baseUri(url)
                .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .property(QuarkusRestClientProperties.CONNECTION_POOL_SIZE, config.connectionPoolSize())
                .build(type);
    }

    /** The next instance in turn. */
    public Instance next() {
        if (instances.isEmpty()) {
            throw new ServiceException(ErrorCode.DOWNSTREAM_UNAVAILABLE,
                    "No backend instances: set lab.gateway.instances (or lab.backend.ports to serve them here)");
        }
        return instances.get((int) (turns.getAndIncrement() % instances.size()));
    }

    /** Their connections close with the application (and at each dev-mode reload). */
    @PreDestroy
    void close() throws Exception {
        for (Instance instance : instances) {
            for (Object client : List.of(instance.blocking(), instance.reactive())) {
                if (client instanceof AutoCloseable closeable) {
                    closeable.close();
                }
            }
        }
    }
}
