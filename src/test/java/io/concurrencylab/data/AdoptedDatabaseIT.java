package io.concurrencylab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Article001Database;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.Tokens;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
            for (String model : Models.ALL) {
                HttpResponse<String> me = app.send(HttpRequest.newBuilder(app.uri("/" + model + "/users/me"))
                        .header("Authorization", "Bearer " + Tokens.rs256("grace@example.com")));
                assertEquals(200, me.statusCode(), model + ": " + me.body());
                assertTrue(me.body().contains("\"city\":\"Arlington\""), model + ": " + me.body());
                HttpResponse<String> report = app.send(HttpRequest.newBuilder(app.uri("/" + model + "/users/me/report"))
                        .header("Authorization", "Bearer " + Tokens.rs256("grace@example.com"))
                        .POST(HttpRequest.BodyPublishers.noBody()));
                assertEquals(200, report.statusCode(), model + ": " + report.body());
            }
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
