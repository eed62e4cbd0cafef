package io.concurrencylab.data;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Creates the {@code users} table of article 001 at start and, when it is empty, fills it with
 * {@code lab.seed.users} deterministic rows: user n has email {@code user<n>@example.com}.
 * Plain JDBC with multi-row inserts: 100,000 rows take about a second.
 */
@ApplicationScoped
public class UserSeeder {

    private static final Logger LOG = Logger.getLogger(UserSeeder.class);
    private static final int ROWS_PER_INSERT = 1_000;
    private static final String[] FIRST = { "Ada", "Grace", "Alan", "Linus", "Barbara", "Ken", "Edsger", "Margaret" };
    private static final String[] LAST = { "Lovelace", "Hopper", "Turing", "Torvalds", "Liskov", "Thompson", "Dijkstra", "Hamilton" };
    private static final String[] CITY = { "Leeds", "Austin", "Lyon", "Porto", "Gdansk", "Osaka", "Turin", "Ghent", "Tartu" };
    private static final String[] COUNTY = { "West Yorkshire", "Travis", "Rhone", "Porto", "Pomerania", "Osaka", "Piedmont" };

    private final AgroalDataSource dataSource;
    private final int users;
    private final boolean enabled;

    UserSeeder(AgroalDataSource dataSource, @ConfigProperty(name = "lab.seed.users") int users,
            @ConfigProperty(name = "lab.seed.enabled") boolean enabled) {
        this.dataSource = dataSource;
        this.users = users;
        this.enabled = enabled;
    }

    void onStart(@Observes StartupEvent start) throws SQLException {
        if (!enabled) {
            return;
        }
        long started = System.nanoTime();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS users (
                      email varchar(255) NOT NULL PRIMARY KEY,
                      first varchar(255), last varchar(255), city varchar(255), county varchar(255), age int)""");
            try (ResultSet any = statement.executeQuery("SELECT 1 FROM users LIMIT 1")) {
                if (any.next()) {
                    LOG.info("Table users already has rows: not seeding");
                    return;
                }
            }
            insert(connection);
        }
        LOG.infof("Seeded %d users in %d ms", users, (System.nanoTime() - started) / 1_000_000);
    }

    private void insert(Connection connection) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        for (int from = 1; from <= users; from += ROWS_PER_INSERT) {
            int to = Math.min(users, from + ROWS_PER_INSERT - 1);
            String sql = "INSERT INTO users (email, first, last, city, county, age) VALUES "
                    + "(?,?,?,?,?,?),".repeat(to - from) + "(?,?,?,?,?,?)";
            try (PreparedStatement insert = connection.prepareStatement(sql)) {
                int p = 1;
                for (int n = from; n <= to; n++) {
                    insert.setString(p++, email(n));
                    insert.setString(p++, FIRST[n % FIRST.length]);
                    insert.setString(p++, LAST[(n / FIRST.length) % LAST.length]);
                    insert.setString(p++, CITY[n % CITY.length]);
                    insert.setString(p++, COUNTY[n % COUNTY.length]);
                    insert.setInt(p++, 18 + n % 70);
                }
                insert.executeUpdate();
            }
        }
        connection.commit();
        connection.setAutoCommit(autoCommit);
    }

    public static String email(int n) {
        return "user" + n + "@example.com";
    }
}
