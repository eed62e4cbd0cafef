package io.concurrencylab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Article001Database;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged application started as an operator would, with nothing configured: it must not fall back to a toy
 * database or an unverifiable token, but stop at once with one line that names the setting to provide.
 */
class ProductionStartIT {

    @Test
    void refusesToStartWithoutADatabaseUrl() throws Exception {
        Result result = start(List.of());
        assertEquals(2, result.exitCode(), result.output());
        assertEquals(1, result.output().lines().count(), result.output());
        assertTrue(result.output().contains("quarkus.datasource.jdbc.url"), result.output());
    }

    @Test
    void refusesToStartWithoutATokenVerificationKey() throws Exception {
        Result result = start(List.of("-Dquarkus.datasource.jdbc.url=jdbc:mysql://127.0.0.1:9/lab"));
        assertEquals(2, result.exitCode(), result.output());
        assertEquals(1, result.output().lines().count(), result.output());
        assertTrue(result.output().contains("mp.jwt.verify.publickey.location"), result.output());
    }

    @Test
    void refusesADatabaseThatHasTablesButNoFlywayHistoryUntilItIsAdopted() throws Exception {
        String url = Article001Database.create("article001_refused", Article001Database.USERS_TABLE);
        Result result = start(List.of("-Dquarkus.datasource.jdbc.url=" + url, DEVELOPMENT_KEY));
        assertEquals(2, result.exitCode(), result.output());
        assertEquals(1, result.output().lines().count(), result.output());
        assertTrue(result.output().contains("quarkus.flyway.baseline-on-migrate=true"), result.output());
        assertEquals(List.of("users: 2 rows"), Article001Database.contents(url));
    }

    @Test
    void refusesToAdoptAUsersTableTheAppCannotRead() throws Exception {
        String url = Article001Database.create("article001_mismatch",
                Article001Database.USERS_TABLE.replace("age INT", "age VARCHAR(16)"));
        Result result = start(List.of("-Dquarkus.datasource.jdbc.url=" + url,
                "-Dquarkus.flyway.baseline-on-migrate=true", DEVELOPMENT_KEY));
        assertEquals(2, result.exitCode(), result.output());
        assertEquals(1, result.output().lines().count(), result.output());
        assertTrue(result.output().contains("users.age is varchar"), result.output());
        assertEquals(List.of("users: 2 rows"), Article001Database.contents(url));
    }

    private static final String DEVELOPMENT_KEY = "-Dmp.jwt.verify.publickey.location="
            + Path.of("src/main/resources/publicKey.pem").toAbsolutePath();

    private record Result(int exitCode, String output) {
    }

    private static Result start(List<String> options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        // The native executable when the build made one (./mvnw verify -Dnative), else the jar.
        Path nativeImage = Path.of(System.getProperty("native.image.path", "target/none"));
        if (Files.isExecutable(nativeImage)) {
            command.add(nativeImage.toString());
            command.addAll(options);
        } else {
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(options);
            command.addAll(List.of("-jar", Path.of("target", "quarkus-app", "quarkus-run.jar").toString()));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // An operator's shell: none of the settings the build or CI may have in its environment.
        builder.environment().keySet().removeIf(name -> name.startsWith("QUARKUS_") || name.startsWith("MP_JWT")
                || name.equals("JWT_SECRET"));
        Process app = builder.start();
        if (!app.waitFor(30, TimeUnit.SECONDS)) {
            app.destroyForcibly();
            throw new AssertionError("still running after 30 s: it must stop at once");
        }
        String output = new String(app.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(line -> !line.startsWith("WARNING: ")) // the JDK's own notices about Unsafe
                .reduce("", (a, b) -> a.isEmpty() ? b : a + "\n" + b);
        return new Result(app.exitValue(), output);
    }
}
