package io.concurrencylab.data;

import io.concurrencylab.data.UsedSchema.Column;
import io.concurrencylab.data.UsedSchema.Index;
import io.concurrencylab.data.UsedSchema.Table;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;

/**
 * What a production start finds in its database before anything touches it, in the three cases of README's "Your
 * own database":
 * <ul>
 * <li>Migration on ({@code quarkus.flyway.migrate-at-start=true}, the default) and an empty schema, or one with
 * Flyway's history: Flyway's to migrate.</li>
 * <li>Migration on and tables but no history (article 001's database: a {@code users} table made by hand): used only
 * when the operator adopts it with {@code quarkus.flyway.baseline-on-migrate=true}, and only if its {@code users}
 * table has what the app reads and none of the tables the later migrations create. Flyway then records that table as
 * version 1 and runs the rest.</li>
 * <li>Migration off: the schema is its owner's, history or not. It must have every table and column the app reads
 * and writes ({@link UsedSchema}); the indexes the report uses are a warning only.</li>
 * </ul>
 * Anything else is one line naming the setting, or the table or column with the migration whose DDL creates it,
 * instead of Flyway's exception halfway through the start or a first request that fails.
 */
public final class ExistingSchema {

    static final String MIGRATE_OPTION = "quarkus.flyway.migrate-at-start";
    static final String ADOPT_OPTION = "quarkus.flyway.baseline-on-migrate";
    static final String HISTORY_TABLE = "flyway_schema_history";
    /** Flyway's baseline, version 1: the migration whose tables an adopted database already holds. */
    static final String BASELINE = UsedSchema.V1;

    private ExistingSchema() {
    }

    /**
     * What the start found: why the app cannot run on the database, if it cannot, and otherwise what it runs without
     * (one line each). A verdict with a problem has no warnings: the problem is the one line.
     */
    public record Verdict(Optional<String> problem, List<String> warnings) {

        static final Verdict FINE = new Verdict(Optional.empty(), List.of());

        static Verdict refused(String problem) {
            return new Verdict(Optional.of(problem), List.of());
        }
    }

