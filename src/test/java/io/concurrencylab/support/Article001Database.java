package io.concurrencylab.support;

import io.concurrencylab.data.EmbeddedDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** A database on the shared server set up by hand, as article 001's was: its DDL, two rows, nothing else. */
public final class Article001Database {

    /** Article 001's `desc users`: six columns, the email as primary key, the server's default character set. */
    public static final String USERS_TABLE = "CREATE TABLE users (email VARCHAR(255) NOT NULL PRIMARY KEY, "
            + "first VARCHAR(255), last VARCHAR(255), city VARCHAR(255), county VARCHAR(255), age INT)";

    private Article001Database() {
    }

    public static String create(String name, String... statements) throws SQLException {
        String url = "jdbc:mysql://127.0.0.1:" + EmbeddedDatabase.sharedPort() + "/" + name;
        try (Connection server = DriverManager.getConnection(
                "jdbc:mysql://127.0.0.1:" + EmbeddedDatabase.sharedPort() + "/", "root", "");
                Statement statement = server.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name);
            statement.execute("CREATE DATABASE " + name);
        }
        try (Connection connection = DriverManager.getConnection(url, "root", "");
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
            statement.execute("INSERT INTO users VALUES ('grace@example.com', 'Grace', 'Hopper', 'Arlington', "
                    + "'Arlington', 85), ('alan@example.com', 'Alan', 'Turing', 'Wilmslow', 'Cheshire', 41)");
        }
        return url;
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
