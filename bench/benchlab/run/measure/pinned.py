"""Pinned virtual threads per run: JFR's jdk.VirtualThreadPinned events (bench/jfr/pinned.jfc, every pin), counted in
the run whose k6 window contains each, with the first frame outside the JDK. On JDK 21 to 23 the JVM's own
-Djdk.tracePinnedThreads=short report is the second witness; JDK 24 and later ignore it (JEP 491)."""
from __future__ import annotations

import glob
import io
import os
import subprocess
from dataclasses import dataclass

import pandas as pd

from benchlab.model import RunRow
from benchlab.project import BENCH

SETTINGS = os.path.join(BENCH, "jfr", "pinned.jfc")
READER = os.path.join(BENCH, "PinnedEvents.java")
EVENT = "jdk.VirtualThreadPinned"
TRACE_OPTION = "-Djdk.tracePinnedThreads=short"
TRACED_BELOW = 24  # the first JDK that ignores the trace option
TRACE_MARK = "<== monitors"


def jvm_option(directory: str) -> str:
    """-XX:StartFlightRecording for one app start; JFR names the file itself inside the directory."""
    os.makedirs(directory, exist_ok=True)
    return f"-XX:StartFlightRecording:settings={SETTINGS},filename={directory}{os.sep},dumponexit=true"


def trace_options(feature_version: int | None) -> list[str]:
    """The JVM's own pinned-thread trace, where that JDK still has it."""
    return [TRACE_OPTION] if feature_version is not None and feature_version < TRACED_BELOW else []


def events(java_home: str, recording: str) -> pd.DataFrame:
    """Every pin of a recording: start (epoch seconds), duration_us, where (bench/PinnedEvents.java)."""
    out = subprocess.run([os.path.join(java_home, "bin", "java"), READER, recording], capture_output=True, text=True,
                         timeout=600, check=True).stdout
    df = pd.read_csv(io.StringIO(out), dtype={"where": str})
    return df.assign(start=df.start_ms / 1000).drop(columns="start_ms")


def count(java_home: str, directory: str, rows: list[RunRow]) -> list[str]:
    """Sets row.pinned and row.pinned_where for every row measured while a recording ran; returns the problems met
    (unreadable files)."""
    problems, frames = [], []
    recordings = sorted(glob.glob(os.path.join(directory, "*.jfr")))
    for recording in recordings:
        try:
            frames.append(events(java_home, recording))
        except (subprocess.SubprocessError, ValueError, KeyError, OSError) as e:
            problems.append(f"{os.path.basename(recording)}: {e}")
    if not recordings or problems:
        return problems or ["no JFR recording was written (did the app stop cleanly?)"]
    pins = pd.concat(frames)
    for row in rows:
        if row.started_at is not None and row.ended_at is not None:
            during = pins[pins.start.between(row.started_at, row.ended_at)]
            row.pinned = len(during)
            row.pinned_where = during["where"].mode().iloc[0] if len(during) else None
    return problems


@dataclass(frozen=True)
class Trace:
    """What the JVM's pinned-thread trace said in one app start's log: None where the JDK has no trace."""
    pinned: bool | None
    first_stack: str = ""


def read_trace(log_path: str, traced: bool) -> Trace:
    """Whether the app's log holds a pinned stack (a frame marked "<== monitors"), and the first such frame."""
    if not traced:
        return Trace(None)
    try:
        with open(log_path, errors="replace") as f:
            marked = next((line.strip() for line in f if TRACE_MARK in line), None)
    except OSError:
        return Trace(None)
    return Trace(marked is not None, marked or "")
