package io.concurrencylab;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The twins stay twins. The blocking models' resources (virtual's, worker's) are whole copies, see
 * virtual/package-info.java, that differ only in their concurrency idiom; the shared packages' blocking and reactive
 * classes come in pairs, {@code BlockingX} beside {@code ReactiveX}.
 */
class TwinsTest {

    static final Path SOURCES = Path.of("src/main/java/io/concurrencylab");

    /**
     * How each blocking model writes its concurrency idiom in its resources, and what that is: the annotation that
     * puts a request on the model's thread, and the executor of the parallel branches. Package, route and Model
     * constant are the model's own in every model.
     */
    static final Map<Model, List<Map.Entry<String, String>>> IDIOMS = Map.of(
            Model.VIRTUAL, List.of(
                    Map.entry("import io.smallrye.common.annotation.RunOnVirtualThread;\n", "import {annotation};\n"),
                    Map.entry("@RunOnVirtualThread\n", "@{annotation}\n"),
                    Map.entry("import io.quarkus.virtual.threads.VirtualThreads;\n", ""),
                    Map.entry("import java.util.concurrent.ExecutorService;\n", ""),
                    Map.entry("@VirtualThreads ExecutorService branches", "{branch executor} branches"),
                    Map.entry("ExecutorService branches;", "{branch executor} branches;")),
            Model.WORKER, List.of(
                    Map.entry("import io.smallrye.common.annotation.Blocking;\n", "import {annotation};\n"),
                    Map.entry("@Blocking\n", "@{annotation}\n"),
                    Map.entry("BranchExecutor branches", "{branch executor} branches")));

    /** A class's comment: a Javadoc block that starts the line, as no member's does. */
    static final Pattern CLASS_COMMENT = Pattern.compile("(?ms)^/\\*\\*.*?\\*/\n");

    @Test
    void theBlockingModelsResourcesDifferOnlyInTheirConcurrencyIdiom() throws IOException {
        List<Model> blocking = Arrays.stream(Model.values())
                .filter(model -> model.runsOn() != Model.RequestThread.EVENT_LOOP).toList();
        assertEquals(blocking, blocking.stream().filter(IDIOMS::containsKey).toList(),
                "the blocking models whose idiom TwinsTest.IDIOMS says");
        Model reference = blocking.get(0);
        List<String> resources = resources(reference);
        assertTrue(resources.size() >= 3, "resources compared: " + resources);
        Set<String> idiomsSeen = new HashSet<>();
        List<Executable> comparisons = new ArrayList<>();
        for (Model model : blocking.subList(1, blocking.size())) {
            assertEquals(resources, resources(model), "the resources of " + reference.path() + " and " + model.path());
            for (String resource : resources) {
                String expected = inGeneral(reference, resource, idiomsSeen);
                String actual = inGeneral(model, resource, idiomsSeen);
                comparisons.add(() -> assertEquals(expected, actual, () -> model.path() + "/" + resource
                        + " differs from " + reference.path() + "/" + resource + " in more than the idiom, first "
                        + firstDifference(expected, actual)));
            }
        }
        assertAll(comparisons);
        // Every way of writing an idiom that the list knows is one a resource uses: the list says no more than that.
        IDIOMS.forEach((model, idiom) -> assertEquals(List.of(), idiom.stream().map(Map.Entry::getKey)
                .filter(written -> !idiomsSeen.contains(written)).toList(), model + "'s idiom not written anywhere"));
    }

    @Test
    void everyBlockingClassHasItsReactiveTwinBesideIt() throws IOException {
        List<String> unpaired = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                String twin = name.startsWith("Blocking") ? "Reactive" + name.substring("Blocking".length())
                        : name.startsWith("Reactive") ? "Blocking" + name.substring("Reactive".length()) : null;
                if (twin != null && !Files.exists(file.resolveSibling(twin))) {
                    unpaired.add(SOURCES.relativize(file) + " has no " + twin + " beside it");
                }
            }
        }
        assertEquals(List.of(), unpaired);
    }

    private static List<String> resources(Model model) throws IOException {
        try (Stream<Path> files = Files.list(SOURCES.resolve(model.path()))) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith("Resource.java"))
                    .sorted().toList();
        }
    }

    /** A model's resource without its class comment, its package, route, Model constant and idiom made placeholders. */
    private static String inGeneral(Model model, String resource, Set<String> idiomsSeen) throws IOException {
        String source = CLASS_COMMENT.matcher(Files.readString(SOURCES.resolve(model.path()).resolve(resource)))
                .replaceAll("")
                .replace("package io.concurrencylab." + model.path() + ";", "package io.concurrencylab.{model};")
                .replace("@Path(\"/" + model.path(), "@Path(\"/{model}")
                .replace("Model." + model.name(), "Model.{MODEL}");
        for (Map.Entry<String, String> written : IDIOMS.get(model)) {
            if (source.contains(written.getKey())) {
                idiomsSeen.add(written.getKey());
                source = source.replace(written.getKey(), written.getValue());
            }
        }
        return source;
    }

    private static String firstDifference(String expected, String actual) {
        List<String> a = expected.lines().toList();
        List<String> b = actual.lines().toList();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return "'" + b.get(i).strip() + "' where the reference has '" + a.get(i).strip() + "'";
            }
        }
        return "at the end: one has more lines";
    }
}
