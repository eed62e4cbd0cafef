package io.concurrencylab.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The smallest pod the lab answers for, as Kubernetes would run the packaged app: a CPU limit of 0.5 (a CFS quota of
 * 50 ms per the kubelet's 100 ms period, in a cgroup of its own) and a 128 MB heap, half of a 256 MB pod. The app
 * joins the group before it starts, so that the JVM and the executable size themselves for it (one processor). It
 * runs with its first gate on ({@code AdmissionControl}), which such a pod needs: without it, 99.7 % of a burst of
 * 2.5 times its capacity went unanswered within 1 s.
 * <p>
 * Making a cgroup needs root and a cpu controller (cgroup v1's cpu hierarchy, or v2's with cpu in the root's
 * subtree_control). Without them the test cannot run as a pod lives, and says so in one line.
 */
public final class Pod implements AutoCloseable {

    public static final String HEAP = "128m";
    static final Path CGROUPS = Path.of("/sys/fs/cgroup");
    private static final int PERIOD_US = 100_000;
    private static final int QUOTA_US = PERIOD_US / 2;

    private final Path group;

    private Pod(Path group) {
        this.group = group;
    }

    /** A group named after the test and this JVM, with its quota set. */
    public static Pod create(String test) {
        String name = test + "-" + ProcessHandle.current().pid();
        Path v1 = CGROUPS.resolve("cpu");
        try {
            if (Files.isRegularFile(v1.resolve("cpu.cfs_quota_us"))) {
                Path group = Files.createDirectories(v1.resolve(name));
                Files.writeString(group.resolve("cpu.cfs_period_us"), Integer.toString(PERIOD_US));
                Files.writeString(group.resolve("cpu.cfs_quota_us"), Integer.toString(QUOTA_US));
                return new Pod(group);
            }
            Path controllers = CGROUPS.resolve("cgroup.subtree_control");
            if (Files.isRegularFile(controllers) && List.of(Files.readString(controllers).trim().split(" "))
                    .contains("cpu")) {
                Path group = Files.createDirectories(CGROUPS.resolve(name));
                Files.writeString(group.resolve("cpu.max"), QUOTA_US + " " + PERIOD_US);
                return new Pod(group);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot make a cgroup of 0.5 CPU under " + CGROUPS + " (" + e
                    + "): the pod's edge is tested as root, on a machine with a cpu controller");
        }
        throw new IllegalStateException("no cpu controller under " + CGROUPS
                + ": the pod's edge is tested as root, on a machine with cgroup v1's cpu or cgroup v2's");
    }

    /** The app's JVM or executable options: its heap and its first gate. */
    public List<String> options() {
        return List.of("-Xmx" + HEAP, "-Dlab.overload.admission-control=true");
    }

    /** The command, started by a shell that first moves itself into the group, then execs the app. */
    public List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c",
                "echo $$ > '" + group.resolve("cgroup.procs") + "' && exec \"$@\"", "pod"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Whatever is left in the group back to its parent, then the group itself. */
    @Override
    public void close() {
        try {
            for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
                try {
                    Files.writeString(group.getParent().resolve("cgroup.procs"), pid);
                } catch (IOException ended) {
                    // it ended meanwhile
                }
            }
            Files.delete(group);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
