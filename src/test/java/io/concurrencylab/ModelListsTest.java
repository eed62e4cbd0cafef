package io.concurrencylab;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.concurrencylab.support.Models;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Every list of the models outside Java names the models of {@link Model}, in its order: the bench's, the k6 scripts',
 * the image smoke test's, and the monitoring's (the recording rules take the model from the URI by an alternation of
 * the models; the dashboard names them in its title and description). A failure names the file that disagrees.
 */
class ModelListsTest {

    static final Path BENCH = Path.of("bench/benchlab/model.py");
    static final Path K6 = Path.of("k6/lib/config.js");
    static final Path IMAGE_SMOKE_TEST = Path.of("deploy/images/jib-smoke.sh");
    static final Path RULES = Path.of("deploy/k8s/overlays/jvm-monitored/prometheusrule.yaml");
    static final Path DASHBOARD = Path.of("deploy/monitoring/dashboard.json");

    /** A model's name between quotes, in a Python tuple or a JavaScript array. */
    static final Pattern QUOTED = Pattern.compile("[\"']([^\"']*)[\"']");
    /** {@code /(virtual|worker|reactive)/} in a PromQL regular expression on the URI. */
    static final Pattern URI_ALTERNATION = Pattern.compile("/\\(([^)]*\\|[^)]*)\\)/");

    @Test
    void everyListOfTheModelsNamesTheModelsOfModelJava() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<Executable> checks = new ArrayList<>(List.of(
                () -> agrees(BENCH, quoted(theOnly(BENCH, "^MODELS = \\((.*)\\)$"))),
                () -> agrees(K6, quoted(theOnly(K6, "^export const MODELS = \\[(.*)];$"))),
                () -> agrees(IMAGE_SMOKE_TEST, words(theOnly(IMAGE_SMOKE_TEST, "^for model in (.*); do$"))),
                () -> agrees(DASHBOARD + "'s title", inDashboard(dashboard, "title", "^Concurrency Lab: (.*)$")),
                () -> agrees(DASHBOARD + "'s description",
                        inDashboard(dashboard, "description", "^Per model \\(([^)]*)\\)"))));
        Map<String, List<String>> alternations = uriAlternations();
        assertFalse(alternations.isEmpty(), RULES + ": no /(model|...)/ alternation in its expressions");
        alternations.forEach((rule, listed) -> checks.add(() -> agrees(rule, listed)));
        assertAll(checks);
    }

    private static void agrees(Object where, List<String> listed) {
        assertEquals(Models.ALL, listed, where + " lists other models than Model.java");
    }

    /** The group of the one line of the file that matches. */
    private static String theOnly(Path file, String line) throws IOException {
        Pattern pattern = Pattern.compile(line);
        List<Matcher> matches = Files.readAllLines(file).stream().map(pattern::matcher).filter(Matcher::find).toList();
        assertEquals(1, matches.size(), file + ": lines matching " + line);
        return matches.get(0).group(1);
    }

    private static List<String> quoted(String items) {
        return QUOTED.matcher(items).results().map(match -> match.group(1)).toList();
    }

    private static List<String> words(String items) {
        return List.of(items.trim().split("\\s+"));
    }

    /** The comma-separated models in a text of the dashboard. */
    private static List<String> inDashboard(JsonNode dashboard, String field, String regex) {
        String text = dashboard.get(field).asText();
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertTrue(matcher.find(), DASHBOARD + "'s " + field + ": no " + regex + " in '" + text + "'");
        return Arrays.stream(matcher.group(1).split(",")).map(String::trim).toList();
    }

    /** Each {@code /(a|b|c)/} of every recording rule's expression, as [a, b, c], by where it stands. */
    private static Map<String, List<String>> uriAlternations() throws IOException {
        Map<String, List<String>> alternations = new LinkedHashMap<>();
        for (JsonNode group : new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile()).at("/spec/groups")) {
            for (JsonNode rule : group.get("rules")) {
                List<MatchResult> matches = URI_ALTERNATION.matcher(rule.get("expr").asText()).results().toList();
                for (int i = 0; i < matches.size(); i++) {
                    String where = RULES + "'s rule " + rule.get("record").asText() + " (alternation " + (i + 1) + ")";
                    alternations.put(where, List.of(matches.get(i).group(1).split("\\|")));
                }
            }
        }
        return alternations;
    }
}
