package io.concurrencylab.observability;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.PromQlNames;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The deployed lab's dashboard and recording rules read only metrics that exist: every name in their PromQL is served
 * by the app's /q/metrics after requests on every model, recorded by one of the rules, or one of the k6 and kubelet
 * names listed in deploy/monitoring/external-metrics.txt. promtool (deploy/validate.sh) checks that the PromQL parses.
 */
@QuarkusTest
class DashboardMetricsTest {

    static final Path DASHBOARD = Path.of("deploy/monitoring/dashboard.json");
    static final Path RULES = Path.of("deploy/k8s/overlays/jvm-monitored/prometheusrule.yaml");
    static final Path EXTERNAL = Path.of("deploy/monitoring/external-metrics.txt");

    @Test
    void everyMetricTheDashboardAndTheRulesReadExists() throws IOException {
        for (String model : Models.ALL) {
            given().auth().oauth2(Tokens.rs256("user7@example.com")).get("/{model}/users/me", model)
                    .then().statusCode(200);
            given().get("/{model}/users/7/aggregate", model).then().statusCode(200);
        }
        Set<String> known = new TreeSet<>(served(given().get("/q/metrics").then().statusCode(200).extract().asString()));
        JsonNode rules = new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile());
        List<String> expressions = new ArrayList<>();
        for (JsonNode group : rules.at("/spec/groups")) {
            for (JsonNode rule : group.get("rules")) {
                known.add(rule.get("record").asText());
                expressions.add(rule.get("expr").asText());
            }
        }
        for (JsonNode panel : new ObjectMapper().readTree(DASHBOARD.toFile()).get("panels")) {
            panel.path("targets").forEach(target -> expressions.add(target.get("expr").asText()));
        }
        Files.readAllLines(EXTERNAL).stream().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .forEach(known::add);

        assertTrue(expressions.size() >= 20, "expressions read: " + expressions.size());
        List<String> missing = expressions.stream()
                .flatMap(expression -> PromQlNames.of(expression).stream()
                        .filter(name -> !known.contains(name)).map(name -> name + " in " + expression.strip()))
                .toList();
        assertEquals(List.of(), missing);
    }

    @Test
    void theNamesOfAnExpressionAreItsMetricsOnly() {
        assertEquals(Set.of("lab:http_requests:rate1m", "http_server_requests_seconds_count", "system_cpu_count"),
                PromQlNames.of("sum by (model) (label_replace(rate(http_server_requests_seconds_count{uri=~\"/(a|b)/.*\","
                        + " outcome!=\"x\"}[$__rate_interval]), \"model\", \"$1\", \"uri\", \"/(a)\")) / on (pod) "
                        + "group_left system_cpu_count + 1e3 * lab:http_requests:rate1m offset 5m"));
    }

    /** The names in the Prometheus text format, with the _count, _sum, _max and _bucket series of each. */
    private static Set<String> served(String metrics) {
        return metrics.lines().filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
    }
}
