package io.concurrencylab.data;

import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/** A server the lab starts from Java where none is installed (dev mode, tests, the benchmark): MariaDB, Redis. */
interface EmbeddedServer extends AutoCloseable {

    int port();

    @Override
    void close();

    /**
     * The port of the one server of a kind that this JVM shares, started on first use and stopped when the JVM exits.
     * Kept in a system property, not a static field: dev-mode live reload and test profiles load our classes again in
     * new class loaders, and they must find the running server. Callers synchronize.
     */
    static int sharedPort(String portProperty, Supplier<? extends EmbeddedServer> start) {
        String running = System.getProperty(portProperty);
        if (running != null) {
            return Integer.parseInt(running);
        }
        EmbeddedServer shared = start.get();
        Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "embedded-server-stop"));
        System.setProperty(portProperty, Integer.toString(shared.port()));
        return shared.port();
    }

    /**
     * Runs a server as a process of its own: prints how to reach it on the first line of standard output (for the
     * benchmark to read), and runs until it is stopped.
     */
    static void serveUntilStopped(EmbeddedServer server, String address) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "embedded-server-stop"));
        System.out.println(address);
        System.out.flush();
        stopped.await();
    }
}
