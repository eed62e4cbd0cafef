package io.concurrencylab.cache;

import io.concurrencylab.data.EmbeddedRedis;
import io.quarkus.redis.client.RedisHostsProvider;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.inject.Default;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Where the remote tier's Redis is, if anywhere. A configured {@code quarkus.redis.hosts} always wins. Without it, dev
 * mode and tests ({@code lab.embedded-redis.enabled}) get the embedded Redis, started on first use, and production gets
 * no remote tier: the cache is an optimisation, and an app that needs Redis for it alone would be a worse app.
 * <p>
 * Quarkus builds its Redis client at start whether a host is configured or not, and asks this provider
 * ({@code quarkus.redis.hosts-provider-name}) only when {@code quarkus.redis.hosts} is not set. With no Redis at all
 * it gets no host: the client then points at Vert.x' default (localhost:6379) and is never used, because nothing calls
 * Redis when {@link #isConfigured()} is false.
 */
@Singleton
@Default // injected by the cache's own classes too, which @Identifier alone would prevent
@Identifier(RedisLocation.PROVIDER_NAME)
public class RedisLocation implements RedisHostsProvider {

    public static final String PROVIDER_NAME = "concurrency-lab";

    private final boolean hostsConfigured;
    private final boolean embedded;

    RedisLocation(@ConfigProperty(name = "quarkus.redis.hosts") Optional<String> hosts,
            @ConfigProperty(name = "lab.embedded-redis.enabled") boolean embedded) {
        this.hostsConfigured = hosts.filter(value -> !value.isBlank()).isPresent();
        this.embedded = embedded;
    }

    /** Whether there is a Redis to use: without one the aggregate cache is local to each replica. */
    public boolean isConfigured() {
        return hostsConfigured || embedded;
    }

    @Override
    public Set<URI> getHosts() {
        return embedded ? Set.of(URI.create(EmbeddedRedis.url(EmbeddedRedis.sharedPort()))) : Set.of();
    }
}
