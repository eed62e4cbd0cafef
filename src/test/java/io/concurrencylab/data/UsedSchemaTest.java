package io.concurrencylab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.UsedSchema.Column;
import io.concurrencylab.data.UsedSchema.Index;
import io.concurrencylab.data.UsedSchema.Table;
import io.concurrencylab.report.Report;
import io.concurrencylab.support.Article001Database;
import io.concurrencylab.user.User;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the start's check expects ({@link UsedSchema}) against what the migrations create and what the entities map, so
 * that the three cannot drift apart: a migration that adds, drops or retypes a column, or an entity that maps one,
 * fails here until the check expects the same.
 */
class UsedSchemaTest {

    /** table.column: the migration that created it, and its data_type; table: its migration; index: its migration. */
    static final Map<String, String> columnMigration = new TreeMap<>();
    static final Map<String, String> columnType = new HashMap<>();
    static final Map<String, String> tableMigration = new TreeMap<>();
    static final Map<String, String> indexMigration = new TreeMap<>();
    static String url;

    /** Applies the migrations to an empty database one at a time with Flyway, as the app does, noting what each made. */
    @BeforeAll
    static void migrateOneByOne() throws SQLException {
        url = Article001Database.empty("used_schema_migrated");
        MigrationInfo[] migrations = flyway(null).info().all();
        assertEquals(UsedSchema.FILES, Arrays.stream(migrations).map(MigrationInfo::getScript).toList());
        for (MigrationInfo migration : migrations) {
            flyway(migration.getVersion().getVersion()).migrate();
            String file = migration.getScript();
            try (Connection connection = DriverManager.getConnection(url, "root", "");
                    Statement statement = connection.createStatement()) {
                try (ResultSet rs = statement.executeQuery("SELECT table_name, column_name, data_type FROM "
                        + "information_schema.columns WHERE table_schema = DATABASE() AND table_name <> '"
                        + ExistingSchema.HISTORY_TABLE + "'")) {
                    while (rs.next()) {
                        tableMigration.putIfAbsent(rs.getString(1), file);
                        columnMigration.putIfAbsent(rs.getString(1) + "." + rs.getString(2), file);
                        columnType.putIfAbsent(rs.getString(1) + "." + rs.getString(2), rs.getString(3));
                    }
                }
                try (ResultSet rs = statement.executeQuery("SELECT table_name, column_name FROM "
                        + "information_schema.statistics WHERE table_schema = DATABASE() AND seq_in_index = 1 "
                        + "AND index_name <> 'PRIMARY' AND table_name <> '" + ExistingSchema.HISTORY_TABLE + "'")) {
                    while (rs.next()) {
                        indexMigration.putIfAbsent(rs.getString(1) + "(" + rs.getString(2) + ")", file);
                    }
                }
            }
        }
    }

    @Test
    void theCheckExpectsEachTableAndColumnFromTheMigrationThatCreatesIt() {
        Map<String, String> tables = new TreeMap<>();
        Map<String, String> columns = new TreeMap<>();
        for (Table table : UsedSchema.TABLES) {
            tables.put(table.name(), table.migration());
            for (Column column : table.columns()) {
                columns.put(table.name() + "." + column.name(), column.migration());
            }
        }
        assertEquals(tableMigration, tables);
        assertEquals(columnMigration, columns);
        for (Table table : UsedSchema.TABLES) {
            for (Column column : table.columns()) {
                String created = columnType.get(table.name() + "." + column.name());
                assertTrue(column.types().contains(created), table.name() + "." + column.name() + " is created as "
                        + created + ", which the check does not accept: " + column.types());
            }
        }
    }

    @Test
    void theIndexesTheCheckWarnsAboutAreTheOnesTheMigrationsCreate() {
        assertEquals(indexMigration, UsedSchema.INDEXES.stream()
                .collect(Collectors.toMap(Index::toString, Index::migration, (a, b) -> a, TreeMap::new)));
    }

    @Test
    void aDatabaseTheMigrationsMadeIsFineWithMigrationOffWithoutAWarning() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, "root", "")) {
            assertEquals(ExistingSchema.Verdict.FINE, ExistingSchema.check(connection, false, false));
        }
    }

    /** The columns Hibernate reads and writes: each persistent field's {@code @Column} name, or its own name. */
    @Test
    void theCheckExpectsExactlyTheColumnsTheEntitiesMap() {
        Set<String> mapped = Stream.of(User.class, Report.class).flatMap(entity -> Arrays.stream(
                entity.getDeclaredFields()).filter(field -> !Modifier.isStatic(field.getModifiers()))
                .map(field -> entity.getAnnotation(jakarta.persistence.Table.class).name() + "." + column(field)))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> expected = UsedSchema.TABLES.stream().flatMap(table -> table.columns().stream()
                .map(column -> table.name() + "." + column.name()))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, mapped);
    }

    private static String column(Field field) {
        jakarta.persistence.Column column = field.getAnnotation(jakarta.persistence.Column.class);
        return column != null && !column.name().isEmpty() ? column.name() : field.getName();
    }

    private static Flyway flyway(String target) {
        var configuration = Flyway.configure().dataSource(url, "root", "").locations("classpath:db/migration");
        return (target == null ? configuration : configuration.target(target)).load();
    }
}
