package io.concurrencylab.data;

import io.quarkus.runtime.ImageMode;
import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.Priorities;
import jakarta.annotation.Priority;

/**
 * Derives the reactive URL from a configured JDBC URL, so that an operator sets one URL for both pools. In dev mode
 * and tests ({@code lab.embedded-db.enabled}, off unless a profile turns it on) it also supplies both URLs when
 * nobody configured them, by starting the embedded MariaDB on first look-up. A configured URL always wins. Only
 * exact look-ups of the two URL names start anything, and no names are listed, so that a build step that
 * enumerates the configuration never starts a database.
 */
@Priority(Priorities.LIBRARY + 1000)
public class EmbeddedDatabaseConfigInterceptor implements ConfigSourceInterceptor {

    static final String JDBC_URL = "quarkus.datasource.jdbc.url";
    static final String REACTIVE_URL = "quarkus.datasource.reactive.url";
    static final String ENABLED = "lab.embedded-db.enabled";

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue configured = context.proceed(name);
        boolean isUrl = JDBC_URL.equals(name) || REACTIVE_URL.equals(name);
        if (!isUrl || hasValue(configured)) {
            return configured;
        }
        if (REACTIVE_URL.equals(name)) {
            // A configured JDBC URL names the database the reactive client must use too.
            ConfigValue jdbc = context.proceed(JDBC_URL);
            if (hasValue(jdbc) && jdbc.getValue().startsWith("jdbc:")) {
                return value(name, jdbc.getValue().substring("jdbc:".length()), "derived from " + JDBC_URL);
            }
        } else if (hasValue(context.proceed(REACTIVE_URL))) {
            return configured; // only the reactive URL is configured: do not invent a JDBC one elsewhere
        }
        // A native executable carries no MariaDB binaries: it always needs a configured database.
        if (!enabled(context) || ImageMode.current() == ImageMode.NATIVE_RUN) {
            return configured;
        }
        int port = EmbeddedDatabase.sharedPort();
        String url = JDBC_URL.equals(name) ? EmbeddedDatabase.jdbcUrl(port) : EmbeddedDatabase.reactiveUrl(port);
        return value(name, url, "embedded MariaDB");
    }

    private static boolean enabled(ConfigSourceInterceptorContext context) {
        ConfigValue enabled = context.proceed(ENABLED);
        return hasValue(enabled) && Boolean.parseBoolean(enabled.getValue());
    }

    private static boolean hasValue(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }

    private static ConfigValue value(String name, String url, String source) {
        return ConfigValue.builder().withName(name).withValue(url).withRawValue(url)
                .withConfigSourceName(source).withConfigSourceOrdinal(0).build();
    }
}
