package io.concurrencylab.support;

import static io.restassured.RestAssured.given;

import java.util.Arrays;

/** Reads the application's Prometheus metrics (/q/metrics) the way a scraper would. */
public final class Metrics {

    private Metrics() {
    }

    /** The sum of every series of the metric whose labels include all the given {@code name="value"} pairs. */
    public static double sum(String metric, String... labels) {
        return given().accept("text/plain").get("/q/metrics").asString().lines()
                .filter(line -> line.startsWith(metric + "{"))
                .filter(line -> Arrays.stream(labels).allMatch(label -> line.contains(label)))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** Requests the downstream service answered so far (it runs in the app itself): base, detail and extra. */
    public static double downstreamCalls() {
        return sum("http_server_requests_seconds_count", "uri=\"/downstream/");
    }
}
