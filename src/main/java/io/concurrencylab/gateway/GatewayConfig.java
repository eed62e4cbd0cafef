package io.concurrencylab.gateway;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Where the gateway forwards to, and how long it waits. */
@ConfigMapping(prefix = "lab.gateway")
public interface GatewayConfig {

    /** The backend instances, used in turn; not set: the instances this process serves itself (lab.backend.ports). */
    Optional<List<URI>> instances();

    /** Connecting to an instance: past it, 502 downstream_unavailable. */
    @WithDefault("1s")
    Duration connectTimeout();

    /** Waiting for an instance's answer: past it, 504 downstream_timeout (heavy's slowest answer takes 316 ms). */
    @WithDefault("5s")
    Duration readTimeout();

    /** Connections per instance and client kind; requests beyond them wait for one. */
    @WithDefault("1024")
    int connectionPoolSize();
}
