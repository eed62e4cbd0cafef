package io.concurrencylab.data;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.concurrencylab.data.EmbeddedDatabase;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * A database created with the server's defaults rather than by this project: latin1, as on a default MariaDB. The
 * migration states utf8mb4 itself, so an email outside latin1 is an ordinary lookup (404), not an outage.
 */
@QuarkusTest
@TestProfile(OperatorDatabaseTest.Latin1Database.class)
class OperatorDatabaseTest {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void aNonAsciiEmailIsAnOrdinaryLookup(String model) {
        for (String email : List.of("jürgen@exämple.com", "用户@例子.公司", "zoë😀@example.com")) {
            given().auth().oauth2(Tokens.rs256(email)).get("/{model}/users/me", model)
                    .then().statusCode(404).body("error", equalTo("user_not_found"));
        }
        given().auth().oauth2(Tokens.rs256("user15@example.com")).get("/{model}/users/me", model)
                .then().statusCode(200).body("email", equalTo("user15@example.com"));
    }

    public static class Latin1Database implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(Resource.class));
        }
    }

    /** A second database on the shared server, created the way an operator's default server would. */
    public static class Resource implements QuarkusTestResourceLifecycleManager {

        @Override
        public Map<String, String> start() {
            int port = EmbeddedDatabase.sharedPort();
            try (Connection connection = DriverManager.getConnection(
                    "jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED", "root", "");
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS operator_latin1");
                statement.execute("CREATE DATABASE operator_latin1 CHARACTER SET latin1 COLLATE latin1_swedish_ci");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return Map.of("quarkus.datasource.jdbc.url", "jdbc:mysql://127.0.0.1:" + port + "/operator_latin1");
        }

        @Override
        public void stop() {
        }
    }
}
