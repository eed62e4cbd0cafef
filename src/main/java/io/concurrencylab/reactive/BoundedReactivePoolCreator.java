package io.concurrencylab.reactive;

import io.quarkus.reactive.mysql.client.MySQLPoolCreator;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnectOptions;
import java.util.List;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Bounds the reactive pool's wait queue, which Quarkus 3.33 has no property for. A request that finds
 * {@code max-wait-queue-size} others already waiting fails at once with Vert.x'
 * {@code io.vertx.core.http.ConnectionPoolTooBusyException} instead of queueing without bound.
 * <p>
 * This bound replaces the pool's acquisition timeout ({@code quarkus.datasource.reactive.mysql.connection-timeout=0}):
 * in vertx-sql-client 4.5.23 a waiter whose timer fires while its connection is being handed over is failed with
 * "Timeout" and then also given the connection, which nobody returns; each such race leaks one connection for good.
 */
@Singleton
public class BoundedReactivePoolCreator implements MySQLPoolCreator {

    private final int maxWaitQueueSize;

    BoundedReactivePoolCreator(
            @ConfigProperty(name = "lab.datasource.reactive.max-wait-queue-size", defaultValue = "256") int maxWaitQueueSize) {
        this.maxWaitQueueSize = maxWaitQueueSize;
    }

    @Override
    public Pool create(Input input) {
        PoolOptions options = input.poolOptions().setMaxWaitQueueSize(maxWaitQueueSize);
        return MySQLBuilder.pool()
                .with(options)
                .connectingTo(List.<SqlConnectOptions>copyOf(input.mySQLConnectOptionsList()))
                .using(input.vertx())
                .build();
    }
}
