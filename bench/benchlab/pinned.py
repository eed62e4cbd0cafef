"""Pinned virtual threads per run: the app records JFR's jdk.VirtualThreadPinned events (bench/jfr/pinned.jfc) into
one file per app start, written when it stops; each event is counted in the run whose k6 window contains it."""
from __future__ import annotations

import glob
import json
import os
import subprocess

import pandas as pd

from benchlab.model import RunRow

SETTINGS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "jfr", "pinned.jfc")
EVENT = "jdk.VirtualThreadPinned"


def jvm_option(directory: str) -> str:
    """-XX:StartFlightRecording for one app start; JFR names the file itself inside the directory."""
    os.makedirs(directory, exist_ok=True)
    return f"-XX:StartFlightRecording:settings={SETTINGS},filename={directory}{os.sep},dumponexit=true"


def event_times(java_home: str, recording: str) -> list[float]:
    """Epoch seconds of every pinned event in a recording (jfr print --json)."""
    out = subprocess.run([os.path.join(java_home, "bin", "jfr"), "print", "--json", "--events", EVENT, recording],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    events = json.loads(out)["recording"]["events"]
    return [pd.Timestamp(e["values"]["startTime"]).timestamp() for e in events]


def count(java_home: str, directory: str, rows: list[RunRow]) -> list[str]:
    """Sets row.pinned for every row measured while a recording ran; returns the problems met (unreadable files)."""
    problems, times = [], []
    recordings = sorted(glob.glob(os.path.join(directory, "*.jfr")))
    for recording in recordings:
        try:
            times += event_times(java_home, recording)
        except (subprocess.SubprocessError, ValueError, KeyError, OSError) as e:
            problems.append(f"{os.path.basename(recording)}: {e}")
    if not recordings or problems:
        return problems or ["no JFR recording was written (did the app stop cleanly?)"]
    for row in rows:
        if row.started_at is not None and row.ended_at is not None:
            row.pinned = sum(row.started_at <= t <= row.ended_at for t in times)
    return problems
