package io.concurrencylab.cache;

import io.concurrencylab.aggregation.UserAggregate;
import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.function.LongFunction;

/**
 * The aggregate cache for non-blocking code (reactive model): the local tier, then Redis through the reactive data
 * source (each command bounded by {@code lab.cache.remote.timeout}), then the computation, all as one Uni.
 */
@ApplicationScoped
public class ReactiveAggregateCache {

    private final Cache local;
    private final ReactiveValueCommands<String, UserAggregate> redis;
    private final RemoteTierGuard guard;
    private final long ttlMillis;
    private final Duration timeout;

    ReactiveAggregateCache(@CacheName(AggregateCacheNames.LOCAL) Cache local, ReactiveRedisDataSource redis,
            RemoteTierGuard guard, RemoteTierConfig config) {
        this.local = local;
        this.redis = redis.value(UserAggregate.class);
        this.guard = guard;
        this.ttlMillis = config.ttl().toMillis();
        this.timeout = config.timeout();
    }

    /** The cached aggregate of a user, else the computed one; concurrent callers for one id share one computation. */
    public Uni<UserAggregate> get(long id, LongFunction<Uni<UserAggregate>> compute) {
        return local.getAsync(id, key -> throughRedis(id, compute));
    }

    private Uni<UserAggregate> throughRedis(long id, LongFunction<Uni<UserAggregate>> compute) {
        Uni<UserAggregate> stored = !guard.allowsLookup() ? Uni.createFrom().nullItem()
                : redis.get(AggregateCacheNames.redisKey(id)).ifNoItem().after(timeout).fail()
                        .invoke(found -> guard.found(found != null))
                        .onFailure().recoverWithItem(failure -> {
                            guard.failed(failure);
                            return null;
                        });
        return stored.onItem().ifNull().switchTo(() -> compute.apply(id).call(computed -> store(id, computed)));
    }

    private Uni<Void> store(long id, UserAggregate computed) {
        if (!guard.allowsStore()) {
            return Uni.createFrom().voidItem();
        }
        return redis.psetex(AggregateCacheNames.redisKey(id), ttlMillis, computed).ifNoItem().after(timeout).fail()
                .invoke(guard::succeeded)
                .onFailure().recoverWithItem(failure -> {
                    guard.failed(failure);
                    return null;
                });
    }
}
