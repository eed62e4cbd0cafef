package io.concurrencylab.support;

import io.concurrencylab.data.EmbeddedDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The packaged application as a process of its own, for the faults that need one (a signal, an overload of the real
 * server): started as built (the jar, or the executable of -Dnative) with the given properties on the shared
 * database, trusting the development key, stopped by the test. Its log goes to target/.
 */
public final class PackagedApp implements AutoCloseable {

    /**
     * HTTP/1.1, as k6 and the kubelet's probes speak it. Java's default upgrades each new connection to h2c; one
     * request of a fresh app then timed out at 10 s in CI, once, and never here. A test that means h2c takes H2C.
     */
    public static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /** Java's default: each new connection upgraded to HTTP/2 in clear text (h2c). */
    public static final HttpClient H2C = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public final int port;
    public final Process process;
    public final Path log;

    private PackagedApp(int port, Process process, Path log) {
        this.port = port;
        this.process = process;
        this.log = log;
    }

    /** Starts the packaged app on a free port, on the shared database with the development key, until it is ready. */
    public static PackagedApp start(String name, Map<String, String> properties) {
        return start(name, onSharedDatabase(properties), Map.of());
    }

    /** Starts it with just these properties (-D) and environment variables, until it is ready. */
    public static PackagedApp start(String name, Map<String, String> properties, Map<String, String> environment) {
        return start(name, properties, environment, null);
    }

    /** Starts it on the shared database, as above, within the pod's CPU and heap. */
    public static PackagedApp start(String name, Map<String, String> properties, Pod pod) {
        return start(name, onSharedDatabase(properties), Map.of(), pod);
    }

    /** The shared database, its 2,000 seeded users and the development key, then these properties. */
    private static Map<String, String> onSharedDatabase(Map<String, String> properties) {
        Map<String, String> all = new LinkedHashMap<>(Map.of(
                "quarkus.datasource.jdbc.url", EmbeddedDatabase.jdbcUrl(EmbeddedDatabase.sharedPort()),
                "mp.jwt.verify.publickey.location", Path.of("src/main/resources/publicKey.pem").toAbsolutePath().toString(),
                "lab.seed.users", "2000"));
        all.putAll(properties);
        return all;
    }

    private static PackagedApp start(String name, Map<String, String> properties, Map<String, String> environment,
            Pod pod) {
        int port = freePort();
        List<String> options = new ArrayList<>(List.of("-Dquarkus.http.port=" + port));
        properties.forEach((key, value) -> options.add("-D" + key + "=" + value));
        if (pod != null) {
            options.addAll(pod.options());
        }
        try {
            Path log = Files.createDirectories(Path.of("target", "fault-logs")).resolve(name + ".log");
            ProcessBuilder builder = new ProcessBuilder(pod == null ? command(options) : pod.wrap(command(options)))
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            PackagedApp app = new PackagedApp(port, process, log);
            try {
                app.awaitReady(Duration.ofSeconds(60));
            } catch (RuntimeException e) {
                // The test never gets the app to close: it would run on after the test, and after the build.
                process.destroyForcibly();
                throw e;
            }
            return app;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The command that starts the packaged application with these -D options, as the build made it: the native
     * executable when its artifact is one (target/quarkus-artifact.properties, which @QuarkusIntegrationTest reads
     * too), else the jar. A native executable left in target/ by an earlier build is not it.
     */
    public static List<String> command(List<String> options) {
        List<String> command = new ArrayList<>();
        Properties artifact = artifact();
        boolean executable = "native".equals(artifact.getProperty("type"));
        command.add(executable ? Path.of("target").resolve(artifact.getProperty("path")).toString()
                : Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        if (!executable) {
            command.addAll(List.of("-jar", Path.of("target", "quarkus-app", "quarkus-run.jar").toString()));
        }
        return command;
    }

    /** Whether the build made a native executable (target/quarkus-artifact.properties), else the jar. */
    public static boolean isExecutable() {
        return "native".equals(artifact().getProperty("type"));
    }

    private static Properties artifact() {
        Properties artifact = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("target", "quarkus-artifact.properties"))) {
            artifact.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("no packaged application in target/ (run ./mvnw verify)", e);
        }
        return artifact;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return send(HTTP, request);
    }

    public HttpResponse<String> send(HttpClient client, HttpRequest.Builder request)
            throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Probes readiness every 100 ms until it is UP, failing past the limit. Returns the probes it made, each with its
     * start, outcome and duration, so that a slow recovery says whether the app refused, answered 503 or stalled.
     */
    public List<String> awaitReady(Duration limit) {
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        List<String> probes = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("exited with " + process.exitValue() + " before it was ready");
            }
            long sent = System.nanoTime();
            String outcome;
            try {
                HttpResponse<String> ready = get("/q/health/ready");
                outcome = ready.statusCode() == 200 ? "200"
                        : ready.statusCode() + " " + ready.body().replaceAll("\\s+", " ");
            } catch (IOException e) {
                outcome = e.toString(); // not listening yet, or the probe timed out
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            long now = System.nanoTime();
            probes.add(String.format("+%d ms: %s in %d ms", (sent - start) / 1_000_000, outcome,
                    (now - sent) / 1_000_000));
            if (outcome.equals("200")) {
                return probes;
            }
            sleep(100);
        }
        throw new IllegalStateException("not ready within " + limit + "; the probes: " + probes);
    }

    /** How many lines of its log so far hold this text. */
    public long logLinesWith(String text) throws IOException {
        try (var lines = Files.lines(log)) {
            return lines.filter(line -> line.contains(text)).count();
        }
    }

    /** Sends SIGTERM, as Kubernetes does. */
    public void terminate() {
        process.destroy();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(40, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
