package io.concurrencylab.support;

import io.concurrencylab.data.EmbeddedDatabase;
import io.concurrencylab.data.EmbeddedRedis;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Map;

/**
 * The app against a database and a Redis of its own, handed to the test (its fields marked {@link Stoppable}) so that
 * it can stop and start them: an outage that disturbs no other test. The outage tests share this profile, so that
 * Quarkus starts their app once.
 */
public class OwnServers implements QuarkusTestProfile {

    /** A field that receives this profile's {@link EmbeddedDatabase} or {@link EmbeddedRedis}, by its type. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface Stoppable {
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(Servers.class));
    }

    public static class Servers implements QuarkusTestResourceLifecycleManager {

        private EmbeddedDatabase database;
        private EmbeddedRedis redis;

        @Override
        public Map<String, String> start() {
            database = EmbeddedDatabase.start();
            redis = EmbeddedRedis.start();
            // The reactive URL is derived from the JDBC one.
            return Map.of("quarkus.datasource.jdbc.url", EmbeddedDatabase.jdbcUrl(database.port()),
                    "quarkus.redis.hosts", EmbeddedRedis.url(redis.port()));
        }

        @Override
        public void inject(TestInjector injector) {
            injector.injectIntoFields(database,
                    new TestInjector.AnnotatedAndMatchesType(Stoppable.class, EmbeddedDatabase.class));
            injector.injectIntoFields(redis,
                    new TestInjector.AnnotatedAndMatchesType(Stoppable.class, EmbeddedRedis.class));
        }

        @Override
        public void stop() {
            if (redis != null) {
                redis.close();
            }
            if (database != null) {
                database.close();
            }
        }
    }
}
