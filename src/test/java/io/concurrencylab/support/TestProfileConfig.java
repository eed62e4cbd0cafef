package io.concurrencylab.support;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.time.Duration;

/**
 * The app's limits as its test profile sets them, read from application.properties itself, for tests that assert them
 * from outside the app: the same test runs against the app in-process and against the packaged jar, whose "it" profile
 * inherits "test". So a test never repeats a limit the app is configured with. (Not Quarkus' @TestProfile, which
 * restarts the app with other configuration: this only reads the configuration there is.)
 */
public final class TestProfileConfig {

    private static final SmallRyeConfig CONFIG = load();

    private TestProfileConfig() {
    }

    public static long longValue(String name) {
        return CONFIG.getValue(name, Long.class);
    }

    public static Duration duration(String name) {
        return DurationConverter.parseDuration(CONFIG.getValue(name, String.class));
    }

    private static SmallRyeConfig load() {
        try {
            URL properties = TestProfileConfig.class.getResource("/application.properties");
            return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties)).withProfile("test")
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
