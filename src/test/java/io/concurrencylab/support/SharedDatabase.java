package io.concurrencylab.support;

import io.concurrencylab.data.EmbeddedDatabase;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * The packaged application carries no embedded database: the integration tests start one in the test JVM (the one
 * this JVM shares) and hand its URL to the application under test, as an operator would.
 */
public class SharedDatabase implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of("quarkus.datasource.jdbc.url", EmbeddedDatabase.jdbcUrl(EmbeddedDatabase.sharedPort()));
    }

    @Override
    public void stop() {
        // The shared server stops with the JVM.
    }
}
