"""The runtimes on the host: the app as a JVM process (the jar, or the jar with the JDK 25 AOT cache) or as a native
executable, and the Runtime interface every runtime has (runtimes.py lists them)."""
import copy
import glob
import os
import re

from benchlab.project import AOT_OPTIONS
from benchlab.run import probe
from benchlab.run.provision import jvm
from benchlab.run.provision.budget import on_cpus


class Runtime:
    name = "?"
    container = False
    java_home = None  # the JDK it runs on when not the bench's own (--jdk)
    budget = None  # the app's CPU budget (provision/budget.py), where one applies: every start runs within it
    cpuset = None  # the CPUs its app runs on (--app-cpuset); None: every CPU

    def __init__(self, options=None):
        self.options = options or {}

    def check(self, root, java_home):
        """Raise RuntimeError with a clear message if this runtime cannot run here."""

    def prepare(self, pm, root, java_home, logs):
        """One-time work before the first start (e.g. an image build). Returns a dict for environment.json."""
        return {}

    def command(self, root, java_home, port, props):
        """argv that starts the app listening on 127.0.0.1:port with the given config properties."""
        raise NotImplementedError

    def start(self, pm, root, java_home, port, props, env, log_path):
        """Starts the app; returns a handle with alive(), pid, log_path, exit_info() (procs.Managed or Container)."""
        return pm.start(f"app ({self.name})", self.command(root, java_home, port, props), log_path, env=env, cwd=root,
                        before_exec=self.before_exec())

    def before_exec(self):
        """What the app's process does before it execs: join the budget, else take the app's CPUs (or all of them)
        rather than the bench's own, the rig's."""
        return self.budget.enter if self.budget else on_cpus(self.cpuset)

    def probe(self, app):
        """What the sampler reads: the app's main process in /proc (and its cgroup for containers)."""
        return probe.Probe(app.pid)

    def limits(self):
        """The pod's limits its app runs within (--app-cpus, --app-memory); None without a budget."""
        if self.budget is None:
            return None
        return {"cpus": self.budget.cpus, "memory": f"{self.budget.memory_mb}m" if self.budget.memory_mb else None}

    def describe(self, root, java_home):
        return self.name

    def start_warnings(self, app):
        """What the started app said about the runtime itself that makes its figures doubtful (none by default)."""
        return []


class JvmRuntime(Runtime):
    name = "jvm"
    records_jfr = True  # the pinned-thread recording (pinned.py) runs in this JVM

    def __init__(self, options=None, jvm_args=None):
        super().__init__(options)
        self.jvm_args = list(jvm_args if jvm_args is not None else self.options.get("jvm_args", []))
        self.packaged_app = os.path.join("target", "quarkus-app")  # the directory it runs, relative to the project

    def on_app(self, packaged_app):
        """The same runtime (name, JDK, JVM options) running another packaging of the app (drivers.py)."""
        other = copy.copy(self)
        other.packaged_app = packaged_app
        return other

    def with_jvm_args(self, extra):
        """The same runtime with more JVM options (a soak's Native Memory Tracking)."""
        other = copy.copy(self)
        other.jvm_args = [*self.jvm_args, *extra]
        return other

    def jar(self, root):
        return os.path.join(root, self.packaged_app, "quarkus-run.jar")

    def check(self, root, java_home):
        if not os.path.isfile(self.jar(root)):
            raise RuntimeError(f"{self.jar(root)} is missing (build with ./mvnw -B -q package -DskipTests)")

    def prepare(self, pm, root, java_home, logs):
        return jvm.ergonomics(jvm.print_flags(java_home, self.jvm_args))

    def command(self, root, java_home, port, props):
        argv = [os.path.join(java_home, "bin", "java"), *self.jvm_args]
        argv += [f"-D{k}={v}" for k, v in props.items()]
        argv += ["-jar", self.jar(root)]
        return argv

    def describe(self, root, java_home):
        return (f"jvm: {os.path.join(java_home, 'bin', 'java')} {' '.join(self.jvm_args)} -jar "
                f"{os.path.join(self.packaged_app, 'quarkus-run.jar')}")


# The JVM's unified logging of the AOT cache (tags aot or cds) at warning or error level, e.g. "[0.012s][error][aot]
# An error has occurred while processing the AOT cache". AOTMode=on makes such an error stop the start; warnings (a
# class the cache could not hold, say) still let it run and are reported beside the runtime's figures.
AOT_LOG_PROBLEM = re.compile(r"^\[[^\]]*\]\[(?:error|warning)\s*\]\[(?:aot|cds)[^\]]*\]\s*(.*)$", re.M)


