package io.concurrencylab.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod as Kubernetes would run the packaged app: a CPU limit of 0.5 (a CFS quota of 50 ms per the kubelet's 100 ms
 * period, in a cgroup of its own), and a memory limit where one is given. The app joins the groups before it starts,
 * so that the JVM and the executable size themselves for them (one processor; a heap from the memory limit).
 * <p>
 * {@link #create} is the smallest pod the lab answers for: a 128 MB heap, half of a 256 MB pod, and otherwise the
 * settings the app ships with.
 * <p>
 * Making a cgroup needs root and the controllers (cgroup v1's cpu and memory hierarchies, or v2's with them in the
 * root's subtree_control). Without them the test cannot run as a pod lives, and says so in one line.
 */
public final class Pod implements AutoCloseable {

    public static final String HEAP = "128m";
    static final Path CGROUPS = Path.of("/sys/fs/cgroup");
    private static final int PERIOD_US = 100_000;
    private static final int QUOTA_US = PERIOD_US / 2;

    private final List<Path> groups;
    private final List<String> options;

    private Pod(List<Path> groups, List<String> options) {
        this.groups = groups;
        this.options = options;
    }

    /** The smallest pod: 0.5 CPU and a 128 MB heap. */
    public static Pod create(String test) {
        return new Pod(groups(test, 0), List.of("-Xmx" + HEAP));
    }

    /** 0.5 CPU and a memory limit, the heap left to the runtime to size from it. */
    public static Pod limited(String test, long memoryBytes) {
        return new Pod(groups(test, memoryBytes), List.of());
    }

    /** The groups named after the test and this JVM, with the quota set, and the memory limit unless it is 0. */
    private static List<Path> groups(String test, long memoryBytes) {
        String name = test + "-" + ProcessHandle.current().pid();
        try {
            if (Files.isRegularFile(CGROUPS.resolve("cpu").resolve("cpu.cfs_quota_us"))) {
                Path cpu = Files.createDirectories(CGROUPS.resolve("cpu").resolve(name));
                Files.writeString(cpu.resolve("cpu.cfs_period_us"), Integer.toString(PERIOD_US));
                Files.writeString(cpu.resolve("cpu.cfs_quota_us"), Integer.toString(QUOTA_US));
                if (memoryBytes == 0) {
                    return List.of(cpu);
                }
                Path memory = Files.createDirectories(CGROUPS.resolve("memory").resolve(name));
                Files.writeString(memory.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
                return List.of(cpu, memory);
            }
            Path controllers = CGROUPS.resolve("cgroup.subtree_control");
            if (Files.isRegularFile(controllers)) {
                List<String> enabled = List.of(Files.readString(controllers).trim().split(" "));
                if (enabled.contains("cpu") && (memoryBytes == 0 || enabled.contains("memory"))) {
                    Path group = Files.createDirectories(CGROUPS.resolve(name));
                    Files.writeString(group.resolve("cpu.max"), QUOTA_US + " " + PERIOD_US);
                    if (memoryBytes != 0) {
                        Files.writeString(group.resolve("memory.max"), Long.toString(memoryBytes));
                    }
                    return List.of(group);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot make a cgroup of 0.5 CPU under " + CGROUPS + " (" + e
                    + "): a pod is tested as root, on a machine with cpu and memory controllers");
        }
        throw new IllegalStateException("no cpu or memory controller under " + CGROUPS
                + ": a pod is tested as root, on a machine with cgroup v1's or v2's");
    }

    /** The app's JVM or executable options: the smallest pod's heap, none for a pod with a memory limit. */
    public List<String> options() {
        return options;
    }

    /** The command, started by a shell that first moves itself into the groups, then execs the app. */
    public List<String> wrap(List<String> command) {
        StringBuilder join = new StringBuilder();
        for (Path group : groups) {
            join.append("echo $$ > '").append(group.resolve("cgroup.procs")).append("' && ");
        }
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", join + "exec \"$@\"", "pod"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Whatever is left in the groups back to their parents, then the groups themselves. */
    @Override
    public void close() {
        try {
            for (Path group : groups) {
                for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
                    try {
                        Files.writeString(group.getParent().resolve("cgroup.procs"), pid);
                    } catch (IOException ended) {
                        // it ended meanwhile
                    }
                }
                Files.delete(group);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
