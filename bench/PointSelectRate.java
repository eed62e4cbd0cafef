import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The database's own point-select rate: N threads, one JDBC connection each, select one user by primary key
 * (the query behind /users/me) as fast as they can for S seconds, after a short warm-up. Prints one JSON line.
 *
 * java -cp "target/quarkus-app/lib/main/*" bench/PointSelectRate.java --url jdbc:mysql://127.0.0.1:3306/lab \
 *      [--user lab] [--password lab] [--threads 20] [--seconds 10] [--warmup 3] [--users 100000]
 */
public class PointSelectRate {

    public static void main(String[] args) throws Exception {
        String url = null, user = "lab", password = "lab";
        int threads = 20, users = 100_000;
        double seconds = 10, warmup = 3;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--url" -> url = value;
                case "--user" -> user = value;
                case "--password" -> password = value;
                case "--threads" -> threads = Integer.parseInt(value);
                case "--seconds" -> seconds = Double.parseDouble(value);
                case "--warmup" -> warmup = Double.parseDouble(value);
                case "--users" -> users = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
            i++;
        }
        if (url == null) {
            throw new IllegalArgumentException("--url is required");
        }
        AtomicBoolean counting = new AtomicBoolean(false);
        AtomicBoolean running = new AtomicBoolean(true);
        LongAdder queries = new LongAdder();
        LongAdder errors = new LongAdder();
        List<Thread> workers = new ArrayList<>();
        CountDownLatch connected = new CountDownLatch(threads);
        final String jdbcUrl = url, jdbcUser = user, jdbcPassword = password;
        final int userCount = users;
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try (Connection c = DriverManager.getConnection(jdbcUrl, jdbcUser, jdbcPassword);
                        PreparedStatement ps = c.prepareStatement(
                                "SELECT email, first, last, city, county, age FROM users WHERE email = ?")) {
                    connected.countDown();
                    while (running.get()) {
                        int n = 1 + ThreadLocalRandom.current().nextInt(userCount);
                        ps.setString(1, "user" + n + "@example.com");
                        try (ResultSet rs = ps.executeQuery()) {
                            if (!rs.next()) {
                                errors.increment();
                            }
                        }
                        if (counting.get()) {
                            queries.increment();
                        }
                    }
                } catch (Exception e) {
                    connected.countDown();
                    errors.increment();
                    System.err.println("point-select worker failed: " + e);
                }
            });
            worker.start();
            workers.add(worker);
        }
        // Opening a connection can take seconds (e.g. a server doing reverse DNS): measure only once all are open.
        long connectStart = System.nanoTime();
        if (!connected.await(120, TimeUnit.SECONDS)) {
            running.set(false);
            throw new IllegalStateException("could not open " + threads + " connections within 120 s");
        }
        double connectSeconds = (System.nanoTime() - connectStart) / 1e9;
        Thread.sleep((long) (warmup * 1000));
        counting.set(true);
        long start = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        counting.set(false);
        double elapsed = (System.nanoTime() - start) / 1e9;
        long done = queries.sum();
        running.set(false);
        for (Thread worker : workers) {
            worker.join(10_000);
        }
        System.out.printf(java.util.Locale.ROOT,
                "{\"threads\":%d,\"seconds\":%.3f,\"queries\":%d,\"qps\":%.1f,\"errors\":%d,\"connect_seconds\":%.3f}%n",
                threads, elapsed, done, done / elapsed, errors.sum(), connectSeconds);
    }
}
