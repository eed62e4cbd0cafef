package io.concurrencylab.data;

import java.util.List;

/**
 * What the app reads and writes in its database, and which migration of {@code db/migration} creates each part: the
 * one description that a start holds an existing database to ({@link ExistingSchema}). UsedSchemaTest holds it to
 * the migrations (applied one by one to an empty database, they create exactly these tables and columns, each in the
 * file named here) and to the entities the app maps ({@code User}, {@code Report}).
 */
final class UsedSchema {

    /** Where the migrations are, in the app's jar and in the sources (src/main/resources). */
    static final String MIGRATIONS = "db/migration/";
    static final String V1 = "V1__users.sql";
    static final String V2 = "V2__reports.sql";
    /** Every migration, in the order Flyway applies them. */
    static final List<String> FILES = List.of(V1, V2);

    private static final List<String> TEXT = List.of("varchar", "char");
    private static final List<String> WHOLE = List.of("int", "bigint", "mediumint", "smallint", "tinyint");
    /** Row ids and the report's counts of users: Java longs, which a narrower column would refuse past its range. */
    private static final List<String> WIDE = List.of("bigint", "int");
    private static final List<String> INSTANT = List.of("timestamp", "datetime");

    /** A column: its name, the types (information_schema's data_type) the app can read and write, its migration. */
    record Column(String name, List<String> types, String migration) {
    }

    /**
     * A table: the migration that creates it, its columns, its primary key, and whether the database must generate
     * that key (AUTO_INCREMENT: the app inserts rows without one and reads back the one they got).
     */
    record Table(String name, String migration, List<Column> columns, List<String> primaryKey, boolean generatedKey) {
    }

    /**
     * An index that the report's queries use: an index whose first column is this one. Missing, it is a warning and not
     * a refusal: every query answers the same without it (the counts scan the table instead), and an owner may keep
     * indexes of their own under other names or leave them out on a small table.
     */
    record Index(String table, String column, String migration) {
        @Override
        public String toString() {
            return table + "(" + column + ")";
        }
    }

    static final List<Table> TABLES = List.of(
            new Table("users", V1, List.of(new Column("email", TEXT, V1), new Column("first", TEXT, V1),
                    new Column("last", TEXT, V1), new Column("city", TEXT, V1), new Column("county", TEXT, V1),
                    new Column("age", WHOLE, V1)), List.of("email"), false),
            new Table("reports", V2, List.of(new Column("id", WIDE, V2), new Column("email", TEXT, V2),
                    new Column("city_users", WIDE, V2), new Column("county_users", WIDE, V2),
                    new Column("created_at", INSTANT, V2)), List.of("id"), true));

    static final List<Index> INDEXES = List.of(new Index("users", "city", V2), new Index("users", "county", V2),
            new Index("reports", "email", V2));

    private UsedSchema() {
    }

    static String path(String migration) {
        return MIGRATIONS + migration;
    }
}
