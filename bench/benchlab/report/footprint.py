"""Start-up and footprint per runtime: cold starts (median and range), RSS idle and under load, and the warm-up
curve after a fresh start with its time to steady throughput. run/runner.py gathers the figures into results.json's
runtime_info; this module tables them, without I/O."""
from __future__ import annotations

import statistics
from dataclasses import dataclass

import pandas as pd

from benchlab.formatting import Code, Fixed, describe, summary
from benchlab.model import RuntimeSpec
from benchlab.report.layout import Table
from benchlab.results.environment import Environment

# Runtimes that need a native executable. When none was built, their row says so instead of leaving a hole in the
# comparison.
NATIVE_RUNTIMES = ("native", "container-native")
NATIVE_NOT_BUILT = ("not built: no target/*-runner; deploy/native/toolchain, then ./mvnw package -Dnative, then "
                    "--runtime native")
NATIVE_NOT_REQUESTED = "not measured: a native executable is there ({}), but --runtime did not ask for {}"
STEADY_SHARE = 0.9  # steady: every later moving mean at 90 % of the final level or more
STEADY_WINDOW_S = 5  # moving mean over 5 s: one slow second (a GC, a JIT burst) does not end the warm-up
STEADY_TAIL_S = 10  # the final level: the median of the curve's last 10 s
SHORTEST_CURVE_S = STEADY_TAIL_S + STEADY_WINDOW_S


@dataclass(frozen=True)
class Steady:
    """Where a warm-up curve reached its final level. seconds is None when it never stayed there (or the curve is too
    short to tell: then level is None too)."""
    seconds: int | None
    level: float | None

    def describe(self, curve_s: int) -> str:
        if self.level is None:
            return "-"
        return f"not within {curve_s} s" if self.seconds is None else f"{self.seconds} s of {curve_s} s"


def time_to_steady(ok_per_second: list[float]) -> Steady:
    """The first second from which every moving mean over STEADY_WINDOW_S seconds stays at STEADY_SHARE of the final
    level or more; the final level is the median of the last STEADY_TAIL_S seconds."""
    if len(ok_per_second) < SHORTEST_CURVE_S:
        return Steady(None, None)
    level = statistics.median(ok_per_second[-STEADY_TAIL_S:])
    means = [sum(ok_per_second[i:i + STEADY_WINDOW_S]) / STEADY_WINDOW_S
             for i in range(len(ok_per_second) - STEADY_WINDOW_S + 1)]
    start = len(means)
    while start > 0 and means[start - 1] >= STEADY_SHARE * level:
        start -= 1
    return Steady(start if start < len(means) else None, level)


def cold_start_summaries(starts: list[dict]) -> dict[str, dict]:
    """Median, range and count of each per-start figure (first_request_s, quarkus_started_s, rss_mb)."""
    return {key: summary([s[key] for s in starts if s.get(key) is not None])
            for key in ("first_request_s", "quarkus_started_s", "rss_mb")}


def rss_under_load(runs: pd.DataFrame | None, runtime: str) -> float | None:
    """The highest RSS sampled in any measured run of the runtime."""
    if runs is None or runs.empty or "rss_peak_mb" not in runs:
        return None
    peaks = runs[runs.runtime == runtime].rss_peak_mb.dropna()
    return float(peaks.max()) if not peaks.empty else None


def native_row(name: str, executables: list[str]) -> list[str]:
    reason = NATIVE_NOT_REQUESTED.format(", ".join(executables), name) if executables else NATIVE_NOT_BUILT
    return [name, reason] + ["-"] * 7


def footprint_table(env: Environment, runs: pd.DataFrame | None = None) -> Table | None:
    """One row per runtime that was measured, one per native runtime that was not (saying why). None when neither
    cold starts nor a warm-up curve were measured: a single-runtime run, or results written before they existed."""
    info = env.runtime_info
    measured = {name: i for name, i in info.items() if i.cold_starts or i.warmup_curve}
    if not measured:
        return None
    rows = []
    for name, i in measured.items():
        cold = cold_start_summaries(i.cold_starts)
        curve = (i.warmup_curve or {}).get("ok_per_s") or []
        steady = time_to_steady(curve)
        command = i.command
        if i.start_warnings:  # e.g. the JVM could not use the AOT cache: then this row is the plain JVM's
            command += "; the JVM reported: " + " / ".join(i.start_warnings)
        rows.append([name, describe(cold["first_request_s"]), describe(cold["quarkus_started_s"]),
                     describe(cold["rss_mb"], "MB", digits=0), Fixed(i.rss_idle_mb, 0),
                     Fixed(rss_under_load(runs, name), 0),
                     "-" if steady.level is None else f"{steady.level:.0f}/s", steady.describe(len(curve)),
                     Code(command)])
    rows += [native_row(name, env.native_executables) for name in NATIVE_RUNTIMES
             if name not in {RuntimeSpec.recorded(n).base for n in info}]
    curve_load = next((i.warmup_curve["load"] for i in measured.values() if i.warmup_curve), None)
    budget = (f" At most {env.cold_starts}, none begun after {env.cold_start_budget_s:g} s of them."
              if env.cold_start_budget_s else "")
    note = ("Cold start: a fresh process against the running database, stopped at its first successful request; "
            f"median (min-max, n), with Quarkus's own 'started in'.{budget} RSS idle: after the smoke test; under "
            "load: the highest sample of any measured run. ")
    note += (f"Steady throughput: the median of the last {STEADY_TAIL_S} s of {curve_load} on a fresh start, reached "
             f"once every {STEADY_WINDOW_S} s mean stays at {STEADY_SHARE * 100:.0f} % of it." if curve_load else
             "No warm-up curve was measured (--warmup-curve 0).")
    return Table("Start-up and footprint per runtime",
                 ["runtime", "first successful request", "Quarkus 'started in'", "RSS at first request",
                  "RSS idle MB", "RSS under load MB", "steady throughput", "time to steady", "command"], rows, note)
