package io.concurrencylab.observability;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What the benchmark's sampler reads besides the queues and pools (which the starvation and pool tests cover). */
@QuarkusTest
class SaturationMetricsTest {

    private static final Pattern JIT_TIME = Pattern.compile(
            "^jvm_compilation_time_ms_total\\{[^}]*} ([0-9.E+-]+)$", Pattern.MULTILINE);

    @Test
    void theSaturationRouteServesTheTimeTheJitHasCompiled() {
        String scrape = given().when().get(SaturationMetrics.PATH).then().statusCode(200).extract().asString();
        Matcher time = JIT_TIME.matcher(scrape);
        assertTrue(time.find(), scrape);
        // a started Quarkus app has compiled for a while: the warm-up reads the counter growing, never absent or 0
        assertTrue(Double.parseDouble(time.group(1)) > 0, time.group());
    }

    @Test
    void theSaturationRouteServesWhatASoakWatchesGrow() {
        String scrape = given().when().get(SaturationMetrics.PATH).then().statusCode(200).extract().asString();
        Matcher meters = Pattern.compile("^lab_meters(?:\\{[^}]*})? ([0-9.E+-]+)$", Pattern.MULTILINE).matcher(scrape);
        assertTrue(meters.find(), scrape);
        // the registry holds the JVM's, the pools' and the HTTP server's meters at least, this very series among them
        assertTrue(Double.parseDouble(meters.group(1)) > 10, meters.group());
        assertTrue(scrape.contains("jvm_memory_used_bytes{area=\"heap\""), scrape);
        assertTrue(scrape.contains("jvm_gc_live_data_size_bytes"), scrape);
        assertTrue(scrape.contains("lab_gc_time_seconds_total"), scrape);
    }
}
