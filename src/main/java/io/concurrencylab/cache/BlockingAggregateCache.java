package io.concurrencylab.cache;

import io.concurrencylab.aggregation.UserAggregate;
import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.value.ValueCommands;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongFunction;

/**
 * The aggregate cache for blocking code (virtual and worker models): the local tier, then Redis through the blocking
 * data source (each command bounded by {@code quarkus.redis.timeout}), then the computation, on the caller's thread.
 */
@ApplicationScoped
public class BlockingAggregateCache {

    private final Cache local;
    private final ValueCommands<String, UserAggregate> redis;
    private final RemoteTierGuard guard;
    private final long ttlMillis;

    BlockingAggregateCache(@CacheName(AggregateCacheNames.LOCAL) Cache local, RedisDataSource redis,
            RemoteTierGuard guard, RemoteTierConfig config) {
        this.local = local;
        this.redis = redis.value(UserAggregate.class);
        this.guard = guard;
        this.ttlMillis = config.ttl().toMillis();
    }

    /**
     * The cached aggregate of a user, else the computed one. Concurrent callers for one id share one computation, in
     * every model: the entry is the same kind of pending value the reactive model's callers place, so a failure reaches
     * every waiter as itself (and is not cached).
     */
    public UserAggregate get(long id, LongFunction<UserAggregate> compute) {
        CompletableFuture<UserAggregate> computation = new CompletableFuture<>();
        AtomicBoolean absent = new AtomicBoolean();
        CompletableFuture<UserAggregate> entry = local.<Long, UserAggregate> getAsync(id, key -> {
            absent.set(true); // called at once, on this thread, when the local tier has no entry for the id
            return Uni.createFrom().completionStage(computation);
        }).subscribeAsCompletionStage();
        if (absent.get()) {
            try {
                computation.complete(throughRedis(id, compute));
            } catch (RuntimeException e) {
                computation.completeExceptionally(e);
            }
        }
        try {
            return entry.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : e;
        }
    }

    private UserAggregate throughRedis(long id, LongFunction<UserAggregate> compute) {
        if (guard.allowsLookup()) {
            try {
                UserAggregate stored = redis.get(AggregateCacheNames.redisKey(id));
                guard.found(stored != null);
                if (stored != null) {
                    return stored;
                }
            } catch (RuntimeException e) {
                guard.failed(e);
            }
        }
        UserAggregate computed = compute.apply(id);
        if (guard.allowsStore()) {
            try {
                redis.psetex(AggregateCacheNames.redisKey(id), ttlMillis, computed);
                guard.succeeded();
            } catch (RuntimeException e) {
                guard.failed(e);
            }
        }
        return computed;
    }
}
