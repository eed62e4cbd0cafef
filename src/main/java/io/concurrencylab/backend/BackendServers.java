package io.concurrencylab.backend;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jboss.logging.Logger;

/**
 * Starts the gateway's backend instances of this process, one Vert.x HTTP server per configured port
 * ({@code lab.backend.ports}): in dev mode and tests two, on free ports, beside the app (as the downstream service
 * runs inside the app); in the benchmark a process of their own, the same jar in a backend role.
 */
@ApplicationScoped
public class BackendServers {

    private static final Logger LOG = Logger.getLogger(BackendServers.class);

    private final Vertx vertx;
    private final ObjectMapper json;
    private final BackendConfig config;
    private final List<HttpServer> servers = new ArrayList<>();
    private final List<URI> urls = new ArrayList<>();

    BackendServers(Vertx vertx, ObjectMapper json, BackendConfig config) {
        this.vertx = vertx;
        this.json = json;
        this.config = config;
    }

    void start(@Observes StartupEvent start) {
        List<Integer> ports = config.ports().orElse(List.of());
        if (ports.isEmpty()) {
            return;
        }
        BackendDocuments documents = new BackendDocuments(config.seed());
        // The app's own gateway reaches instances listening on every interface through the loopback one.
        String reachable = "0.0.0.0".equals(config.host()) ? "127.0.0.1" : config.host();
        for (int i = 0; i < ports.size(); i++) {
            BackendInstance instance = new BackendInstance(vertx, json, documents, new Random(config.seed() + i));
            HttpServer server = vertx.createHttpServer().requestHandler(instance.router())
                    .listen(ports.get(i), config.host()).toCompletionStage().toCompletableFuture().join();
            servers.add(server);
            urls.add(URI.create("http://" + reachable + ":" + server.actualPort()));
        }
        LOG.infof("Gateway backends (data, process, heavy) listening at %s", urls);
    }

    void stop(@Observes ShutdownEvent stop) {
        servers.forEach(HttpServer::close);
    }

    /** Where this process' backend instances listen; empty when it serves none. */
    public List<URI> urls() {
        return List.copyOf(urls);
    }
}
