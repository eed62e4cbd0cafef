"""Optional CPU pinning (--pin): k6 on cores of its own, the app and the database on the others, with taskset."""
from __future__ import annotations

import os
import shutil
import subprocess

MIN_CORES = 4  # below this, a core or two for k6 starves the app more than sharing does


def split_cores(cores: int) -> tuple[str, str] | None:
    """(k6 cores, app + database cores) as taskset lists, a quarter (at least one) for k6; None if too few."""
    if cores < MIN_CORES:
        return None
    k6 = max(1, cores // 4)
    return f"{cores - k6}-{cores - 1}", f"0-{cores - k6 - 1}"


def describe(requested: bool, cores: int) -> str:
    if not requested:
        return "not pinned: k6, the app and the database share all cores (use --pin to separate them)"
    split = split_cores(cores)
    if split is None:
        return f"not pinned: --pin needs at least {MIN_CORES} cores, this machine has {cores}"
    return f"pinned with taskset: k6 on cores {split[0]}, the app and the database on cores {split[1]}"


def pin_group(pgid: int, cores: str) -> None:
    """Every thread of every process in the group (taskset -a), so that threads made later inherit it."""
    if not shutil.which("taskset"):
        raise RuntimeError("--pin needs taskset (util-linux)")
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.getpgid(int(pid)) == pgid:
                    subprocess.run(["taskset", "-a", "-cp", cores, pid], capture_output=True, timeout=10)
            except ProcessLookupError:
                continue
