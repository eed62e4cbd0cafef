"""The heap as a runtime dimension (--heap 64m,128m,1g): each heap x runtime is a runtime of its own, jvm-heap64m. A
JVM process gets -Xmx, a container twice the heap as its memory limit, as a pod; every such app ends at its first
OutOfMemoryError (-XX:+ExitOnOutOfMemoryError), and the report names the stop."""
from __future__ import annotations

import copy
import os
import subprocess
from dataclasses import replace

from benchlab.model import RuntimeSpec, heap_label, size_mb
from benchlab.project import jvm_fatal_line, oom_line
from benchlab.run.provision import runtimes
from benchlab.run.provision.budget import HEAP_SHARE
from benchlab.run.provision.containers import ContainerJvmRuntime
from benchlab.run.provision.host import JvmRuntime

EXIT_ON_OOM = "-XX:+ExitOnOutOfMemoryError"
HEAP_RUNTIMES = (JvmRuntime.name, runtimes.RUNTIMES["jvm-aot"].name, ContainerJvmRuntime.name)


def heap_runtimes(specs, text: str) -> list[RuntimeSpec]:
    """--heap over the runtimes given: each runtime at each heap, the heaps taking turns within each runtime.
    ValueError, one line, for a heap that is no size or a runtime whose heap the bench cannot set."""
    items = [x.strip() for x in text.split(",") if x.strip()]
    if not items:
        raise ValueError("--heap: a comma list of heap sizes, e.g. 64m,128m,1g")
    sizes = list(dict.fromkeys(size_mb(x) for x in items))
    other = [spec.name for spec in specs if spec.base not in HEAP_RUNTIMES]
    if other:
        raise ValueError(f"--heap sets the heap of {', '.join(HEAP_RUNTIMES)} only, not of {', '.join(other)} (a "
                         f"native executable sizes its heap itself)")
    return [replace(spec, heap_mb=mb) for spec in specs for mb in sizes]


def search_base(specs) -> RuntimeSpec | None:
    """The runtime a memory search (--heap-search) sets the heap of: the first host JVM runtime (jcmd reads its heap)
    that is no pod size (which sizes its heap from the pod's memory limit); None: none is."""
    return next((spec for spec in specs if spec.base in runtimes.HOST_JVM_RUNTIMES and spec.cpus is None), None)


def with_heap(rt, heap_mb: int, name: str):
    """The runtime with that heap, under that name: -Xmx for a JVM process, a pod's memory limit for a container; the
    JVM ends at its first OutOfMemoryError either way."""
    rt = renamed(rt, name)
    if isinstance(rt, JvmRuntime):
        rt.jvm_args = [*rt.jvm_args, f"-Xmx{heap_mb}m", EXIT_ON_OOM]
    elif isinstance(rt, ContainerJvmRuntime):
        rt.options = dict(rt.options, memory=f"{round(heap_mb / HEAP_SHARE)}m",
                          jvm_args=[*rt.options.get("jvm_args", []), EXIT_ON_OOM])
    else:
        raise ValueError(f"--heap: runtime {rt.name!r} has no heap the bench can set")
    rt.heap_mb = heap_mb
    return rt


def renamed(rt, name: str):
    """A copy of the runtime under another name (jvm-heap64m); base_name says which it is."""
    rt = copy.copy(rt)
    rt.base_name, rt.name = rt.name, name
    return rt


def make(spec: RuntimeSpec, options: dict):
    """The runtime the record describes, with its heap where it has one (--heap, a memory search's step)."""
    if not spec.heap_mb:
        return runtimes.make(spec, options)
    return with_heap(runtimes.make(replace(spec, heap_mb=None), options), spec.heap_mb, spec.name)


def search_runtime(spec: RuntimeSpec, options: dict, heap_mb: int, extra=()):
    """A memory search's step runtime: the host JVM runtime with that heap (and extra JVM options: Native Memory
    Tracking), named jvm-heap<N>m: each step a runtime of its own in results.csv. It runs outside the CPU budget and
    its CPU set: the question is the heap, not the CPU."""
    rt = make(replace(spec, heap_mb=heap_mb, cpuset=None), options)
    rt.jvm_args = [*rt.jvm_args, *extra]
    return rt


def check_starts(rt, java_home) -> None:
    """A JVM process whose heap is too small for the JVM itself (-Xmx1m) is refused before anything starts, with the
    JVM's own message in one line."""
    if not isinstance(rt, JvmRuntime) or getattr(rt, "heap_mb", None) is None:
        return
    out = subprocess.run([os.path.join(java_home, "bin", "java"), *rt.jvm_args, "-version"], capture_output=True,
                         text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(f"runtime {rt.name}: the JVM does not start with -Xmx{heap_label(rt.heap_mb)}: "
                           f"{jvm_fatal_line(out.stdout + out.stderr) or (out.stdout + out.stderr).strip()}")


def log_text(app) -> str:
    """The app's log so far (a container's from its engine)."""
    if not hasattr(app, "engine"):
        return read_log(app.log_path)
    try:
        out = app.engine("logs", app.name, timeout=30)
        return out.stdout + out.stderr
    except (OSError, subprocess.TimeoutExpired):
        return ""


def read_log(path: str) -> str:
    """A log file's text, or "" where there is none (an app that never started may leave none)."""
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def died_of_oom(app) -> str | None:
    """The JVM's OutOfMemoryError line if the app has ended out of memory, else None (also for no app: --target)."""
    return None if app is None or app.alive() else oom_line(log_text(app))
