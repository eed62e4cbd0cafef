package lab.nativeimage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code native-image} command of the GraalVM home that deploy/native/toolchain assembles. GraalVM's own driver is
 * not published to any registry, so this one does the part of its job that Quarkus and library metadata ask for: it
 * turns a native-image command line into a builder JVM (the builder jars from Maven Central) and its image arguments.
 * Anything it does not know ends the build with one line that says so, rather than a silently different image.
 */
public final class Launcher {

    /** The builder's entry point and the module that holds it. */
    private static final String BUILDER_MAIN = "org.graalvm.nativeimage.builder/com.oracle.svm.hosted.NativeImageGeneratorRunner";

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (UsageError e) {
            System.err.println("native-image: " + e.getMessage());
            System.exit(2);
        }
    }

    static int run(String[] args) {
        // bin/native-image runs on the home's own JDK; lab.graalvm.home names another home (tests of the launcher)
        Home home = Home.of(Path.of(System.getProperty("lab.graalvm.home", System.getProperty("java.home"))));
        Request request = new Request();
        request.parse(new ArrayDeque<>(List.of(args)), null);
        if (request.version) {
            home.printVersion();
            return 0;
        }
        if (request.help) {
            System.out.println(USAGE);
            return 0;
        }
        List<String> command = request.builderCommand(home);
        if (request.verbose || request.dryRun) {
            System.err.println(String.join(" \\\n  ", command));
        }
        if (request.dryRun) {
            return 0;
        }
        return home.runBuilder(command);
    }

    static final String USAGE = """
            Usage: native-image [options] -jar JAR [NAME]
                   native-image [options] -cp PATH MAINCLASS [NAME]
            The options of GraalVM's native-image that Quarkus and library metadata use (see deploy/native/README.md):
            -J<jvm option>, -D<property>, -H:<builder option>, -R:<runtime option>, -o NAME, --exclude-config JAR RES,
            --version, --verbose, --dry-run, and the translated options listed in Launcher.API_OPTIONS.""";

    /** A command line option this launcher cannot honour: the build stops with this one line. */
    static final class UsageError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageError(String message) {
            super(message);
        }
    }

    /**
     * A native-image option that the builder knows by another name (GraalVM's "API options"), e.g. --no-fallback for
     * -H:FallbackThreshold=0. {@code value} is what an option without a value of its own stands for (null: a value is
     * required); {@code suffix} is appended to each comma-separated item (class initialization policies).
     */
    record ApiOption(String builderOption, String value, String suffix) {
        static ApiOption flag(String builderOption) {
            return new ApiOption(builderOption, "", "");
        }

        static ApiOption fixed(String builderOption, String value) {
            return new ApiOption(builderOption, value, "");
        }

        static ApiOption valued(String builderOption) {
            return new ApiOption(builderOption, null, "");
        }

        /** The builder's option for this API option given {@code given} (null: given without a value). */
        String translate(String name, String given) {
            if (builderOption.startsWith("+") || builderOption.startsWith("-")) {
                if (given != null) {
                    throw new UsageError(name + " takes no value");
                }
                return "-H:" + builderOption;
            }
            String v = given != null ? given : value;
            if (v == null) {
                throw new UsageError(name + " needs a value (" + name + "=...)");
            }
            if (!suffix.isEmpty()) {
                v = v.isEmpty() ? suffix : Stream.of(v.split(",")).map(item -> item + suffix)
                        .reduce((a, b) -> a + "," + b).orElseThrow();
            }
            return "-H:" + builderOption + "=" + v;
        }
    }

    /** The API options, by name, with the builder options they stand for (GraalVM 25's @APIOption annotations). */
    static final Map<String, ApiOption> API_OPTIONS = Map.ofEntries(
            Map.entry("--features", ApiOption.valued("Features")),
            Map.entry("--no-fallback", ApiOption.fixed("FallbackThreshold", "0")),
            Map.entry("--link-at-build-time", ApiOption.fixed("LinkAtBuildTime", "")),
            Map.entry("--link-at-build-time-paths", ApiOption.valued("LinkAtBuildTimePaths")),
            Map.entry("--initialize-at-build-time", new ApiOption("ClassInitialization", "", ":build_time")),
            Map.entry("--initialize-at-run-time", new ApiOption("ClassInitialization", "", ":run_time")),
            Map.entry("--enable-url-protocols", ApiOption.valued("EnableURLProtocols")),
            Map.entry("--enable-http", ApiOption.fixed("EnableURLProtocols", "http")),
            Map.entry("--enable-https", ApiOption.fixed("EnableURLProtocols", "https")),
            Map.entry("--enable-monitoring", ApiOption.fixed("EnableMonitoringFeatures", "<deprecated-default>")),
            Map.entry("--enable-native-access", ApiOption.valued("EnableNativeAccess")),
            Map.entry("--enable-all-security-services", ApiOption.flag("+EnableAllSecurityServices")),
            Map.entry("--install-exit-handlers", ApiOption.flag("+InstallExitHandlers")),
            Map.entry("--strict-image-heap", ApiOption.flag("+StrictImageHeap")),
            Map.entry("--report-unsupported-elements-at-runtime", ApiOption.flag("+ReportUnsupportedElementsAtRuntime")),
            Map.entry("--allow-incomplete-classpath", ApiOption.flag("+AllowIncompleteClasspath")),
            Map.entry("--exact-reachability-metadata", ApiOption.fixed("ThrowMissingRegistrationErrors", "")),
            Map.entry("--native-compiler-options", ApiOption.valued("CCompilerOption")),
            Map.entry("--native-image-info", ApiOption.flag("+DumpTargetInfo")),
            Map.entry("--parallelism", ApiOption.valued("NumberOfThreads")),
            Map.entry("--silent", ApiOption.flag("+BuildOutputSilent")),
            Map.entry("--color", ApiOption.valued("Color")),
            Map.entry("-march", ApiOption.valued("MicroArchitecture")),
            Map.entry("-g", ApiOption.fixed("GenerateDebugInfo", "2")));

    /** What one native-image command line asks for. */
    static final class Request {
        final List<String> javaArgs = new ArrayList<>();
        final List<String> builderArgs = new ArrayList<>();
        final LinkedHashSet<Path> classpath = new LinkedHashSet<>();
        final List<Pattern[]> excludedConfigs = new ArrayList<>();
        final List<String> positional = new ArrayList<>();
        Path jar;
        String name;
        String mainClass;
        boolean version;
        boolean help;
        boolean verbose;
        boolean dryRun;

        /** Consumes {@code args}; {@code origin} is the native-image.properties they come from (null: the command line). */
        void parse(Deque<String> args, String origin) {
            while (!args.isEmpty()) {
                String arg = args.poll();
                switch (arg) {
                    case "--version" -> version = true;
                    case "--help", "-h" -> help = true;
                    case "--verbose" -> verbose = true;
                    case "--dry-run" -> dryRun = true;
                    case "-cp", "-classpath", "--class-path" -> addClasspath(required(args, arg));
                    case "-jar" -> jar = Path.of(required(args, arg)).toAbsolutePath().normalize();
                    case "-o" -> name = required(args, arg);
                    case "--exclude-config" -> excludedConfigs.add(new Pattern[] {Pattern.compile(required(args, arg)),
                            Pattern.compile(required(args, arg))});
                    default -> parseOne(arg, origin);
                }
            }
        }

        private void parseOne(String arg, String origin) {
            if (arg.startsWith("-J")) {
                javaArgs.add(arg.substring(2));
            } else if (arg.startsWith("-D")) {
                javaArgs.add(arg);
            } else if (arg.startsWith("-H:") || arg.startsWith("-R:")) {
                builderArgs.add(withOrigin(arg, origin));
            } else if (arg.startsWith("--class-path=")) {
                addClasspath(arg.substring("--class-path=".length()));
            } else if (arg.startsWith("-O") && arg.length() > 2) {
                builderArgs.add("-H:Optimize=" + arg.substring(2));
            } else if (arg.startsWith("-")) {
                int eq = arg.indexOf('=');
                String optionName = eq < 0 ? arg : arg.substring(0, eq);
                String value = eq < 0 ? null : arg.substring(eq + 1);
                ApiOption option = API_OPTIONS.get(optionName);
                if (optionName.equals("--gc")) {
                    builderArgs.add(garbageCollector(value));
                } else if (option != null) {
                    builderArgs.add(withOrigin(option.translate(optionName, value), origin));
                } else {
                    throw new UsageError("unknown option " + optionName + (origin == null ? "" : " (from " + origin + ")")
                            + "; pass the builder's own option as -H:<name>=<value>");
                }
            } else {
                positional.add(arg);
            }
        }

        /** Serial and Epsilon are the collectors of GraalVM Community (G1 is Oracle GraalVM's). */
        private static String garbageCollector(String value) {
            return switch (value == null ? "" : value) {
                case "serial" -> "-H:+UseSerialGC";
                case "epsilon" -> "-H:+UseEpsilonGC";
                default -> throw new UsageError("--gc=" + value + ": GraalVM Community has --gc=serial and --gc=epsilon");
            };
        }

        /** GraalVM's notation for where a builder option came from: -H:Name@origin=value, -H:+Name@origin. */
        private static String withOrigin(String option, String origin) {
            if (origin == null || !option.startsWith("-H:")) {
                return option;
            }
            int eq = option.indexOf('=');
            return eq < 0 ? option + "@" + origin : option.substring(0, eq) + "@" + origin + option.substring(eq);
        }

        private void addClasspath(String path) {
            for (String entry : path.split(java.io.File.pathSeparator)) {
                classpath.add(Path.of(entry.isEmpty() ? "." : entry).toAbsolutePath().normalize());
            }
        }

        private static String required(Deque<String> args, String option) {
            String value = args.poll();
            if (value == null) {
                throw new UsageError(option + " needs an argument");
            }
            return value;
        }

        /** The builder JVM's command line: java, its options, the builder's module, then the image arguments. */
        List<String> builderCommand(Home home) {
            List<String> imageArgs = new ArrayList<>();
            readJarManifest(imageArgs);
            if (jar == null) {
                if (positional.isEmpty()) {
                    throw new UsageError("no main class and no -jar: nothing to build (see native-image --help)");
                }
                mainClass = positional.remove(0);
            }
            if (positional.size() > 1) {
                throw new UsageError("unexpected arguments " + positional.subList(1, positional.size()));
            }
            if (!positional.isEmpty()) {
                name = positional.get(0);
            }
            if (classpath.isEmpty()) {
                classpath.add(Path.of(".").toAbsolutePath().normalize());
            }
            for (Path entry : List.copyOf(classpath)) {
                MetaInf.process(entry, this, imageArgs);
            }
            Path output = Path.of(name == null ? defaultName() : name).toAbsolutePath().normalize();

            List<String> command = new ArrayList<>(home.builderJvmArgs(javaArgs));
            command.add("-m");
            command.add(BUILDER_MAIN);
            command.add("-keepalive");
            command.add("/proc/" + ProcessHandle.current().pid() + "/comm");
            command.add("-imagecp");
            command.add(String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList()));
            // The builder would otherwise fall back to a JVM launcher image, which needs the driver: say why instead.
            command.add("-H:FallbackThreshold=0");
            command.add("-H:CLibraryPath=" + home.dir().resolve("lib/svm/clibraries/linux-amd64"));
            command.add("-H:Path=" + output.getParent());
            command.add("-H:Name=" + output.getFileName());
            if (mainClass != null) {
                command.add("-H:Class=" + mainClass);
            }
            command.add("-H:ImageBuildID=" + UUID.randomUUID());
            command.addAll(imageArgs);
            command.addAll(builderArgs);
            return command;
        }

        private String defaultName() {
            if (jar != null) {
                return jar.getFileName().toString().replaceFirst("\\.jar$", "");
            }
            return mainClass.toLowerCase(java.util.Locale.ROOT);
        }

        /** -jar: the manifest's main class, class path and module attributes, as GraalVM's driver reads them. */
        private void readJarManifest(List<String> imageArgs) {
            if (jar == null) {
                return;
            }
            try (JarFile file = new JarFile(jar.toFile())) {
                Attributes main = file.getManifest() == null ? null : file.getManifest().getMainAttributes();
                if (main == null || main.getValue("Main-Class") == null) {
                    throw new UsageError("no Main-Class in the manifest of " + jar);
                }
                mainClass = main.getValue("Main-Class");
                classpath.add(jar);
                String manifestClasspath = main.getValue("Class-Path");
                if (manifestClasspath != null) {
                    for (String entry : manifestClasspath.trim().split("\\s+")) {
                        classpath.add(jar.getParent().resolve(entry).normalize());
                    }
                }
                addModuleAccess(main.getValue("Add-Opens"), "AddOpens", imageArgs);
                addModuleAccess(main.getValue("Add-Exports"), "AddExports", imageArgs);
            } catch (IOException e) {
                throw new UsageError("cannot read " + jar + ": " + e.getMessage());
            }
        }

        private static void addModuleAccess(String value, String option, List<String> imageArgs) {
            if (value != null) {
                for (String modulePackage : value.trim().split("\\s+")) {
                    imageArgs.add("-H:" + option + "=" + modulePackage + "=ALL-UNNAMED");
                }
            }
        }

        boolean excluded(Path entry, String resource) {
            return excludedConfigs.stream().anyMatch(p -> p[0].matcher(entry.toString()).find()
                    && p[1].matcher(resource).find());
        }
    }

    /**
     * The META-INF/native-image folders of the class path: native-image.properties (more arguments) and the
     * configuration files, which the builder reads as resources once it is told their names.
     */
    static final class MetaInf {
        private static final String ROOT = "META-INF/native-image/";
        private static final Map<String, String> CONFIGURATION_OPTIONS = Map.of(
                "reachability-metadata.json", "ReachabilityMetadataResources",
                "reflect-config.json", "ReflectionConfigurationResources",
                "resource-config.json", "ResourceConfigurationResources",
                "jni-config.json", "JNIConfigurationResources",
                "proxy-config.json", "DynamicProxyConfigurationResources",
                "serialization-config.json", "SerializationConfigurationResources",
                "serialization-deny-config.json", "SerializationDenyConfigurationResources",
                "predefined-classes-config.json", "PredefinedClassesConfigurationResources");

        static void process(Path entry, Request request, List<String> imageArgs) {
            for (String resource : resources(entry)) {
                if (request.excluded(entry, "/" + resource)) {
                    continue;
                }
                String fileName = resource.substring(resource.lastIndexOf('/') + 1);
                String origin = origin(entry, resource);
                if (fileName.equals("native-image.properties")) {
                    Properties properties = load(entry, resource);
                    String imageName = properties.getProperty("ImageName");
                    if (imageName != null && request.name == null) {
                        request.name = imageName.trim();
                    }
                    for (String javaArg : words(properties.getProperty("JavaArgs"), origin)) {
                        request.javaArgs.add(javaArg);
                    }
                    request.parse(new ArrayDeque<>(words(properties.getProperty("Args"), origin)), origin);
                } else if (CONFIGURATION_OPTIONS.containsKey(fileName)) {
                    imageArgs.add("-H:" + CONFIGURATION_OPTIONS.get(fileName) + "@" + origin + "+api=" + resource);
                }
            }
        }

        private static List<String> words(String value, String origin) {
            if (value == null || value.isBlank()) {
                return List.of();
            }
            if (value.contains("${")) {
                throw new UsageError("substitutions (${...}) in " + origin + " are not supported by this launcher");
            }
            return List.of(value.trim().split("\\s+"));
        }

        private static String origin(Path entry, String resource) {
            return Files.isDirectory(entry) ? entry.resolve(resource).toUri().toString()
                    : "jar:" + entry.toUri() + "!/" + resource;
        }

        private static List<String> resources(Path entry) {
            try {
                if (Files.isDirectory(entry)) {
                    Path root = entry.resolve(ROOT);
                    if (!Files.isDirectory(root)) {
                        return List.of();
                    }
                    try (Stream<Path> files = Files.walk(root)) {
                        return files.filter(Files::isRegularFile).map(p -> entry.relativize(p).toString()).sorted().toList();
                    }
                }
                if (!Files.isRegularFile(entry)) {
                    return List.of();
                }
                try (JarFile file = new JarFile(entry.toFile())) {
                    return file.stream().map(java.util.zip.ZipEntry::getName)
                            .filter(n -> n.startsWith(ROOT) && !n.endsWith("/")).sorted().toList();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + entry, e);
            }
        }

        private static Properties load(Path entry, String resource) {
            Properties properties = new Properties();
            try {
                if (Files.isDirectory(entry)) {
                    try (InputStream in = Files.newInputStream(entry.resolve(resource))) {
                        properties.load(in);
                    }
                } else {
                    try (JarFile file = new JarFile(entry.toFile()); InputStream in = file.getInputStream(file.getEntry(resource))) {
                        properties.load(in);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + resource + " in " + entry, e);
            }
            return properties;
        }
    }

    /** The GraalVM home: a JDK 25 with the builder's jars in lib/svm/builder and its C libraries in lib/svm/clibraries. */
    record Home(Path dir, Properties release) {
        static Home of(Path dir) {
            Properties release = new Properties();
            Path file = dir.resolve("lib/svm/toolchain.properties");
            try (InputStream in = Files.newInputStream(file)) {
                release.load(in);
            } catch (IOException e) {
                throw new UsageError(file + " is missing: run deploy/native/toolchain again");
            }
            return new Home(dir, release);
        }

        String builderVersion() {
            return release.getProperty("builder.version");
        }

        void printVersion() {
            String jdk = Runtime.version().toString();
            String vendor = "GraalVM CE " + builderVersion() + "+lab (assembled by deploy/native/toolchain)";
            System.out.println("native-image " + builderVersion() + " " + System.getProperty("java.version.date"));
            System.out.println("GraalVM Runtime Environment " + vendor + " (build " + jdk + ")");
            System.out.println("Substrate VM " + vendor + " (build " + jdk + ", serial gc)");
        }

        /**
         * The builder JVM's options. The fixed ones are what GraalVM's driver gives every builder (JVMCI on, the
         * builder's own class loader, lambdas and method handles left for the AOT compiler); the package exports are
         * computed by the toolchain from the builder jars (jdeps). {@code javaArgs} (-J, -D) come last and win.
         */
        List<String> builderJvmArgs(List<String> javaArgs) {
            Path builder = dir.resolve("lib/svm/builder");
            List<String> modules;
            try (Stream<Path> jars = Files.list(builder)) {
                modules = jars.map(Path::toString).filter(p -> p.endsWith(".jar")).sorted().toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String compiler = modules.stream().filter(p -> p.contains("/compiler-")).findFirst()
                    .orElseThrow(() -> new UsageError("no compiler jar in " + builder + ": run deploy/native/toolchain again"));
            List<String> args = new ArrayList<>(List.of(dir.resolve("bin/java").toString(),
                    "-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "-XX:-UseJVMCICompiler",
                    "@" + dir.resolve("lib/svm/builder-exports.args"),
                    "-Dtruffle.TrustAllTruffleRuntimeProviders=true",
                    "-Dtruffle.TruffleRuntime=com.oracle.truffle.api.impl.DefaultTruffleRuntime",
                    "-Dgraalvm.ForcePolyglotInvalid=true", "-Dgraalvm.locatorDisabled=true",
                    "-Dsubstratevm.HostLibC=glibc", "-Xss10m", "-Xshare:off",
                    "-XX:+UseParallelGC", "-XX:GCTimeRatio=9", "-XX:+ExitOnOutOfMemoryError",
                    "-Djava.awt.headless=true",
                    "-Dorg.graalvm.vendor=GraalVM Community", "-Dorg.graalvm.vendorurl=https://www.graalvm.org/",
                    "-Dorg.graalvm.vendorversion=GraalVM CE " + builderVersion(),
                    "-Dorg.graalvm.version=" + builderVersion(), "-Dcom.oracle.graalvm.isaot=true",
                    "-Djava.system.class.loader=com.oracle.svm.hosted.NativeImageSystemClassLoader",
                    "-Dorg.graalvm.nativeimage.imagecode=buildtime",
                    "-Djdk.internal.lambda.disableEagerInitialization=true",
                    "-Djdk.internal.lambda.eagerlyInitialize=false",
                    "-Djava.lang.invoke.InnerClassLambdaMetafactory.initializeLambdas=false",
                    "-Djava.lang.invoke.MethodHandle.DONT_INLINE_THRESHOLD=-1",
                    "-Djava.lang.invoke.MethodHandle.PROFILE_GWT=false"));
            if (javaArgs.stream().noneMatch(a -> a.startsWith("-Xmx") || a.startsWith("-XX:MaxRAMPercentage"))) {
                args.add("-XX:MaxRAMPercentage=" + release.getProperty("builder.max-ram-percentage", "60"));
            }
            args.addAll(javaArgs);
            args.add("--add-modules=ALL-DEFAULT");
            args.add("--enable-native-access=ALL-UNNAMED," + release.getProperty("builder.modules"));
            args.add("--upgrade-module-path");
            args.add(compiler);
            args.add("--module-path");
            args.add(String.join(java.io.File.pathSeparator, modules.stream().filter(p -> !p.equals(compiler)).toList()));
            return args;
        }

        int runBuilder(List<String> command) {
            ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
            pb.environment().put("USE_NATIVE_IMAGE_JAVA_PLATFORM_MODULE_SYSTEM", "true");
            try {
                Process builder = pb.start();
                Runtime.getRuntime().addShutdownHook(new Thread(builder::destroy));
                return builder.waitFor();
            } catch (IOException e) {
                throw new UsageError("cannot start " + command.get(0) + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 130;
            }
        }
    }

    private Launcher() {
    }
}
