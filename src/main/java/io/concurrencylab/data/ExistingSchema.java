package io.concurrencylab.data;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.Config;

/**
 * What a production start finds in its database before Flyway touches it. An empty schema, or one with Flyway's
 * history, is Flyway's to migrate. A schema that already has tables but no history (article 001's database: a
 * {@code users} table made by hand) is used only when the operator asks for it with
 * {@code quarkus.flyway.baseline-on-migrate=true}, and only if its {@code users} table has what the app reads and none
 * of the tables the later migrations create: Flyway then records that table as version 1 and runs the rest. Anything
 * else is one line naming the setting or the mismatch, instead of Flyway's exception halfway through the start.
 */
public final class ExistingSchema {

    static final String ADOPT_OPTION = "quarkus.flyway.baseline-on-migrate";
    static final String HISTORY_TABLE = "flyway_schema_history";
    /** The users table of V1__users.sql, as the app reads it: column name and the SQL types it accepts. */
    static final Map<String, List<String>> USERS_COLUMNS = usersColumns();
    /** Tables that migrations after V1 create: an adopted schema must not hold them already. */
    static final Set<String> LATER_TABLES = Set.of("reports");

    private ExistingSchema() {
    }

    /**
     * Why the app cannot start on the configured database, if it cannot. A database that does not answer now is left
     * to the start itself, which reports it the way it reports any outage.
     */
    public static Optional<String> problem(Config config) {
        Properties login = new Properties();
        config.getOptionalValue("quarkus.datasource.username", String.class).ifPresent(u -> login.setProperty("user", u));
        config.getOptionalValue("quarkus.datasource.password", String.class)
                .ifPresent(p -> login.setProperty("password", p));
        login.setProperty("connectTimeout", "5000");
        login.setProperty("socketTimeout", "10000");
        boolean adopt = config.getOptionalValue(ADOPT_OPTION, Boolean.class).orElse(false);
        try (Connection connection = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class), login)) {
            return problem(connection, adopt);
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    static Optional<String> problem(Connection connection, boolean adopt) throws SQLException {
        String schema = connection.getCatalog();
        Set<String> tables = tables(connection);
        if (tables.isEmpty() || tables.contains(HISTORY_TABLE)) {
            return Optional.empty();
        }
        if (!adopt) {
            return Optional.of("database " + schema + " already has tables " + tables + " but no Flyway history ("
                    + HISTORY_TABLE + "); to run on it, e.g. with article 001's users table, set " + ADOPT_OPTION
                    + "=true (environment: QUARKUS_FLYWAY_BASELINE_ON_MIGRATE=true): its users table is checked, "
                    + "recorded as version 1, and the later migrations run");
        }
        List<String> mismatches = new ArrayList<>();
        Map<String, String> columns = columns(connection, "users");
        if (columns.isEmpty()) {
            mismatches.add("it has no users table");
        }
        USERS_COLUMNS.forEach((name, types) -> {
            String type = columns.get(name);
            if (!columns.isEmpty() && (type == null || !types.contains(type))) {
                mismatches.add("users." + name + " is " + (type == null ? "missing" : type) + ", expected one of "
                        + types);
            }
        });
        if (!columns.isEmpty() && !primaryKey(connection, "users").equals(List.of("email"))) {
            mismatches.add("users' primary key is not (email)");
        }
        tables.stream().filter(LATER_TABLES::contains)
                .forEach(table -> mismatches.add("it already has a table " + table + " that the lab creates itself"));
        return mismatches.isEmpty() ? Optional.empty()
                : Optional.of("cannot adopt database " + schema + " (" + ADOPT_OPTION + "=true): "
                        + String.join("; ", mismatches));
    }

    private static Set<String> tables(Connection connection) throws SQLException {
        Set<String> tables = new TreeSet<>();
        try (ResultSet rs = connection.getMetaData().getTables(connection.getCatalog(), null, "%",
                new String[] { "TABLE", "VIEW" })) {
            while (rs.next()) {
                tables.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return tables;
    }

    private static Map<String, String> columns(Connection connection, String table) throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT column_name, data_type FROM "
                + "information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?")) {
            statement.setString(1, table);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    columns.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getString(2).toLowerCase(Locale.ROOT));
                }
            }
        }
        return columns;
    }

    private static List<String> primaryKey(Connection connection, String table) throws SQLException {
        List<String> key = new ArrayList<>();
        DatabaseMetaData metaData = connection.getMetaData();
        try (ResultSet rs = metaData.getPrimaryKeys(connection.getCatalog(), null, table)) {
            while (rs.next()) {
                key.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return key;
    }

    private static Map<String, List<String>> usersColumns() {
        List<String> text = List.of("varchar", "char");
        List<String> whole = List.of("int", "bigint", "mediumint", "smallint", "tinyint");
        Map<String, List<String>> columns = new LinkedHashMap<>();
        for (String name : List.of("email", "first", "last", "city", "county")) {
            columns.put(name, text);
        }
        columns.put("age", whole);
        return Collections.unmodifiableMap(columns);
    }
}
