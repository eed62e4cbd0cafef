package io.concurrencylab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Article001Database;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.Tokens;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged application started as an operator would, with nothing configured: it must not fall back to a toy
 * database or an unverifiable token, but stop at once with one line that names the setting to provide; and on a
 * database it cannot run on, one line that names what is missing, leaving the database as it was.
 */
class ProductionStartIT {

    @Test
    void refusesToStartWithoutADatabaseUrl() throws Exception {
        assertRefusal(start(List.of()), "quarkus.datasource.jdbc.url");
    }

    @Test
    void refusesToStartWithoutATokenVerificationKey() throws Exception {
        assertRefusal(start(List.of("-Dquarkus.datasource.jdbc.url=jdbc:mysql://127.0.0.1:9/lab")),
                "mp.jwt.verify.publickey.location");
    }

    @Test
    void refusesADatabaseThatHasTablesButNoFlywayHistoryUntilItIsAdoptedOrLeftToItsOwner() throws Exception {
        String url = Article001Database.create("article001_refused", Article001Database.USERS_TABLE);
        assertRefusedOn(url, List.of(), "quarkus.flyway.baseline-on-migrate=true",
                "quarkus.flyway.migrate-at-start=false");
    }

    @Test
    void refusesToAdoptAUsersTableTheAppCannotRead() throws Exception {
        String url = Article001Database.create("article001_mismatch",
                Article001Database.USERS_TABLE.replace("age INT", "age VARCHAR(16)"));
        assertRefusedOn(url, List.of("-Dquarkus.flyway.baseline-on-migrate=true"), "users.age is varchar");
    }

    @Test
    void withMigrationOffRefusesArticle001sDatabaseNamingTheReportsTableAndTheFileThatCreatesIt() throws Exception {
        String url = Article001Database.create("article001_owned", Article001Database.USERS_TABLE);
        assertRefusedOn(url, List.of(MIGRATION_OFF), "no table reports, apply db/migration/V2__reports.sql");
    }

    @Test
    void withMigrationOffRefusesAColumnOfTheWrongTypeNamingIt() throws Exception {
        String url = Article001Database.create("article001_owned_mismatch", Article001Database.USERS_TABLE);
        Article001Database.execute(url, Article001Database.migration("V2__reports.sql").stream()
                .map(statement -> statement.replaceAll("created_at\\s+TIMESTAMP\\(3\\)", "created_at VARCHAR(32)"))
                .toList());
        assertRefusedOn(url, List.of(MIGRATION_OFF), "reports.created_at is varchar");
    }

    @Test
    void withMigrationOffRefusesAnEmptyDatabaseNamingTheMigrationsToApply() throws Exception {
        assertRefusedOn(Article001Database.empty("owned_empty"), List.of(MIGRATION_OFF),
                "apply db/migration/V1__users.sql, then db/migration/V2__reports.sql");
    }

    @Test
    void takesItsSettingsFromTheEnvironmentAsAPodGivesThem() throws Exception {
        // The native executable once read them only from -D options: a pod's environment looked like no setting at all.
        String secret = "0123456789abcdef0123456789abcdef";
        try (PackagedApp app = PackagedApp.start("settings-from-environment", Map.of("lab.seed.users", "20"), Map.of(
                "QUARKUS_DATASOURCE_JDBC_URL", EmbeddedDatabase.jdbcUrl(EmbeddedDatabase.sharedPort()),
                "MP_JWT_VERIFY_PUBLICKEY_ALGORITHM", "HS256", "JWT_SECRET", secret))) {
            HttpResponse<String> me = app.send(HttpRequest.newBuilder(app.uri("/virtual/users/me"))
                    .header("Authorization", "Bearer " + Tokens.hs256("user1@example.com", secret)));
            assertEquals(200, me.statusCode(), me.body());
            assertTrue(me.body().contains("\"email\":\"user1@example.com\""), me.body());
        }
    }

    private static final String MIGRATION_OFF = "-Dquarkus.flyway.migrate-at-start=false";
    private static final String DEVELOPMENT_KEY = "-Dmp.jwt.verify.publickey.location="
            + Path.of("src/main/resources/publicKey.pem").toAbsolutePath();

    private record Result(int exitCode, String output) {
    }

    /** Exit code 2 and one line, which names each of {@code named}. */
    private static void assertRefusal(Result result, String... named) {
        assertEquals(2, result.exitCode(), result.output());
        assertEquals(1, result.output().lines().count(), result.output());
        for (String name : named) {
            assertTrue(result.output().contains(name), result.output());
        }
    }

    /** Started on the database at url with the options: refused (as above), and nothing in the database changed. */
    private static void assertRefusedOn(String url, List<String> options, String... named) throws Exception {
        List<String> before = Article001Database.contents(url);
        List<String> command = new ArrayList<>(List.of("-Dquarkus.datasource.jdbc.url=" + url, DEVELOPMENT_KEY));
        command.addAll(options);
        assertRefusal(start(command), named);
        assertEquals(before, Article001Database.contents(url));
    }

    private static Result start(List<String> options) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(PackagedApp.command(options)).redirectErrorStream(true);
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
