package io.concurrencylab;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The twins stay twins. The virtual and the worker model's resources are whole copies (see virtual/package-info.java)
 * that differ only in their concurrency idiom; the shared packages' blocking and reactive classes come in pairs,
 * {@code BlockingX} beside {@code ReactiveX}.
 */
class TwinsTest {

    static final Path SOURCES = Path.of("src/main/java/io/concurrencylab");
    static final Path VIRTUAL = SOURCES.resolve("virtual");
    static final Path WORKER = SOURCES.resolve("worker");

    /**
     * Everything a worker resource may write otherwise than its virtual twin, as the virtual one writes it and as the
     * worker one does: the package and route, the annotation, the executor of the parallel branches.
     */
    static final List<Map.Entry<String, String>> IDIOM = List.of(
            Map.entry("package io.concurrencylab.virtual;", "package io.concurrencylab.worker;"),
            Map.entry("@Path(\"/virtual", "@Path(\"/worker"),
            Map.entry("Model.VIRTUAL", "Model.WORKER"),
            Map.entry("import io.smallrye.common.annotation.RunOnVirtualThread;",
                    "import io.smallrye.common.annotation.Blocking;"),
            Map.entry("@RunOnVirtualThread\n", "@Blocking\n"),
            Map.entry("import io.quarkus.virtual.threads.VirtualThreads;\n", ""),
            Map.entry("import java.util.concurrent.ExecutorService;\n", ""),
            Map.entry("private final ExecutorService branches;", "private final BranchExecutor branches;"),
            Map.entry("@VirtualThreads ExecutorService branches", "BranchExecutor branches"));

    /** A class's comment: a Javadoc block that starts the line, as no member's does. */
    static final Pattern CLASS_COMMENT = Pattern.compile("(?ms)^/\\*\\*.*?\\*/\n");

    @Test
    void theVirtualAndWorkerResourcesDifferOnlyInTheirConcurrencyIdiom() throws IOException {
        List<String> resources = resources(VIRTUAL);
        assertEquals(resources, resources(WORKER), "the resources of " + VIRTUAL + " and " + WORKER);
        assertTrue(resources.size() >= 3, "resources compared: " + resources);
        List<String> idiomsSeen = new ArrayList<>();
        List<Executable> comparisons = new ArrayList<>();
        for (String resource : resources) {
            String asWorker = withoutClassComment(VIRTUAL.resolve(resource));
            for (Map.Entry<String, String> difference : IDIOM) {
                if (asWorker.contains(difference.getKey())) {
                    idiomsSeen.add(difference.getKey());
                    asWorker = asWorker.replace(difference.getKey(), difference.getValue());
                }
            }
            String expected = asWorker;
            String worker = withoutClassComment(WORKER.resolve(resource));
            comparisons.add(() -> assertEquals(expected, worker, () -> WORKER.resolve(resource) + " differs from "
                    + VIRTUAL.resolve(resource) + " in more than the idiom, first "
                    + firstDifference(expected, worker)));
        }
        assertAll(comparisons);
        // Every difference allowed is one the copies make: the list says what the idiom is, nothing more.
        assertEquals(IDIOM.stream().map(Map.Entry::getKey).toList(),
                IDIOM.stream().map(Map.Entry::getKey).filter(idiomsSeen::contains).toList());
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

    private static List<String> resources(Path model) throws IOException {
        try (Stream<Path> files = Files.list(model)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith("Resource.java"))
                    .sorted().toList();
        }
    }

    private static String withoutClassComment(Path source) throws IOException {
        return CLASS_COMMENT.matcher(Files.readString(source)).replaceAll("");
    }

    private static String firstDifference(String expected, String actual) {
        List<String> a = expected.lines().toList();
        List<String> b = actual.lines().toList();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return "'" + b.get(i).strip() + "' where the virtual twin has '" + a.get(i).strip() + "'";
            }
        }
        return "at the end: one has more lines";
    }
}
