package io.concurrencylab.support;

import io.concurrencylab.data.EmbeddedRedis;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * The packaged application carries no embedded Redis: the integration tests that need one start it in the test JVM (the
 * one this JVM shares) and hand its URL to the application under test, as an operator would.
 */
public class SharedRedis implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of("quarkus.redis.hosts", EmbeddedRedis.url(EmbeddedRedis.sharedPort()));
    }

    @Override
    public void stop() {
        // The shared server stops with the JVM.
    }
}
