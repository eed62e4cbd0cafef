package io.concurrencylab.support;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The app with pools small enough for a test to fill: two database connections per model (a wait of at most 1 s for
 * one, a reactive wait queue of 2) and one downstream connection, whose wait counts against a connect timeout longer
 * than an aggregation (the downstream's base delay 1 s, then 300 and 500 ms). The busy-pool tests share this profile,
 * so that Quarkus starts their app once.
 */
public class SmallPools implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.datasource.jdbc.max-size", "2", "quarkus.datasource.reactive.max-size", "2",
                "quarkus.datasource.jdbc.acquisition-timeout", "PT1S",
                "lab.datasource.reactive.max-wait-queue-size", "2",
                "quarkus.rest-client.downstream.connection-pool-size", "1",
                "quarkus.rest-client.downstream.connect-timeout", "10000",
                "downstream.delay.base", "1s");
    }
}
