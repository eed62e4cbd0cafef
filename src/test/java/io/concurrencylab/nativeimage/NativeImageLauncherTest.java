package io.concurrencylab.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.deployment.pkg.steps.GraalVM;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/native/launcher, the native-image command of the assembled GraalVM home, given what Quarkus and library
 * metadata give it: its --dry-run prints the builder command it would run. A home of fake jars is enough for that.
 */
class NativeImageLauncherTest {

    @TempDir
    static Path dir;
    static Path classes;
    static Path home;

    @BeforeAll
    static void compileTheLauncherAndMakeAHome() throws IOException {
        classes = Files.createDirectories(dir.resolve("classes"));
        List<String> sources;
        try (Stream<Path> files = Files.walk(Path.of("deploy/native/launcher"))) {
            sources = files.map(Path::toString).filter(f -> f.endsWith(".java")).toList();
        }
        List<String> args = new ArrayList<>(List.of("-d", classes.toString()));
        args.addAll(sources);
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new)));

        home = dir.resolve("graalvm");
        Files.createDirectories(home.resolve("lib/svm/builder"));
        Files.writeString(home.resolve("lib/svm/toolchain.properties"),
                "builder.version=25.0.2\nbuilder.modules=org.graalvm.nativeimage.builder,jdk.graal.compiler\n");
        for (String jar : List.of("compiler-25.0.2.jar", "svm-25.0.2.jar", "word-25.0.2.jar")) {
            Files.createFile(home.resolve("lib/svm/builder").resolve(jar));
        }
    }

    @Test
    void quarkusReadsItsVersionAsGraalVm25() throws Exception {
        Result result = launch(dir, "--version");
        assertEquals(0, result.exitCode(), result.err());
        GraalVM.Version version = GraalVM.Version.of(result.out().lines());
        assertEquals("25.0.2", version.getVersionAsString());
        assertEquals(Runtime.version().feature(), version.javaVersion.feature());
    }

    @Test
    void aQuarkusRunnerJarBecomesTheBuilderCommandWithItsLibrariesMetadata() throws Exception {
        Path build = Files.createDirectories(dir.resolve("runner"));
        jar(build.resolve("lib/netty.jar"), null, Map.of(
                "META-INF/native-image/io.netty/netty-common/native-image.properties",
                "Args = --initialize-at-run-time=io.netty.A,io.netty.B \\\n  --initialize-at-build-time=io.netty\n",
                "META-INF/native-image/io.netty/netty-common/reflect-config.json", "[]",
                "META-INF/native-image/io.netty/netty-codec/reflect-config.json", "[]"));
        jar(build.resolve("app-runner.jar"), "lib/netty.jar", Map.of("META-INF/native-image/resource-config.json", "{}"));

        Result result = launch(build, "-J-Xmx6g", "--features=io.quarkus.runner.Feature", "--no-fallback",
                "--link-at-build-time", "--enable-url-protocols=http,https", "--enable-native-access=ALL-UNNAMED",
                "--enable-monitoring=heapdump,threaddump", "-H:+UnlockExperimentalVMOptions",
                "-H:+AllowFoldMethods", "--exclude-config", "netty\\.jar", "/META-INF/native-image/io\\.netty/netty-codec/.*",
                "app-runner", "-jar", "app-runner.jar");

        assertEquals(0, result.exitCode(), result.err());
        List<String> command = result.command();
        String nettyProperties = "@jar:" + build.resolve("lib/netty.jar").toUri()
                + "!/META-INF/native-image/io.netty/netty-common/native-image.properties";
        assertTrue(command.contains("-Xmx6g"), command.toString());
        assertFalse(command.stream().anyMatch(a -> a.startsWith("-XX:MaxRAMPercentage")), "-Xmx given: no default");
        assertEquals(List.of("-H:Features=io.quarkus.runner.Feature", "-H:FallbackThreshold=0", "-H:LinkAtBuildTime=",
                "-H:EnableURLProtocols=http,https", "-H:EnableNativeAccess=ALL-UNNAMED",
                "-H:EnableMonitoringFeatures=heapdump,threaddump", "-H:+UnlockExperimentalVMOptions", "-H:+AllowFoldMethods",
                "-H:ClassInitialization" + nettyProperties + "=io.netty.A:run_time,io.netty.B:run_time",
                "-H:ClassInitialization" + nettyProperties + "=io.netty:build_time"),
                command.subList(command.size() - 10, command.size()));
        assertTrue(command.contains("-H:Class=app.Main"), command.toString());
        assertTrue(command.contains("-H:Name=app-runner"), command.toString());
        assertTrue(command.contains("-H:Path=" + build.toAbsolutePath()), command.toString());
        assertTrue(command.contains("-H:AddOpens=java.base/java.lang=ALL-UNNAMED"), "the manifest's Add-Opens");
        assertEquals(build.resolve("app-runner.jar") + ":" + build.resolve("lib/netty.jar"),
                command.get(command.indexOf("-imagecp") + 1));
        assertTrue(command.stream().anyMatch(a -> a.startsWith("-H:ResourceConfigurationResources@")
                && a.endsWith("+api=META-INF/native-image/resource-config.json")), command.toString());
        assertTrue(command.stream().anyMatch(a -> a.endsWith("=META-INF/native-image/io.netty/netty-common/reflect-config.json")));
        assertFalse(command.stream().anyMatch(a -> a.contains("netty-codec")), "--exclude-config left it out");
        assertEquals("org.graalvm.nativeimage.builder/com.oracle.svm.hosted.NativeImageGeneratorRunner",
                command.get(command.indexOf("-m") + 1));
        assertTrue(command.get(command.indexOf("--upgrade-module-path") + 1).endsWith("/compiler-25.0.2.jar"));
    }

    @Test
    void anOptionItDoesNotKnowStopsTheBuildWithOneLine() throws Exception {
        Result result = launch(dir, "--frobnicate=3", "-cp", ".", "Main");
        assertEquals(2, result.exitCode());
        assertEquals("native-image: unknown option --frobnicate; pass the builder's own option as -H:<name>=<value>",
                result.err().strip());
    }

    @Test
    void aLibraryWhoseMetadataAsksForAnUnknownOptionIsNamed() throws Exception {
        Path build = Files.createDirectories(dir.resolve("odd"));
        jar(build.resolve("odd.jar"), null, Map.of("META-INF/native-image/odd/native-image.properties",
                "Args = --enable-preview-of-everything"));
        Result result = launch(build, "-cp", "odd.jar", "Main");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().strip().startsWith("native-image: unknown option --enable-preview-of-everything (from jar:"),
                result.err());
        assertEquals(1, result.err().strip().lines().count(), result.err());
    }

    private record Result(int exitCode, String out, String err) {
        /** --dry-run's builder command: one argument a line on stderr. */
        List<String> command() {
            return err.lines().map(line -> line.strip().replaceFirst(" \\\\$", "")).toList();
        }
    }

    private static Result launch(Path workingDir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dlab.graalvm.home=" + home, "-cp", classes.toString(), "lab.nativeimage.Launcher"));
        if (!List.of(args).contains("--version")) {
            command.add("--dry-run");
        }
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(workingDir.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** A jar with a manifest (main class app.Main and Class-Path classPath, when given) and the given text entries. */
    private static void jar(Path file, String classPath, Map<String, String> entries) throws IOException {
        Files.createDirectories(file.getParent());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (classPath != null) {
            manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "app.Main");
            manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
            manifest.getMainAttributes().putValue("Add-Opens", "java.base/java.lang");
        }
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, manifest)) {
            for (Map.Entry<String, String> entry : entries.entrySet()) {
                jar.putNextEntry(new JarEntry(entry.getKey()));
                jar.write(entry.getValue().getBytes(StandardCharsets.UTF_8));
                jar.closeEntry();
            }
        }
    }
}
