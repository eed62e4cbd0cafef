"""A soak's own measurements beside its k6 run: Native Memory Tracking's areas at its start and at its end (an app on
the host JVM, started with jvm.NMT, or an executable built with NMT and jcmd), and the per-second series results.json
keeps."""
from __future__ import annotations

import mmap
import os
import re

from benchlab.model import PlannedRun
from benchlab.results.environment import SoakRecord
from benchlab.run.measure.sampler import CONNECTIONS
from benchlab.run.provision.host import JvmRuntime, NativeRuntime
from benchlab.run.provision.jvm import jcmd_out, nmt_areas

# The sampler's columns a soak keeps, one value per second: what may grow over minutes (results/soak.py's series).
KEPT = ("at", "app_cpu_pct", "rss_mb", "heap_used_bytes", "live_data_bytes", "gc_pause_seconds", "os_threads",
        "meters", *CONNECTIONS)
# What an executable holds only when it was built with jcmd support: the command that reads NMT.
JCMD_IN_EXECUTABLE = b"VM.native_memory"
NATIVE_BUILD_HINT = "build it with ./mvnw package -Dnative -Dquarkus.native.monitoring=nmt,jcmd"


def has_jcmd_support(executable: str) -> bool:
    """Whether a native executable answers jcmd: one built without it takes jcmd's SIGQUIT as a signal to quit."""
    with open(executable, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as image:
        return image.find(JCMD_IN_EXECUTABLE) != -1


def reader(rt, java_home: str, root: str) -> dict:
    """How a soak reads the app's NMT on this runtime: the `jcmd` of this host's JDK (a host JVM started with jvm.NMT,
    or an executable that answers jcmd, whose NMT is always on), else `nmt_note`, why not."""
    jcmd = os.path.join(java_home, "bin", "jcmd")
    if isinstance(rt, JvmRuntime):
        return dict(jcmd=jcmd)
    if isinstance(rt, NativeRuntime):
        if has_jcmd_support(rt.runner(root)):
            return dict(jcmd=jcmd)
        return dict(nmt_note=f"not tracked: the executable has no NMT or jcmd; {NATIVE_BUILD_HINT}")
    return dict(nmt_note="not tracked: in a container (NMT needs jcmd on this host)")


class NativeMemory:
    """NMT over a soak: each area's committed memory at its start and at its end, read by the host JDK's `jcmd`. Each
    summary is kept in `out` (nmt/NAME-start.txt, -end.txt). `note`: why there is none."""

    def __init__(self, jcmd: str | None, pid: int | None, out: str, name: str, note: str = ""):
        self.jcmd, self.pid = jcmd, pid
        self.path = os.path.join(out, "nmt", name)
        self.note = note or ("" if jcmd and pid else "not tracked: no process of the app on this host")
        self.first: dict[str, float] = {}

    def read(self, when: str) -> dict[str, float]:
        summary = jcmd_out(self.jcmd, self.pid, "VM.native_memory", "summary")
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        with open(f"{self.path}-{when}.txt", "w") as f:
            f.write(summary)
        return nmt_areas(summary)

    def start(self) -> None:
        if self.note:
            return
        self.first = self.read("start")
        if not self.first:
            self.note = f"not tracked: jcmd VM.native_memory summary gave no areas ({self.path}-start.txt)"

    def change(self) -> dict[str, list[float]] | None:
        """Area -> [committed MB at the end, its change since the start MB]."""
        if self.note:
            return None
        last = self.read("end")
        if not last:
            self.note = f"not tracked: jcmd VM.native_memory summary gave no areas at the end ({self.path}-end.txt)"
            return None
        return {area: [mb, round(mb - self.first.get(area, 0.0), 1)] for area, mb in last.items()}


def record(run: PlannedRun, rows: list[dict], nmt: NativeMemory, areas: dict | None) -> SoakRecord:
    """The soak's record: its run, the kept columns of the sampler's rows (each second of the measured part)."""
    return SoakRecord(runtime=run.runtime, scenario=run.scenario, variant=run.variant, model=run.model, tag=run.tag,
                      rate=run.load.value, minutes=round(run.seconds / 60, 2),
                      series={column: [row.get(column) for row in rows] for column in KEPT},
                      nmt=areas, nmt_note=nmt.note)
