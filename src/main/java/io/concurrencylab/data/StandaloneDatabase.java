package io.concurrencylab.data;

/**
 * The embedded MariaDB as a process of its own, for the benchmark and for running several app processes on
 * one database. Prints the JDBC URL on its first line of standard output and runs until it is stopped:
 * <pre>
 * java -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "target/quarkus-app/lib/boot/*:target/quarkus-app/lib/main/*:target/quarkus-app/app/*" \
 *     io.concurrencylab.data.StandaloneDatabase
 * </pre>
 */
public final class StandaloneDatabase {

    public static void main(String[] args) throws InterruptedException {
        EmbeddedDatabase db = EmbeddedDatabase.start();
        EmbeddedServer.serveUntilStopped(db, EmbeddedDatabase.jdbcUrl(db.port()));
    }
}
