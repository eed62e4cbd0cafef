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
 * Fills an empty {@code users} table (created by the Flyway migration) with {@code lab.seed.users} deterministic
 * rows: user n has email {@code user<n>@example.com}. A development, test and benchmark concern: 0, off, unless a
 * profile or the operator asks. Several replicas may start at once: a named database lock lets one of them seed
 * while the others wait and then find the table filled. Plain JDBC with multi-row inserts: 100,000 rows take
 * about a second.
 */
@ApplicationScoped
public class UserSeeder {

    private static final Logger LOG = Logger.getLogger(UserSeeder.class);
    private static final String LOCK = "concurrency_lab_seed";
    private static final int LOCK_WAIT_SECONDS = 60;
    private static final int ROWS_PER_INSERT = 1_000;
    private static final String[] FIRST = { "Ada", "Grace", "Alan", "Linus", "Barbara", "Ken", "Edsger", "Margaret" };
    private static final String[] LAST = { "Lovelace", "Hopper", "Turing", "Torvalds", "Liskov", "Thompson", "Dijkstra", "Hamilton" };
    private static final String[] CITY = { "Leeds", "Austin", "Lyon", "Porto", "Gdansk", "Osaka", "Turin", "Ghent", "Tartu" };
    private static final String[] COUNTY = { "West Yorkshire", "Travis", "Rhone", "Porto", "Pomerania", "Osaka", "Piedmont" };

    private final AgroalDataSource dataSource;
    private final int users;

    UserSeeder(AgroalDataSource dataSource, @ConfigProperty(name = "lab.seed.users") int users) {
        this.dataSource = dataSource;
        this.users = users;
    }

    void onStart(@Observes StartupEvent start) throws SQLException {
        if (users <= 0) {
            return;
        }
        long started = System.nanoTime();
        try (Connection connection = dataSource.getConnection()) {
            if (!lock(connection, "SELECT GET_LOCK(?, " + LOCK_WAIT_SECONDS + ")")) {
                throw new IllegalStateException("Another instance held the seeding lock for " + LOCK_WAIT_SECONDS + " s");
            }
            try (Statement statement = connection.createStatement();
                    ResultSet any = statement.executeQuery("SELECT 1 FROM users LIMIT 1")) {
                if (any.next()) {
                    LOG.info("Table users already has rows: not seeding");
                    return;
                }
                insert(connection);
            } finally {
                lock(connection, "SELECT RELEASE_LOCK(?)");
            }
        }
        LOG.infof("Seeded %d users in %d ms", users, (System.nanoTime() - started) / 1_000_000);
    }

    private static boolean lock(Connection connection, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, LOCK);
            try (ResultSet result = statement.executeQuery()) {
                return result.next() && result.getInt(1) == 1;
            }
        }
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
