package io.concurrencylab.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.EmbeddedDatabase;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A database on the shared server set up by hand, as article 001's was: its DDL, two rows, nothing else; and the DDL
 * of the app's migrations, as the owner of such a database applies it.
 */
public final class Article001Database {

    /** Article 001's `desc users`: six columns, the email as primary key, the server's default character set. */
    public static final String USERS_TABLE = "CREATE TABLE users (email VARCHAR(255) NOT NULL PRIMARY KEY, "
            + "first VARCHAR(255), last VARCHAR(255), city VARCHAR(255), county VARCHAR(255), age INT)";

    private Article001Database() {
    }

    /** A database with the given DDL and two users in its users table. */
    public static String create(String name, String... statements) throws SQLException {
        String url = empty(name);
        execute(url, List.of(statements));
        execute(url, List.of("INSERT INTO users VALUES ('grace@example.com', 'Grace', 'Hopper', 'Arlington', "
                + "'Arlington', 85), ('alan@example.com', 'Alan', 'Turing', 'Wilmslow', 'Cheshire', 41)"));
        return url;
    }

    /** A new database with no tables (dropped first if a previous run left it). */
    public static String empty(String name) throws SQLException {
        try (Connection server = DriverManager.getConnection(
                "jdbc:mysql://127.0.0.1:" + EmbeddedDatabase.sharedPort() + "/", "root", "");
                Statement statement = server.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name);
            statement.execute("CREATE DATABASE " + name);
        }
        return "jdbc:mysql://127.0.0.1:" + EmbeddedDatabase.sharedPort() + "/" + name;
    }

    public static void execute(String url, List<String> statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, "root", "");
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /**
     * The statements of one of the app's migrations (src/main/resources/db/migration), as an owner who manages the
     * schema applies its DDL by hand: comment lines left out, split at each semicolon.
     */
    public static List<String> migration(String file) throws IOException {
        String sql = Files.readString(Path.of("src/main/resources/db/migration", file)).lines()
                .filter(line -> !line.strip().startsWith("--")).collect(Collectors.joining("\n"));
        return Arrays.stream(sql.split(";")).map(String::strip).filter(statement -> !statement.isEmpty()).toList();
    }

    /** The packaged app on such a database, as every model serves it: Grace's users/me, and her report (one row each). */
    public static void assertServedByEveryModel(PackagedApp app) throws IOException, InterruptedException {
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

    /** Each table with its row count: what a refused start must have left as it was. */
    public static List<String> contents(String url) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url, "root", "");
                Statement statement = connection.createStatement();
                ResultSet names = connection.getMetaData().getTables(connection.getCatalog(), null, "%", null)) {
            while (names.next()) {
                String table = names.getString("TABLE_NAME");
                try (ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    count.next();
                    tables.add(table + ": " + count.getLong(1) + " rows");
                }
            }
        }
        return tables;
    }
}
