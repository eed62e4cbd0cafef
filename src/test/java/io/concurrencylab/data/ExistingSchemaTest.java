package io.concurrencylab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.ExistingSchema.Verdict;
import io.concurrencylab.support.Article001Database;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The start's verdict on databases an operator may bring, case by case (the packaged app's exit on them:
 * ProductionStartIT, OwnDatabaseIT). Each case has a database of its own on the shared server.
 */
class ExistingSchemaTest {

    /** A reports table an owner wrote rather than V2's: a DATETIME, and none of V2's indexes. */
    static final String OWNERS_REPORTS = "CREATE TABLE reports (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
            + "email VARCHAR(255) NOT NULL, city_users BIGINT NOT NULL, county_users BIGINT NOT NULL, "
            + "created_at DATETIME(3) NOT NULL)";

    @Test
    void withMigrationOnAnEmptyDatabaseAndAMigratedOneAreFlywaysToMigrate() throws SQLException {
        assertEquals(Verdict.FINE, verdict(Article001Database.empty("schema_empty_migrated"), true, false));
        String migrated = Article001Database.create("schema_history_migrated", Article001Database.USERS_TABLE,
                "CREATE TABLE " + ExistingSchema.HISTORY_TABLE + " (installed_rank INT NOT NULL PRIMARY KEY)");
        assertEquals(Verdict.FINE, verdict(migrated, true, false));
    }

    @Test
    void tablesWithoutHistoryAreRefusedNamingBothWaysOntoThem() throws SQLException {
        String url = Article001Database.create("schema_no_history", Article001Database.USERS_TABLE);
        String problem = verdict(url, true, false).problem().orElseThrow();
        assertTrue(problem.contains("quarkus.flyway.baseline-on-migrate=true"), problem);
        assertTrue(problem.contains("quarkus.flyway.migrate-at-start=false"), problem);
    }

    @Test
    void withMigrationOffAnEmptyDatabaseIsToldEveryMigrationToApplyInOrder() throws SQLException {
        String problem = verdict(Article001Database.empty("schema_empty_owned"), false, false).problem().orElseThrow();
        assertTrue(problem.contains("apply db/migration/V1__users.sql, then db/migration/V2__reports.sql"), problem);
    }

    @Test
    void withMigrationOffAFlywayHistoryDoesNotStandInForAMissingTable() throws SQLException {
        String url = Article001Database.create("schema_history_owned", Article001Database.USERS_TABLE,
                "CREATE TABLE " + ExistingSchema.HISTORY_TABLE + " (installed_rank INT NOT NULL PRIMARY KEY)");
        String problem = verdict(url, false, false).problem().orElseThrow();
        assertTrue(problem.endsWith(": no table reports, apply db/migration/V2__reports.sql"), problem);
    }

    @Test
    void withMigrationOffAMissingColumnIsNamedWithTheMigrationThatCreatesIt() throws SQLException {
        String url = Article001Database.create("schema_no_county", Article001Database.USERS_TABLE, OWNERS_REPORTS);
        Article001Database.execute(url, List.of("ALTER TABLE users DROP COLUMN county"));
        String problem = verdict(url, false, false).problem().orElseThrow();
        assertTrue(problem.endsWith(": users.county is missing (as in db/migration/V1__users.sql)"), problem);
    }

    @Test
    void withMigrationOffAReportsIdTheDatabaseDoesNotGenerateIsRefused() throws SQLException {
        String url = Article001Database.create("schema_no_auto_increment", Article001Database.USERS_TABLE,
                OWNERS_REPORTS.replace(" AUTO_INCREMENT", ""));
        String problem = verdict(url, false, false).problem().orElseThrow();
        assertTrue(problem.contains("reports.id is not AUTO_INCREMENT"), problem);
    }

    @Test
    void withMigrationOffMissingIndexesAreOneWarningAndNoRefusal() throws SQLException {
        String url = Article001Database.create("schema_no_indexes", Article001Database.USERS_TABLE, OWNERS_REPORTS);
        Verdict verdict = verdict(url, false, false);
        assertEquals(List.of("database schema_no_indexes has no index on users(city), users(county), reports(email) "
                + "(db/migration/V2__reports.sql creates them): the report's counts then read the whole table, the "
                + "same answers, slower as it grows"), verdict.warnings());
        assertEquals(Optional.empty(), verdict.problem());
        Article001Database.execute(url, List.of("CREATE INDEX owners_city ON users (city, age)",
                "CREATE INDEX owners_county ON users (county)", "CREATE INDEX owners_email ON reports (email)"));
        assertEquals(Verdict.FINE, verdict(url, false, false), "indexes of the owner's own names count");
    }

    private static Verdict verdict(String url, boolean migrate, boolean adopt) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, "root", "")) {
            return ExistingSchema.check(connection, migrate, adopt);
        }
    }
}
