package io.concurrencylab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.concurrencylab.support.Article001Database;
import io.concurrencylab.support.PackagedApp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packaged app on a database its owner manages: article 001's, a users table created by hand with its rows, to
 * which the owner applied the DDL the start asked for (db/migration/V2__reports.sql). With
 * quarkus.flyway.migrate-at-start=false every model serves the rows that were there and writes its reports, and the
 * app writes no DDL: no Flyway history, no table of its own.
 */
class OwnerManagedDatabaseIT {

    @Test
    void article001sDatabaseWithTheReportsDdlAppliedByItsOwnerIsServedWithMigrationOff() throws Exception {
        String url = Article001Database.create("article001_managed", Article001Database.USERS_TABLE);
        Article001Database.execute(url, Article001Database.migration("V2__reports.sql"));
        try (PackagedApp app = PackagedApp.start("managed-app", Map.of("quarkus.datasource.jdbc.url", url,
                "quarkus.flyway.migrate-at-start", "false", "lab.seed.users", "0"))) {
            Article001Database.assertServedByEveryModel(app);
        }
        assertEquals(List.of("reports: 3 rows", "users: 2 rows"), Article001Database.contents(url));
    }
}
