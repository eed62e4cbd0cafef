package io.concurrencylab.health;

import io.agroal.api.AgroalDataSource;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of both pools, in place of Quarkus' own datasource checks (quarkus.datasource.health-exclude). The reactive
 * one must take a connection from the pool rather than run a pool-level query: in vertx-sql-client 4.5 a pool-level
 * query arms a timer that fails its result a second time when the database is down, which Vert.x reports as an
 * uncaught "Result is already complete" error at every probe during an outage.
 */
public final class DatabaseReadiness {

    /** Longer than any probe should take; the pools' own bounds (3 s) usually answer first. */
    private static final Duration PROBE_LIMIT = Duration.ofSeconds(4);

    private DatabaseReadiness() {
    }

    @Readiness
    @ApplicationScoped
    public static class JdbcPool implements HealthCheck {

        private final AgroalDataSource dataSource;

        JdbcPool(AgroalDataSource dataSource) {
            this.dataSource = dataSource;
        }

        @Override
        public HealthCheckResponse call() {
            boolean healthy;
            try {
                healthy = dataSource.isHealthy(false);
            } catch (Exception e) {
                healthy = false;
            }
            return HealthCheckResponse.named("JDBC pool (virtual, worker)").status(healthy).build();
        }
    }

    @Readiness
    @ApplicationScoped
    public static class ReactivePool implements AsyncHealthCheck {

        private final Pool pool;

        ReactivePool(Pool pool) {
            this.pool = pool;
        }

        @Override
        public Uni<HealthCheckResponse> call() {
            String name = "Reactive pool (reactive)";
            return pool.withConnection(connection -> connection.query("SELECT 1").execute())
                    .map(rows -> HealthCheckResponse.up(name))
                    .ifNoItem().after(PROBE_LIMIT).fail()
                    .onFailure().recoverWithItem(() -> HealthCheckResponse.down(name));
        }
    }
}
