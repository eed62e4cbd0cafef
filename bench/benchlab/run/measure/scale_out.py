"""A scale-out (scenarios/scale_out.py): the block's warm app is the first replica, behind HAProxy; k6 offers its rate,
then twice it from the step on, when a second replica starts cold within a pod of its own and joins once HAProxy finds
it ready. HAProxy's stats are read every second; k6's requests are reduced to 5 s windows (results/scale_out.py)."""
from __future__ import annotations

import os
import threading
import time

import psutil

from benchlab.model import PlannedRun
from benchlab.results import scale_out as scale_out_results
from benchlab.results import windows
from benchlab.results.environment import ScaleOutRecord
from benchlab.results.scale_out import REPLICAS
from benchlab.run.measure.k6runs import K6Runs
from benchlab.run.probe import group_cpu_seconds
from benchlab.run.procs import log
from benchlab.run.provision import health
from benchlab.run.provision.haproxy import HaProxy
from benchlab.run.state import BenchState
from benchlab.scenarios import scale_out, slo_p99_ms

READ_EVERY_S = 1.0


class Replicas:
    """HAProxy's view of the replicas, read each second on a thread of its own: 2xx answers per replica per second,
    and when the second replica was first in rotation (seconds from `start`)."""

    def __init__(self, proxy: HaProxy):
        self.proxy, self.start = proxy, None
        self.counts: dict[str, list[int]] = {name: [] for name in REPLICAS}
        self.ready_s: float | None = None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.read, name="haproxy-stats", daemon=True)

    def begin(self, start: float) -> None:
        self.start = start
        self.thread.start()

    def read(self) -> None:
        tick = self.start
        while not self.stopping.is_set():
            try:
                stats = self.proxy.stats()
            except OSError:
                stats = {}
            for name in REPLICAS:
                row = stats.get(name)
                self.counts[name].append(int(row["hrsp_2xx"] or 0) if row else None)
            second = stats.get(REPLICAS[1])
            if self.ready_s is None and second and second["status"].startswith("UP"):
                self.ready_s = round(time.monotonic() - self.start, 1)
            tick += READ_EVERY_S
            self.stopping.wait(max(0.0, tick - time.monotonic()))

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)

    def per_second(self, seconds: int) -> dict[str, list[int]]:
        """Answers per second: the change of each cumulative count, `seconds` values (0 where unread)."""
        out = {}
        for name, counts in self.counts.items():
            filled = [c if c is not None else 0 for c in counts]
            out[name] = ([max(0, b - a) for a, b in zip(filled, filled[1:])] + [0] * seconds)[:seconds]
        return out


def cpu_seconds(pgids: dict[str, int | None]) -> dict[str, float]:
    return {name: group_cpu_seconds(pgid) if pgid else 0.0 for name, pgid in pgids.items()}


def busy_pct(before, after) -> float:
    """% of all cores busy between two psutil.cpu_times(): all but idle and iowait (steal counts, the machine lost it;
    guest time is inside user already)."""
    delta = {f: getattr(after, f) - getattr(before, f) for f in after._fields if f not in ("guest", "guest_nice")}
    total = sum(delta.values())
    return round(100 * (total - delta["idle"] - delta.get("iowait", 0.0)) / total, 1) if total else 0.0


class ScaleOut:
    """One scale-out run on a block's app; `start_replica(port)` starts the second replica cold within its own pod."""

    def __init__(self, state: BenchState, k6: K6Runs, sampled: dict):
        self.state, self.k6, self.sampled = state, k6, sampled

    def run(self, run: PlannedRun, app, tokens_file: str, start_replica, capacity: float | None,
            pod) -> ScaleOutRecord:
        """`pod`: the replicas' size (provision/budget.CpuBudget: cpus, memory_mb). Seconds count from the first
        answer through HAProxy, as k6's arrivals do from its first request, not from k6's start (its setup)."""
        config, state = self.state.config, self.state
        port, replica_port, stats_port = config.port + 5, config.port + 6, config.port + 7
        health.wait_drained(app, state.base_url)  # the search's last step worked off
        proxy = HaProxy(state.pm, os.path.join(state.logs, f"haproxy-{run.tag}.log"), port, stats_port,
                        (config.port, replica_port))
        second = None
        try:
            proxy.await_status(REPLICAS[0], "UP", 10)
            proxy.await_status(REPLICAS[1], "DOWN", 10)  # not yet started: out of rotation before the first request
            replicas = Replicas(proxy)
            name = run.tag
            k6_csv = os.path.join(state.out, "k6", f"{name}.csv.gz")
            pgids = dict(k6=None, haproxy=proxy.proc.pgid, db=getattr(self.sampled.get("db"), "pgid", None),
                         **{REPLICAS[0]: app.pgid})
            machine_before = psutil.cpu_times()
            proc = self.k6.start(run, run.seconds, proxy.url, tokens_file, name, csv_path=k6_csv)
            proxy.await_answer(REPLICAS[0], 60)
            started = time.monotonic()
            pgids["k6"] = proc.pgid
            before = cpu_seconds(pgids)
            replicas.begin(started)
            time.sleep(max(0.0, started + scale_out.STEP_AT_S - time.monotonic()))
            log(f"{run.tag}: the load steps to {run.load.value * scale_out.STEP_FACTOR:g}/s; starting replica 2 cold "
                f"on port {replica_port}")
            second = start_replica(replica_port)
            pgids[REPLICAS[1]] = second.pgid
            before[REPLICAS[1]] = 0.0
            # the CPU read a second before k6's planned end: once it has exited, its own is gone
            time.sleep(max(0.0, started + run.seconds - 1 - time.monotonic()))
            after, elapsed = cpu_seconds(pgids), time.monotonic() - started
            machine_pct = busy_pct(machine_before, psutil.cpu_times())
            rc = self.k6.wait(proc, run.seconds, run)
            replicas.stop()
        finally:
            if second is not None:
                state.pm.stop(second)
            state.pm.stop(proxy.proc)
        output = windows.read_k6_csv(k6_csv) if os.path.isfile(k6_csv) else windows.NO_OUTPUT
        if os.path.isfile(k6_csv):
            os.remove(k6_csv)
        requests = output.requests
        start_ms = float((requests["t_ms"] - requests["ms"]).min()) if len(requests) else 0.0
        slo = slo_p99_ms(run.scenario, run.variant)
        if rc not in (0, 99):
            state.failures.append(f"{run.tag}: k6 exit {rc} (script error, setup failure or killed)")
        record = ScaleOutRecord(
            runtime=run.runtime, model=run.model, tag=run.tag, cpus=pod.cpus, memory_mb=pod.memory_mb,
            capacity=capacity, rate_before=run.load.value,
            rate_after=run.load.value * scale_out.STEP_FACTOR, slo_p99_ms=slo, step_s=scale_out.STEP_AT_S,
            ready_s=replicas.ready_s, seconds=int(run.seconds),
            served=replicas.per_second(int(run.seconds)),
            windows=scale_out_results.windows(requests, start_ms, int(run.seconds), slo),
            cpu_pct={k: round(100 * (after[k] - before.get(k, 0.0)) / elapsed, 1) for k in after},
            machine_cpu_pct=machine_pct)
        state.env.append("scale_outs", record)
        log(f"{run.tag}: replica 2 ready {record.ready_s} s after the start (the step at {record.step_s} s); "
            f"{int((~requests['ok']).sum())} of {len(requests)} requests failed")
        return record
