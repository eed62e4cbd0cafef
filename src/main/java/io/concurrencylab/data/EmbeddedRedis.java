package io.concurrencylab.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * A Redis server run from the executable bundled in the {@code com.github.codemonstur:embedded-redis} jar, for
 * machines with no Redis installed: dev mode, tests and the benchmark. Never in production: the packaged application
 * does not carry the executables. A child process on 127.0.0.1 with persistence off: a cache, nothing to keep.
 */
public final class EmbeddedRedis implements EmbeddedServer {

    /** Where the shared server's port is kept (see {@link EmbeddedServer#sharedPort}). */
    private static final String SHARED_PORT_PROPERTY = "concurrencylab.embedded-redis.port";

    private static final Logger LOG = Logger.getLogger(EmbeddedRedis.class);
    private static final String READY_LINE = "Ready to accept connections";
    private static final long READY_TIMEOUT_SECONDS = 10;
    private static final int PORT_ATTEMPTS = 3;
    private static final int OUTPUT_LINES_KEPT = 20;

    private final Path executable;
    private final Path workDir;
    private final int port;
    private Process process;

    private EmbeddedRedis(Path executable, Path workDir, int port) {
        this.executable = executable;
        this.workDir = workDir;
        this.port = port;
    }

    /** Starts a new server on a free port. */
    public static EmbeddedRedis start() {
        long started = System.nanoTime();
        Path executable = unpackedExecutable();
        try {
            Path workDir = Files.createTempDirectory("concurrency-lab-redis-");
            IllegalStateException lastFailure = null;
            // A free port can be taken by someone else between the check and Redis' bind: then try another.
            for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
                EmbeddedRedis redis = new EmbeddedRedis(executable, workDir, freePort());
                try {
                    redis.resume();
                    LOG.infof("Embedded Redis listening on 127.0.0.1:%d (started in %d ms)", redis.port,
                            (System.nanoTime() - started) / 1_000_000);
                    return redis;
                } catch (IllegalStateException e) {
                    lastFailure = e;
                }
            }
            throw lastFailure;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The port of the one server this JVM shares, started on first use and stopped when the JVM exits. */
    public static synchronized int sharedPort() {
        return EmbeddedServer.sharedPort(SHARED_PORT_PROPERTY, EmbeddedRedis::start);
    }

    /** The value for {@code quarkus.redis.hosts}. */
    public static String url(int port) {
        return "redis://127.0.0.1:" + port;
    }

    @Override
    public int port() {
        return port;
    }

    /** Stops the server (its data goes: it is a cache). {@link #resume()} starts it again on the same port. */
    public synchronized void suspend() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
            process = null;
        }
    }

    /** Starts the server on its port and returns once it accepts connections; fails with Redis' own last words. */
    public synchronized void resume() {
        if (process != null) {
            return;
        }
        try {
            Process started = new ProcessBuilder(List.of(executable.toString(), "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--dir", workDir.toString(), "--save", "", "--appendonly", "no"))
                    .redirectErrorStream(true).start();
            Output output = new Output(started.getInputStream());
            output.start();
            boolean settled = output.settled.await(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!output.ready) {
                started.destroyForcibly();
                throw new IllegalStateException("Could not start the embedded Redis (" + executable + ") on port " + port
                        + (settled ? "" : " within " + READY_TIMEOUT_SECONDS + " s") + ": " + output.lastLines());
            }
            process = started;
        } catch (IOException e) {
            throw new IllegalStateException("Could not run the embedded Redis " + executable + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while the embedded Redis started", e);
        }
    }

    @Override
    public void close() {
        suspend();
        try {
            Files.deleteIfExists(workDir);
        } catch (IOException e) {
            LOG.debugf("Could not delete %s: %s", workDir, e.getMessage());
        }
    }

    /**
     * The executable for this machine, copied once per user into a cache folder (into a temporary sibling first, then
     * renamed, so that two JVMs starting together never run half a file).
     */
    private static Path unpackedExecutable() {
        String resource = executableResource();
        Path executable = Path.of(System.getProperty("user.home"), ".cache", "concurrency-lab", resource, "redis-server");
        if (Files.isExecutable(executable)) {
            return executable;
        }
        try (InputStream bundled = EmbeddedRedis.class.getResourceAsStream("/" + resource)) {
            if (bundled == null) {
                throw new IllegalStateException("The embedded Redis executable " + resource + " is not on the class path "
                        + "(com.github.codemonstur:embedded-redis; the packaged application does not carry it): "
                        + "configure quarkus.redis.hosts");
            }
            Path dir = Files.createDirectories(executable.getParent());
            Path staging = dir.resolve("redis-server.tmp" + ProcessHandle.current().pid());
            Files.copy(bundled, staging, StandardCopyOption.REPLACE_EXISTING);
            if (!staging.toFile().setExecutable(true)) {
                throw new IllegalStateException("Could not make " + staging + " executable");
            }
            Files.move(staging, executable, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return executable;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not unpack the embedded Redis executable " + resource, e);
        }
    }

    /** The names under which embedded-redis 1.4.3 bundles its Redis 6.2 executables. */
    private static String executableResource() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm = arch.equals("aarch64") || arch.equals("arm64");
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        if (os.contains("linux") && x64) {
            return "redis-server-6.2.6-v5-linux-amd64";
        }
        if (os.contains("linux") && arm) {
            return "redis-server-6.2.7-linux-arm64";
        }
        if (os.contains("mac") && (x64 || arm)) {
            return "redis-server-6.2.6-v5-darwin-" + (arm ? "arm64" : "amd64");
        }
        throw new IllegalStateException("No embedded Redis executable for " + os + "/" + arch
                + ": start a Redis yourself and configure quarkus.redis.hosts");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads the server's output for as long as it runs (an unread pipe would block it), tells when it is ready, and
     * keeps the last lines for the message of a failed start. Redis' own log goes to DEBUG.
     */
    private static final class Output extends Thread {

        /** Counted down when the server is ready or its output has ended, whichever comes first. */
        final CountDownLatch settled = new CountDownLatch(1);
        volatile boolean ready;
        private final InputStream stream;
        private final Deque<String> last = new ArrayDeque<>();

        Output(InputStream stream) {
            super("embedded-redis-output");
            setDaemon(true);
            this.stream = stream;
        }

        @Override
        public void run() {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    LOG.debug(line);
                    remember(line);
                    if (line.contains(READY_LINE)) {
                        ready = true;
                        settled.countDown();
                    }
                }
            } catch (IOException e) {
                LOG.debugf("Embedded Redis output: %s", e.getMessage());
            }
            settled.countDown(); // the process ended: whoever waits must look at it now
        }

        private synchronized void remember(String line) {
            if (last.size() == OUTPUT_LINES_KEPT) {
                last.removeFirst();
            }
            last.addLast(line);
        }

        synchronized String lastLines() {
            return last.isEmpty() ? "no output" : String.join(" | ", last);
        }
    }
}
