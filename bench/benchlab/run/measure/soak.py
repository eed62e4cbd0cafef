"""A soak's own measurements beside its k6 run: Native Memory Tracking's baseline at its start and each area's change
at its end (an app on the host JVM, started with jvm.NMT), and the per-second series results.json keeps."""
from __future__ import annotations

import re

from benchlab.model import PlannedRun
from benchlab.results.environment import SoakRecord
from benchlab.run.measure.sampler import CONNECTIONS
from benchlab.run.provision.jvm import jcmd_out

# The sampler's columns a soak keeps, one value per second: what may grow over minutes (results/soak.py's series).
KEPT = ("at", "app_cpu_pct", "rss_mb", "heap_used_bytes", "live_data_bytes", "gc_pause_seconds", "os_threads",
        "meters", *CONNECTIONS)
AREA = re.compile(r"^-\s+(.+?) \(reserved=\d+KB(?: [+-]\d+KB)?, committed=(\d+)KB(?: ([+-]\d+)KB)?\)", re.M)
TOTAL = re.compile(r"^Total: reserved=\d+KB(?: [+-]\d+KB)?, committed=(\d+)KB(?: ([+-]\d+)KB)?", re.M)


def nmt_areas(diff: str) -> dict[str, list[float]]:
    """`jcmd PID VM.native_memory summary.diff scale=KB`: area -> [committed MB, its change since the baseline MB],
    the total first; {} where NMT is off."""
    found = [("Total", *m.groups()) for m in TOTAL.finditer(diff)] + [m.groups() for m in AREA.finditer(diff)]
    return {name: [round(int(committed) / 1024, 1), round(int(change or 0) / 1024, 1)]
            for name, committed, change in found}


class NativeMemory:
    """NMT over a soak: a baseline once the run starts, the change per area once it ends (jcmd of the app's JDK)."""

    def __init__(self, jcmd: str | None, pid: int | None):
        self.jcmd, self.pid = jcmd, pid
        self.note = "" if jcmd and pid else "not tracked: a native executable or a container (NMT needs jcmd)"

    def baseline(self) -> None:
        if self.note:
            return
        out = jcmd_out(self.jcmd, self.pid, "VM.native_memory", "baseline")
        if "Baseline taken" not in out and "Baseline succeeded" not in out:
            self.note = f"not tracked: jcmd VM.native_memory baseline said {out.strip().splitlines()[-1:]}"

    def change(self) -> dict[str, list[float]] | None:
        if self.note:
            return None
        areas = nmt_areas(jcmd_out(self.jcmd, self.pid, "VM.native_memory", "summary.diff", "scale=KB"))
        if not areas:
            self.note = "not tracked: jcmd VM.native_memory summary.diff gave no areas"
        return areas or None


def record(run: PlannedRun, rows: list[dict], nmt: NativeMemory, areas: dict | None) -> SoakRecord:
    """The soak's record: its run, the kept columns of the sampler's rows (each second of the measured part)."""
    return SoakRecord(runtime=run.runtime, scenario=run.scenario, variant=run.variant, model=run.model, tag=run.tag,
                      rate=run.load.value, minutes=round(run.seconds / 60, 2),
                      series={column: [row.get(column) for row in rows] for column in KEPT},
                      nmt=areas, nmt_note=nmt.note)
