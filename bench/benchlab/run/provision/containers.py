"""The runtimes in a container (podman, else docker): the JVM app on the project's JVM base image, or the native
executable; the image is built once per bench run, each start is a container with the CPU and memory limits."""
import os
import re
import shutil
import subprocess
import time

from benchlab.model import cpu_list
from benchlab.run import probe
from benchlab.run.procs import Container, log
from benchlab.run.provision import jvm
from benchlab.run.provision.host import Runtime, find_runners

APP_IMAGE_REPO = "localhost/concurrency-lab/bench-app"
LOCAL_JVM_BASE = "localhost/concurrency-lab/jvm-base:25"  # deploy/images/build-base-image.sh's default name
PODMAN_PACKAGES = ["podman", "buildah", "skopeo", "runc", "debootstrap"]


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
        if self.cpuset:  # the container's cgroup, not the bench's mask (the rig's CPUs), says where it runs
            argv += ["--cpuset-cpus", cpu_list(self.cpuset)]
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
        return probe.Probe(app.pid, cgroup=True)

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
    DEFAULT_JAVA_OPTS = ("-XX:MaxRAMPercentage=50 -XX:+UseSerialGC -Xss512k "
                         "-Djava.util.logging.manager=org.jboss.logmanager.LogManager")

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
    """src/main/docker/Dockerfile.native with the native executable. The Dockerfile copies target/*-runner, so the
    executable must be the only runner in target/."""
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
            raise RuntimeError(f"runtime 'container-native' needs exactly one target/*-runner, found {len(runners)} "
                               "(deploy/native/toolchain, then ./mvnw package -Dnative)")
        super().check(root, java_home)

    def prepare(self, pm, root, java_home, logs):
        # Default base: the Dockerfile's own (UBI minimal, needs a registry); any glibc image with a shell works,
        # e.g. --base-image localhost/concurrency-lab/jvm-base:25.
        return self.build_image(pm, root, logs, self.options.get("base_image"), root)

    def args_after_image(self, props):
        # ENTRYPOINT ["./application", "-Dquarkus.http.host=0.0.0.0"]: these come after it, so they win.
        return [f"-D{k}={v}" for k, v in props.items()]
