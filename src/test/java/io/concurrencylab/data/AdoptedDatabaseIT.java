package io.concurrencylab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.concurrencylab.support.Article001Database;
import io.concurrencylab.support.PackagedApp;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packaged app on a database prepared the way article 001's was: a users table created by hand, rows inserted,
 * no Flyway history. Adopted with quarkus.flyway.baseline-on-migrate=true, every model serves the rows that were
 * there, and the later migrations (the report's table) ran on top of them.
 */
class AdoptedDatabaseIT {

    static final String DATABASE = "article001_adopted";

    @Test
    void article001sDatabaseIsAdoptedAndServedByEveryModel() throws Exception {
        String url = Article001Database.create(DATABASE, Article001Database.USERS_TABLE);
        try (PackagedApp app = PackagedApp.start("adopted-app", Map.of("quarkus.datasource.jdbc.url", url,
                "quarkus.flyway.baseline-on-migrate", "true", "lab.seed.users", "0"))) {
            Article001Database.assertServedByEveryModel(app);
        }
        assertEquals(List.of("1 BASELINE", "2 SQL"), history(url));
    }

    private static List<String> history(String url) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url, "root", "");
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(
                        "SELECT version, type FROM flyway_schema_history ORDER BY installed_rank")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        return rows;
    }
}
