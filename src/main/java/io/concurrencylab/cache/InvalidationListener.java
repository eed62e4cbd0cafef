package io.concurrencylab.cache;

import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.pubsub.ReactivePubSubCommands;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Every replica listens on the invalidation channel and forgets the local entry of each id published there, whoever
 * published it ({@code DELETE /cache/aggregate/{id}} on any replica, or an operator's {@code PUBLISH}). When the
 * subscription is lost (Redis down or restarted) it subscribes again every {@code lab.cache.remote.retry-interval}, and
 * once back it clears the whole local tier: invalidations sent meanwhile were missed. Logged once per outage.
 */
@ApplicationScoped
class InvalidationListener {

    private static final Logger LOG = Logger.getLogger(InvalidationListener.class);

    private final Cache local;
    private final ReactivePubSubCommands<String> channel;
    private final RedisLocation location;
    private final Vertx vertx;
    private final Duration retryInterval;
    /** Not listening since the last subscription ended or failed: messages may have been missed. */
    private final AtomicBoolean deaf = new AtomicBoolean();
    private volatile boolean stopped;

    InvalidationListener(@CacheName(AggregateCacheNames.LOCAL) Cache local, ReactiveRedisDataSource redis,
            RedisLocation location, Vertx vertx, RemoteTierConfig config) {
        this.local = local;
        this.channel = redis.pubsub(String.class);
        this.location = location;
        this.vertx = vertx;
        this.retryInterval = config.retryInterval();
    }

    void onStart(@Observes StartupEvent start) {
        if (!location.isConfigured()) {
            LOG.info("No Redis configured (quarkus.redis.hosts): the aggregate cache has its local tier only, and an "
                    + "invalidation reaches this replica alone");
            return;
        }
        subscribe();
    }

    void onStop(@Observes ShutdownEvent stop) {
        stopped = true; // the Redis client closes next: that is no outage
    }

    private void subscribe() {
        if (stopped) {
            return;
        }
        // A subscription's end may be reported more than once (failure, then end): it is handled once.
        AtomicBoolean over = new AtomicBoolean();
        Consumer<Throwable> lost = failure -> {
            if (over.compareAndSet(false, true)) {
                lost(failure);
            }
        };
        channel.subscribe(List.of(AggregateCacheNames.INVALIDATIONS), this::invalidate, () -> lost.accept(null), lost)
                .ifNoItem().after(retryInterval).fail()
                .subscribe().with(subscribed -> {
                    if (deaf.compareAndSet(true, false)) {
                        local.invalidateAll().subscribe().with(cleared -> LOG.info("Listening for aggregate cache "
                                + "invalidations again; the local tier was cleared, as invalidations sent meanwhile were missed"));
                    }
                }, lost);
    }

    /** The subscription ended, failed, or could not be made: try again after the retry interval. */
    private void lost(Throwable failure) {
        if (stopped) {
            return;
        }
        if (deaf.compareAndSet(false, true)) {
            LOG.warnf("Not listening for aggregate cache invalidations (%s): subscribing again every %d ms",
                    failure == null ? "Redis closed the connection" : failure, retryInterval.toMillis());
        }
        vertx.setTimer(retryInterval.toMillis(), timer -> subscribe());
    }

    private void invalidate(String message) {
        long id;
        try {
            id = Long.parseLong(message.trim());
        } catch (NumberFormatException e) {
            LOG.debugf("Ignored an invalidation that is not a user id: %s", message);
            return;
        }
        local.invalidate(id).subscribe().with(done -> LOG.debugf("Invalidated the local aggregate of user %d", id));
    }
}
