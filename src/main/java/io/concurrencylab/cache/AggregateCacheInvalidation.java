package io.concurrencylab.cache;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.keys.ReactiveKeyCommands;
import io.quarkus.redis.datasource.pubsub.ReactivePubSubCommands;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Forgets a user's cached aggregate in every replica: deletes the Redis key, then this replica's local entry (so that
 * its next answer is fresh), then tells the other replicas on the invalidation channel ({@link InvalidationListener}).
 * Fails with {@code cache_unavailable} when Redis could not be reached, since the other replicas could not be told.
 * Without Redis there is only this replica's local entry to forget.
 */
@ApplicationScoped
class AggregateCacheInvalidation {

    private final Cache local;
    private final ReactiveKeyCommands<String> keys;
    private final ReactivePubSubCommands<String> channel;
    private final boolean shared;
    private final Duration timeout;

    AggregateCacheInvalidation(@CacheName(AggregateCacheNames.LOCAL) Cache local, ReactiveRedisDataSource redis,
            RedisLocation location, RemoteTierConfig config) {
        this.local = local;
        this.keys = redis.key();
        this.channel = redis.pubsub(String.class);
        this.shared = location.isConfigured();
        this.timeout = config.timeout();
    }

    Uni<Void> invalidate(long userId) {
        if (!shared) {
            return local.invalidate(userId);
        }
        return keys.del(AggregateCacheNames.redisKey(userId)).ifNoItem().after(timeout).fail()
                .call(() -> local.invalidate(userId))
                .call(() -> channel.publish(AggregateCacheNames.INVALIDATIONS, Long.toString(userId))
                        .ifNoItem().after(timeout).fail())
                .replaceWithVoid()
                .onFailure().transform(failure -> new ServiceException(ErrorCode.CACHE_UNAVAILABLE,
                        "Redis could not be reached: the other replicas were not told", failure));
    }
}
