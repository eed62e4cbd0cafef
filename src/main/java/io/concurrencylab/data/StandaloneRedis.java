package io.concurrencylab.data;

/**
 * The embedded Redis as a process of its own, for the benchmark and for running several app processes that share one
 * remote cache tier ({@code ./mvnw -q exec:exec@redis}). Prints the URL for {@code quarkus.redis.hosts} on its first
 * line of standard output and runs until it is stopped.
 */
public final class StandaloneRedis {

    public static void main(String[] args) throws InterruptedException {
        EmbeddedRedis redis = EmbeddedRedis.start();
        EmbeddedServer.serveUntilStopped(redis, EmbeddedRedis.url(redis.port()));
    }
}
