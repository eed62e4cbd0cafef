package io.concurrencylab.support;

import static io.restassured.RestAssured.given;

import java.util.Arrays;

/** Reads the application's Prometheus metrics (/q/metrics) the way a scraper would. */
public final class Metrics {

    private Metrics() {
    }

    /** The sum of every series of the metric whose labels include all the given {@code name="value"} pairs. */
    public static double sum(String metric, String... labels) {
        return sumIn(given().accept("text/plain").get("/q/metrics").asString(), metric, labels);
    }

    /** The same, in a scrape already read (a packaged app's). */
    public static double sumIn(String scrape, String metric, String... labels) {
        return scrape.lines()
                .filter(line -> line.startsWith(metric + "{") || line.startsWith(metric + " "))
                .filter(line -> Arrays.stream(labels).allMatch(label -> line.contains(label)))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** Requests the downstream service answered so far (it runs in the app itself): base, detail and extra. */
    public static double downstreamCalls() {
        return sum("http_server_requests_seconds_count", "uri=\"/downstream/");
    }
}