    /**
     * Checks the configured database. One that does not answer now is left to the start itself, which reports it the
     * way it reports any outage.
     */
    public static Verdict check(Config config) {
        Properties login = new Properties();
        config.getOptionalValue("quarkus.datasource.username", String.class).ifPresent(u -> login.setProperty("user", u));
        config.getOptionalValue("quarkus.datasource.password", String.class)
                .ifPresent(p -> login.setProperty("password", p));
        login.setProperty("connectTimeout", "5000");
        login.setProperty("socketTimeout", "10000");
        // Quarkus' own defaults when a property is not set: no migration, no baseline.
        boolean migrate = config.getOptionalValue(MIGRATE_OPTION, Boolean.class).orElse(false);
        boolean adopt = config.getOptionalValue(ADOPT_OPTION, Boolean.class).orElse(false);
        try (Connection connection = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class), login)) {
            return check(connection, migrate, adopt);
        } catch (SQLException e) {
            return Verdict.FINE;
        }
    }

    static Verdict check(Connection connection, boolean migrate, boolean adopt) throws SQLException {
        String schema = connection.getCatalog();
        Set<String> tables = tables(connection);
        if (!migrate) {
            return ownersSchema(connection, schema, tables);
        }
        if (tables.isEmpty() || tables.contains(HISTORY_TABLE)) {
            return Verdict.FINE;
        }
        if (!adopt) {
            return Verdict.refused("database " + schema + " already has tables " + tables + " but no Flyway history ("
                    + HISTORY_TABLE + "); to run on it, e.g. with article 001's users table, either adopt it: "
                    + ADOPT_OPTION + "=true (environment: QUARKUS_FLYWAY_BASELINE_ON_MIGRATE=true) checks its users "
                    + "table, records it as version 1 and runs the later migrations; or leave its schema to its owner: "
                    + MIGRATE_OPTION + "=false (environment: QUARKUS_FLYWAY_MIGRATE_AT_START=false) writes no DDL and "
                    + "checks the tables the app uses, naming the migration to apply for anything missing");
        }
        List<String> mismatches = new ArrayList<>();
        for (Table table : UsedSchema.TABLES) {
            if (table.migration().equals(BASELINE)) {
                // Only what the baseline made: a later migration adds its own columns to an adopted table.
                mismatches.addAll(mismatches(connection, table,
                        table.columns().stream().filter(column -> column.migration().equals(BASELINE)).toList()));
            } else if (tables.contains(table.name())) {
                mismatches.add("it already has a table " + table.name() + " that the lab creates itself ("
                        + UsedSchema.path(table.migration()) + ")");
            }
        }
        return mismatches.isEmpty() ? Verdict.FINE
                : Verdict.refused("cannot adopt database " + schema + " (" + ADOPT_OPTION + "=true): "
                        + String.join("; ", mismatches));
    }

    /** Migration off: every table and column the app uses must be there already, history or not. */
    private static Verdict ownersSchema(Connection connection, String schema, Set<String> tables) throws SQLException {
        List<String> used = UsedSchema.TABLES.stream().map(Table::name).toList();
        if (used.stream().noneMatch(tables::contains)) {
            return Verdict.refused("database " + schema + " has none of the tables the app uses " + used + ", and with "
                    + MIGRATE_OPTION + "=false the app creates none: apply " + UsedSchema.FILES.stream()
                            .map(UsedSchema::path).collect(Collectors.joining(", then "))
                    + ", or set " + MIGRATE_OPTION + "=true (environment: QUARKUS_FLYWAY_MIGRATE_AT_START=true) for "
                    + "Flyway to create them");
        }
        List<String> mismatches = new ArrayList<>();
        for (Table table : UsedSchema.TABLES) {
            mismatches.addAll(mismatches(connection, table, table.columns()));
        }
        if (!mismatches.isEmpty()) {
            return Verdict.refused("database " + schema + " does not have what the app reads and writes, and with "
                    + MIGRATE_OPTION + "=false its schema is its owner's (the app writes no DDL): "
                    + String.join("; ", mismatches));
        }
        Set<String> indexed = indexed(connection);
        Map<String, List<Index>> missing = UsedSchema.INDEXES.stream()
                .filter(index -> !indexed.contains(index.table() + "." + index.column()))
                .collect(Collectors.groupingBy(Index::migration, LinkedHashMap::new, Collectors.toList()));
        List<String> warnings = new ArrayList<>();
        missing.forEach((migration, indexes) -> warnings.add("database " + schema + " has no index on "
                + indexes.stream().map(Index::toString).collect(Collectors.joining(", ")) + " ("
                + UsedSchema.path(migration) + " creates them): the report's counts then read the whole table, "
                + "the same answers, slower as it grows"));
        return new Verdict(Optional.empty(), List.copyOf(warnings));
    }

    /**
     * How this database's table differs from what the app reads and writes (of its columns, those given); each line
     * names the migration to see.
     */
    private static List<String> mismatches(Connection connection, Table table, List<Column> expected)
            throws SQLException {
        Map<String, FoundColumn> columns = columns(connection, table.name());
        if (columns.isEmpty()) {
            return List.of("no table " + table.name() + ", apply " + UsedSchema.path(table.migration()));
        }
        List<String> mismatches = new ArrayList<>();
        for (Column column : expected) {
            FoundColumn found = columns.get(column.name());
            if (found == null || !column.types().contains(found.type())) {
                mismatches.add(table.name() + "." + column.name() + " is "
                        + (found == null ? "missing" : found.type() + ", expected one of " + column.types()) + " (as in "
                        + UsedSchema.path(column.migration()) + ")");
            }
        }
        if (!primaryKey(connection, table.name()).equals(table.primaryKey())) {
            mismatches.add(table.name() + "' primary key is not (" + String.join(", ", table.primaryKey()) + ") (as in "
                    + UsedSchema.path(table.migration()) + ")");
        } else if (table.generatedKey() && !columns.get(table.primaryKey().getFirst()).generated()) {
            mismatches.add(table.name() + "." + table.primaryKey().getFirst() + " is not AUTO_INCREMENT: the app "
                    + "inserts rows without it (as in " + UsedSchema.path(table.migration()) + ")");
        }
        return mismatches;
    }

    private record FoundColumn(String type, boolean generated) {
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

    private static Map<String, FoundColumn> columns(Connection connection, String table) throws SQLException {
        Map<String, FoundColumn> columns = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT column_name, data_type, extra FROM "
                + "information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?")) {
            statement.setString(1, table);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    columns.put(rs.getString(1).toLowerCase(Locale.ROOT), new FoundColumn(
                            rs.getString(2).toLowerCase(Locale.ROOT),
                            rs.getString(3).toLowerCase(Locale.ROOT).contains("auto_increment")));
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

    /** Every table.column that leads an index (the primary key's too): what a lookup on that column can use. */
    private static Set<String> indexed(Connection connection) throws SQLException {
        Set<String> indexed = new HashSet<>();
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT table_name, column_name FROM information_schema.statistics "
                        + "WHERE table_schema = DATABASE() AND seq_in_index = 1")) {
            while (rs.next()) {
                indexed.add(rs.getString(1).toLowerCase(Locale.ROOT) + "." + rs.getString(2).toLowerCase(Locale.ROOT));
            }
        }
        return indexed;
    }
}
