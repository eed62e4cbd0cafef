package io.concurrencylab;

import io.concurrencylab.data.ExistingSchema;
import io.quarkus.runtime.ImageMode;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Starts the application, after one check that a packaged (production) start has what it cannot do without: a
 * database URL, a token verification key, and a database it can run on ({@link ExistingSchema}). Missing any,
 * it exits at once with one line that names the property to set (or the table or column the database lacks), instead
 * of a start that fails halfway with pages of stack trace or, worse, starts and answers 401 to every token. Dev mode
 * and tests bring their own database and development key.
 */
@QuarkusMain
public final class Main {

    Main() {
    }

    public static void main(String... args) {
        if (LaunchMode.current() == LaunchMode.NORMAL && isPackaged() && !isArchiveRun()) {
            Config config = startConfig();
            Optional<String> missing = missingProductionSetting(config);
            if (missing.isEmpty()) {
                ExistingSchema.Verdict schema = ExistingSchema.check(config);
                schema.warnings().forEach(warning -> System.err.println("concurrency-lab warning: " + warning));
                missing = schema.problem();
            }
            if (missing.isPresent()) {
                System.err.println("concurrency-lab cannot start: " + missing.get());
                System.exit(2);
            }
        }
        Quarkus.run(args);
    }

    /**
     * The configuration the start will have. In a native executable, the configuration before Quarkus.run is the one
     * made at build time: it holds application.properties and reads -D options, but not the process's environment
     * (QUARKUS_DATASOURCE_JDBC_URL, JWT_SECRET). Here the environment and -D options go on top of it, as at run time.
     */
    private static Config startConfig() {
        Config built = ConfigProvider.getConfig();
        if (ImageMode.current() != ImageMode.NATIVE_RUN) {
            return built;
        }
        return new SmallRyeConfigBuilder().addDefaultSources().addDefaultInterceptors()
                .withSources(new BuiltConfigSource(built)).build();
    }

    /** The build-time configuration, beneath the environment's. */
    private record BuiltConfigSource(Config built) implements ConfigSource {

        @Override
        public Set<String> getPropertyNames() {
            Set<String> names = new HashSet<>();
            built.getPropertyNames().forEach(names::add);
            return names;
        }

        @Override
        public String getValue(String name) {
            return built.getConfigValue(name).getValue();
        }

        @Override
        public String getName() {
            return "build-time configuration";
        }

        @Override
        public int getOrdinal() {
            return 100;
        }
    }

    /**
     * The packaged application: the fast-jar's {@code quarkus-run.jar} or a native executable. Dev mode calls this main
     * too, before its profile's configuration (and so the embedded database) is in place, and must not be stopped.
     */
    private static boolean isPackaged() {
        return ImageMode.current() == ImageMode.NATIVE_RUN
                || System.getProperty("java.class.path", "").endsWith("quarkus-run.jar");
    }

    /**
     * The build's AppCDS / AOT-cache run ({@code quarkus.package.jar.appcds.enabled}): Quarkus starts the jar with this
     * property, loads the application's classes and exits before opening a socket or reading the runtime configuration,
     * so it has no database URL and needs none. Stopping it here would leave an archive of this class alone.
     */
    private static boolean isArchiveRun() {
        return Boolean.getBoolean("quarkus.appcds.generate");
    }

    static Optional<String> missingProductionSetting(Config config) {
        if (config.getOptionalValue("quarkus.datasource.jdbc.url", String.class).isEmpty()) {
            return Optional.of("no database configured; set quarkus.datasource.jdbc.url (environment: "
                    + "QUARKUS_DATASOURCE_JDBC_URL), e.g. jdbc:mysql://db:3306/lab");
        }
        boolean hs256 = config.getOptionalValue("mp.jwt.verify.publickey.algorithm", String.class)
                .filter("HS256"::equalsIgnoreCase).isPresent();
        if (hs256) {
            return config.getOptionalValue("JWT_SECRET", String.class).isPresent() ? Optional.empty()
                    : Optional.of("mp.jwt.verify.publickey.algorithm=HS256 needs the shared secret in JWT_SECRET");
        }
        boolean hasKey = config.getOptionalValue("mp.jwt.verify.publickey", String.class).isPresent()
                || config.getOptionalValue("mp.jwt.verify.publickey.location", String.class).isPresent();
        return hasKey ? Optional.empty()
                : Optional.of("no token verification key configured; set mp.jwt.verify.publickey.location "
                        + "(environment: MP_JWT_VERIFY_PUBLICKEY_LOCATION) to your issuer's PEM public key or JWKS "
                        + "(a file or URL), or HS256 with JWT_SECRET");
    }
}