class JvmAotRuntime(JvmRuntime):
    """The same jar with the JDK 25 AOT cache `./mvnw verify -Daot` trains: target/quarkus-app/app.aot, started from
    that directory (the cache holds its class path). AOTMode=on fails a start the cache does not fit, instead of
    running the plain JVM as jvm-aot; start_warnings() finds the JVM's remaining complaints."""
    name = "jvm-aot"
    CACHE = "app.aot"
    MIN_JDK = 25
    BUILD = "./mvnw verify -Daot"
    AOT_OPTIONS = list(AOT_OPTIONS)
    # -XX:StartFlightRecording adds the jdk.jfr module, and a cache trained without it cannot be used ("Mismatched
    # values for property jdk.module.addmods"): this runtime's rows have no pinned-thread count.
    records_jfr = False

    def app_dir(self, root):
        return os.path.dirname(self.jar(root))

    def check(self, root, java_home):
        super().check(root, java_home)
        version = jvm.feature_version(java_home)
        if version is None or version < self.MIN_JDK:
            raise RuntimeError(f"runtime 'jvm-aot' needs a JDK {self.MIN_JDK} or newer (the AOT cache); {java_home} is "
                               f"JDK {version or '(unknown version)'}: not supported. On older JDKs the start-up "
                               f"archive is AppCDS, a matter of the build ({self.BUILD}), measured as the jvm runtime")
        problem = self.cache_problem(root)
        if problem:
            raise RuntimeError(f"runtime 'jvm-aot': {problem}: build both with {self.BUILD} (JDK {self.MIN_JDK}+)")

    @classmethod
    def cache_problem(cls, root) -> str | None:
        """Why the packaged app has no cache this runtime can start with (None: it has one). A cache trained on an
        older jar does not match the class path: said before any start, in the words of the build, not the JVM's."""
        app_dir = os.path.join(root, "target", "quarkus-app")
        cache = os.path.join(app_dir, cls.CACHE)
        if not os.path.isfile(cache):
            return f"target/quarkus-app/{cls.CACHE}, the AOT cache the integration tests train, is missing"
        newer = [f for f in app_files(app_dir) if os.path.getmtime(f) > os.path.getmtime(cache)]
        if newer:
            return (f"target/quarkus-app/{cls.CACHE} is older than {os.path.relpath(newer[0], root)} (the app was "
                    f"packaged again after the cache was trained)")
        return None

    def command(self, root, java_home, port, props):
        return [os.path.join(java_home, "bin", "java"), *self.jvm_args, *self.AOT_OPTIONS,
                *[f"-D{k}={v}" for k, v in props.items()], "-jar", "quarkus-run.jar"]

    def start(self, pm, root, java_home, port, props, env, log_path):
        return pm.start(f"app ({self.name})", self.command(root, java_home, port, props), log_path, env=env,
                        cwd=self.app_dir(root), before_exec=self.before_exec())

    def describe(self, root, java_home):
        return (f"jvm-aot: cd target/quarkus-app && {os.path.join(java_home, 'bin', 'java')} "
                f"{' '.join([*self.jvm_args, *self.AOT_OPTIONS])} -jar quarkus-run.jar")

    def start_warnings(self, app):
        with open(app.log_path, errors="replace") as f:
            return [m.strip() for m in AOT_LOG_PROBLEM.findall(f.read())]


def app_files(app_dir):
    """The packaged app the cache was trained on: quarkus-run.jar and the jars and data files of its layout."""
    return [f for f in glob.glob(os.path.join(app_dir, "**", "*"), recursive=True)
            if f.endswith((".jar", ".dat")) and os.path.isfile(f)]


def find_runners(root):
    return sorted(f for f in glob.glob(os.path.join(root, "target", "*-runner"))
                  if os.path.isfile(f) and os.access(f, os.X_OK))


class NativeRuntime(Runtime):
    """The native executable (--native-exe, default target/*-runner), built with deploy/native/toolchain's GraalVM
    home when none is there; options' native_args go before its -D properties (--builds)."""
    name = "native"

    def runner(self, root):
        exe = self.options.get("native_exe")
        if exe:
            return os.path.abspath(exe)
        runners = find_runners(root)
        return runners[0] if len(runners) == 1 else None

    def check(self, root, java_home):
        exe = self.options.get("native_exe")
        if exe:
            if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
                raise RuntimeError(f"--native-exe {exe}: not an executable file")
            return
        runners = find_runners(root)
        if len(runners) > 1:
            raise RuntimeError(f"runtime '{self.name}': several target/*-runner files ({', '.join(runners)}); "
                               f"choose one with --native-exe PATH")
        if not runners:
            raise RuntimeError(f"runtime '{self.name}' needs a native executable: no target/*-runner "
                               f"(deploy/native/toolchain, then ./mvnw package -Dnative; or --native-exe PATH)")

    def command(self, root, java_home, port, props):
        return [self.runner(root), *self.options.get("native_args", ()), *[f"-D{k}={v}" for k, v in props.items()]]

    def describe(self, root, java_home):
        return " ".join(["native:", self.runner(root), *self.options.get("native_args", ()), "-D..."])


# --- containers ---------------------------------------------------------------------------------------------------
