"""A warm-up until the app is steady: k6 at the warm-up load, its CSV read while it runs and the app's CPU beside it,
cut into windows that results/steady.py judges; k6 is stopped through its REST API once steady, or ends at the cap.
Every window goes into results.json."""
from __future__ import annotations

import bisect
import csv
import io
import os
import time

import numpy as np

from benchlab.model import PlannedRun
from benchlab.results.environment import WarmupRecord
from benchlab.results.steady import SteadyRule, Window
from benchlab.run.measure import k6tool, sampler
from benchlab.run.measure.k6runs import K6Runs

WINDOW_S = 2.0
FLUSH_S = 1.3  # k6 writes its CSV output every second: a window is read this long after it ended
POLL_S = 0.25


class LiveRequests:
    """k6's CSV output read while k6 writes it: the measured requests that ended so far, as (end in epoch seconds,
    duration ms, ok). Only whole lines are read; a partial last line waits for the next read."""

    def __init__(self, path: str):
        self.path, self.offset, self.partial, self.columns = path, 0, "", None

    def read(self) -> list[tuple[float, float, bool]]:
        try:
            with open(self.path, newline="") as f:
                f.seek(self.offset)
                text = f.read()
                self.offset = f.tell()
        except FileNotFoundError:
            return []
        whole, _, self.partial = (self.partial + text).rpartition("\n")
        rows = csv.reader(io.StringIO(whole))
        if self.columns is None:
            self.columns = next(rows, None)
            if self.columns is None:
                return []
        col = {name: i for i, name in enumerate(self.columns)}
        out = []
        for row in rows:
            # the measured requests: those of a model's scenario (setup()'s readiness probe has no model tag)
            if len(row) == len(self.columns) and row[col["metric_name"]] == "http_req_duration" \
                    and "model=" in row[col["extra_tags"]]:
                out.append((int(row[col["timestamp"]]) / 1000, float(row[col["metric_value"]]),
                            row[col["expected_response"]] == "true"))
        return out


class CpuClock:
    """The app's CPU seconds read every poll, so that its CPU between any two instants can be interpolated."""

    def __init__(self, probe):
        self.probe, self.times, self.cpu = probe, [], []

    def read(self) -> None:
        if self.probe is not None:
            try:
                cpu = self.probe.cpu_seconds()
            except (OSError, ProcessLookupError):
                return
            self.times.append(time.time())
            self.cpu.append(cpu)

    def between(self, start: float, end: float) -> float | None:
        if len(self.times) < 2 or start < self.times[0] or end > self.times[-1]:
            return None
        a, b = np.interp([start, end], self.times, self.cpu)
        return float(b - a)


class JitClock:
    """The JIT compilers' time so far, from the app's /lab/saturation, read once per window: its rate between two
    reads (None where a read failed or the app has no JIT)."""

    def __init__(self, url: str):
        self.url, self.last = url, None

    def rate(self) -> float | None:
        try:
            now, total = time.time(), sampler.scrape(self.url).get("jit_ms")
        except (OSError, ValueError):  # not answered in time, or not the lab's metrics
            total = None
        previous, self.last = self.last, (now, total) if total is not None else None
        if previous is None or self.last is None:
            return None
        return round((total - previous[1]) / max(now - previous[0], 1e-3), 1)


def window(requests: list[tuple[float, float, bool]], start: float, end: float, first: float, cpu: float | None,
           jit_ms_per_s: float | None = None) -> Window:
    """The requests that ended in [start, end), as one Window."""
    ends = [r[0] for r in requests]
    inside = requests[bisect.bisect_left(ends, start):bisect.bisect_left(ends, end)]
    durations = [r[1] for r in inside]
    return Window(end_s=round(end - first, 1), requests=len(inside), ok=sum(1 for r in inside if r[2]),
                  p99_ms=round(float(np.percentile(durations, 99)), 2) if durations else None,
                  app_cpu_ms_per_req=round(1000 * cpu / len(inside), 4) if cpu is not None and inside else None,
                  jit_ms_per_s=jit_ms_per_s)


def until_steady(k6: K6Runs, run: PlannedRun, probe, base_url, tokens_file, name, cap_s: float, label: str,
                 budget_lifted: bool, rule: SteadyRule) -> WarmupRecord:
    """k6 at the run's load for at most cap_s seconds, stopped as soon as the app is steady by the rule (its
    scenario's: SteadyRule.for_slo)."""
    state = k6.state
    csv_path = os.path.join(state.out, "k6", f"{name}.csv")
    proc = k6.start(run, cap_s, base_url, tokens_file, name, csv_path)
    live, clock = LiveRequests(csv_path), CpuClock(probe)
    jit = JitClock(f"{base_url}/lab/saturation")
    jit.rate()  # the first read, which the first window's rate starts from
    requests, windows, first, steady = [], [], None, False
    try:
        while proc.alive():
            time.sleep(POLL_S)
            clock.read()
            requests.extend(live.read())
            requests.sort()
            if first is None and requests:
                first = requests[0][0]
            if first is None or time.time() < first + (len(windows) + 1) * WINDOW_S + FLUSH_S:
                continue
            start = first + len(windows) * WINDOW_S
            windows.append(window(requests, start, start + WINDOW_S, first, clock.between(start, start + WINDOW_S),
                                  jit.rate()))
            if rule.steady(windows):
                steady = True
                k6tool.stop_k6(state.config.port + 2)
                break
    finally:
        rc = k6.wait(proc, cap_s, run)
        if os.path.isfile(csv_path):
            os.remove(csv_path)  # reduced to its windows
    if rc not in (0, 99, k6tool.STOPPED_BY_API):
        raise RuntimeError(f"k6 failed during the warm-up (exit {rc}); see {state.logs}/k6-{name}.log")
    return WarmupRecord(runtime=run.runtime, scenario=run.scenario, variant=run.variant, model=run.model,
                        load=run.load.label, label=label, seconds=windows[-1].end_s if windows else 0.0,
                        requests=sum(w.requests for w in windows), steady=steady, budget_lifted=budget_lifted,
                        windows=tuple(windows))
