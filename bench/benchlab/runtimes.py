"""A runtime is a named way to start the application process. Only 'jvm' exists today; 'native' (a GraalVM /
Mandrel executable) and containers (podman) plug in here by adding a class and registering it."""
import os


class Runtime:
    name = "?"

    def check(self, root):
        """Raise RuntimeError with a clear message if this runtime cannot run here."""

    def command(self, root, java_home, port, props):
        """argv that starts the app listening on 127.0.0.1:port with the given config properties."""
        raise NotImplementedError

    def describe(self, root, java_home):
        return self.name


class JvmRuntime(Runtime):
    name = "jvm"

    def __init__(self, jvm_args=None):
        self.jvm_args = list(jvm_args or [])

    def jar(self, root):
        return os.path.join(root, "target", "quarkus-app", "quarkus-run.jar")

    def check(self, root):
        if not os.path.isfile(self.jar(root)):
            raise RuntimeError(f"{self.jar(root)} is missing (build with ./mvnw -B -q package -DskipTests)")

    def command(self, root, java_home, port, props):
        argv = [os.path.join(java_home, "bin", "java"), *self.jvm_args]
        argv += [f"-D{k}={v}" for k, v in props.items()]
        argv += ["-jar", self.jar(root)]
        return argv

    def describe(self, root, java_home):
        return f"jvm: {os.path.join(java_home, 'bin', 'java')} {' '.join(self.jvm_args)} -jar target/quarkus-app/quarkus-run.jar"


class NativeRuntime(Runtime):
    """Placeholder for the native executable (target/*-runner). Not buildable on this machine (no GraalVM)."""
    name = "native"

    def runner(self, root):
        target = os.path.join(root, "target")
        if os.path.isdir(target):
            for f in sorted(os.listdir(target)):
                if f.endswith("-runner") and os.access(os.path.join(target, f), os.X_OK):
                    return os.path.join(target, f)
        return None

    def check(self, root):
        if not self.runner(root):
            raise RuntimeError("runtime 'native' needs target/*-runner (./mvnw package -Dnative on a machine "
                               "with GraalVM/Mandrel or a container engine)")

    def command(self, root, java_home, port, props):
        return [self.runner(root), *[f"-D{k}={v}" for k, v in props.items()]]


RUNTIMES = {r.name: r for r in (JvmRuntime, NativeRuntime)}


def make(name):
    if name not in RUNTIMES:
        raise SystemExit(f"unknown runtime {name!r}; known: {', '.join(RUNTIMES)}")
    return RUNTIMES[name]()
