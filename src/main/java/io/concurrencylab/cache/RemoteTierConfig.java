package io.concurrencylab.cache;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The Redis tier of the aggregate cache. Where Redis is comes from Quarkus' own {@code quarkus.redis.hosts}. */
@ConfigMapping(prefix = "lab.cache.remote")
public interface RemoteTierConfig {

    /** How long Redis keeps an aggregate. */
    @WithDefault("10m")
    Duration ttl();

    /**
     * The longest a request waits for Redis, per command, in every model (the blocking data source's
     * {@code quarkus.redis.timeout} is set to it); past it the request goes on without the remote tier.
     */
    @WithDefault("250ms")
    Duration timeout();

    /** After a failed Redis command, requests leave Redis alone this long, then the next one tries again. */
    @WithDefault("1s")
    Duration retryInterval();
}
