"""One k6 run against the app, and a measured run: k6 with the sampler beside it (and the profiler with
--flamegraph), reduced to one typed row of figures."""
import os
import threading
import time

import psutil

from benchlab.config import Config
from benchlab.model import SETTLE_S, SLO_MAX_BAD_SHARE, Load, LoadKind, PlannedRun, RunRow, settle_s
from benchlab.results import table, windows
from benchlab.run.measure import k6tool, sampler, soak
from benchlab.run.probe import group_cpu_seconds
from benchlab.run.state import BenchState
from benchlab.scenarios import SCENARIOS, scale_out, script_of, slo_p99_ms, variant_of


def request_timeout_s(run: PlannedRun, config: Config) -> float:
    """k6's request timeout: the scenario's own, else --timeout."""
    return SCENARIOS[run.scenario].k6_timeout_s or config.timeout


def k6_env(base_url, run: PlannedRun, seconds, config: Config, tokens_file) -> dict[str, str]:
    timeout = request_timeout_s(run, config)
    closed = run.load.kind == LoadKind.CLOSED  # any other load is an arrival rate (a cost rate, a search's step)
    env = {"BASE_URL": base_url, "MODEL": run.model, "LOAD_MODEL": "closed" if closed else "open",
           "DURATION": f"{int(round(seconds))}s",
           "TOKENS_FILE": tokens_file or "", "USERS": str(config.users), "TIMEOUT": f"{int(timeout)}s",
           # k6's thresholds are the bench's SLO, so that k6's verdict and the report's cannot disagree
           "P99_MS": f"{slo_p99_ms(run.scenario, run.variant):g}", "MAX_ERROR_RATE": f"{SLO_MAX_BAD_SHARE:g}"}
    if not closed:
        env["RATE"] = f"{run.load.value:g}"
        if config.max_vus:
            env.update(PRE_ALLOCATED_VUS=str(min(config.max_vus, max(20, int(run.load.value)))),
                       MAX_VUS=str(config.max_vus))
    else:
        env["VUS"] = f"{run.load.value:g}"
    env.update(variant_of(run.scenario, run.variant).k6_env)
    if run.load.kind == LoadKind.SCALE_OUT:
        env.update(STEP_AT=f"{scale_out.STEP_AT_S}s", STEP_FACTOR=f"{scale_out.STEP_FACTOR:g}")
    if config.live:  # k6's web dashboard on 127.0.0.1:5665 for the run's duration (one run at a time)
        env["K6_WEB_DASHBOARD"] = "true"
    # Every answer's status counts; its body is checked in one iteration in CHECK_EVERY per VU: k6 shares the machine
    # with the app, and reading and checking every body cost k6 more than the app spent on the request.
    env["CHECK_EVERY"] = str(CHECK_EVERY)
    return env


CHECK_EVERY = 20


def own_cpu_seconds() -> float:
    """bench/run's own CPU (the sampler's thread among it): not another process's load on the machine."""
    times = psutil.Process().cpu_times()
    return times.user + times.system


def counter_rate(rows, column) -> float | None:
    """A counter's increase per second between the run's first and last sample that has it."""
    seen = [r for r in rows if r.get(column) is not None]
    if len(seen) < 2:
        return None
    return (seen[-1][column] - seen[0][column]) / max(seen[-1]["t_s"] - seen[0]["t_s"], 1)


def curve_scenario(tokens: bool) -> str:
    """The warm-up curve's load: the first scenario that can be it (a closed load, so that the throughput shows how
    fast a fresh app answers), one that sends tokens when there are tokens (JWT + MySQL), else one without."""
    return next(s.name for s in SCENARIOS.values() if s.curve_vus and s.needs_tokens == tokens)


class K6Runs:
    """k6 runs of one benchmark: warm-ups, the warm-up curve and measured runs."""

    def __init__(self, state: BenchState, k6_exe):
        self.state, self.k6_exe = state, k6_exe
        self.k6_proc = None  # the k6 of the moment, whose CPU the sampler reads
        self.profiler = None  # --flamegraph: one flame graph per run of the app on the host JVM
        self.stacks = None  # --profile: the profiled runs' collapsed stacks
        self.host_jvms: set[str] = set()  # the runtimes whose JVM the profiler can be loaded into

    def k6(self, run: PlannedRun, seconds, base_url, tokens_file, name, csv_path=None):
        """k6 at the run's load for `seconds`, to its end: (exit code, its summary file)."""
        proc = self.start(run, seconds, base_url, tokens_file, name, csv_path)
        return self.wait(proc, seconds, run), os.path.join(self.state.out, "k6", f"{name}.json")

    def start(self, run: PlannedRun, seconds, base_url, tokens_file, name, csv_path=None):
        config = self.state.config
        script = os.path.join(config.k6_dir, script_of(run.scenario, run.variant))
        self.k6_proc = k6tool.start_k6(self.state.pm, self.k6_exe, script,
                                       k6_env(base_url, run, seconds, config, tokens_file),
                                       os.path.join(self.state.out, "k6", f"{name}.json"),
                                       os.path.join(self.state.logs, f"k6-{name}.log"), config.port + 2,
                                       csv_path=csv_path)
        return self.k6_proc

    def wait(self, proc, seconds, run: PlannedRun | None = None) -> int:
        """k6's exit code, once it ended; killed when it outlives its run by far (a request timeout and 2 minutes)."""
        timeout = seconds + (request_timeout_s(run, self.state.config) if run else 0) + 120
        return k6tool.wait_k6(self.state.pm, proc, timeout)

    def warmup_curve(self, rt_name, base_url, tokens_file) -> dict:
        """Successful requests per second over the first --warmup-curve seconds of load on a freshly started app."""
        scenario = curve_scenario(tokens=bool(tokens_file))
        config = self.state.config
        run = PlannedRun(0, rt_name, scenario, Load(LoadKind.CLOSED, SCENARIOS[scenario].curve_vus), 0,
                         config.models[0], config.warmup_curve)
        name = f"warmup-curve-{rt_name}"
        csv_path = os.path.join(self.state.out, "k6", f"{name}.csv.gz")
        rc, _ = self.k6(run, run.seconds, base_url, tokens_file, name, csv_path=csv_path)
        if rc not in (0, 99):
            raise RuntimeError(f"k6 failed during the warm-up curve (exit {rc}); see {self.state.logs}/k6-{name}.log")
        per = windows.per_second(windows.read_k6_csv(csv_path).requests)
        os.remove(csv_path)  # reduced to per-second counts, like a measured run's
        ok = dict(zip(per.t, per.ok))
        # every second from the first answer on, quiet ones as 0; the last one is cut short by k6's stop
        seconds = range(min(ok), max(ok)) if ok else range(0)
        return {"load": f"{scenario} on {run.model}, {run.load.label} (closed model)",
                "ok_per_s": [int(ok.get(t, 0)) for t in seconds]}

    def k6_cpu(self):
        p = self.k6_proc
        return group_cpu_seconds(p.pgid) if p is not None and p.alive() else None

    def measure(self, run: PlannedRun, probe, base_url, tokens_file, services, attempt: int = 1,
                jcmd: str | None = None, nmt_note: str = "", connections: dict[str, int] | None = None,
                pod=None) -> RunRow:
        """k6 at the run's load for its settling seconds (model.settle_s) and then the run's seconds, the sampler (and
        profiler) beside it; `services`: our processes whose CPU is sampled too. Its figures are those of the requests
        that started after the settling seconds; a second measurement keeps its files beside the first's. A soak also
        samples the app's `connections` (column -> remote port), tracks its native memory with `jcmd` (or says why not,
        `nmt_note`) and is recorded whole in results.json. `pod`: the CPU budget the app runs within (a CpuBudget),
        whose quota's throttling the row records."""
        name = run.tag if attempt == 1 else f"{run.tag}-attempt{attempt}"
        others = {"k6": self.k6_cpu, "bench": own_cpu_seconds}
        for service, proc in services.items():
            others[service] = lambda proc=proc: group_cpu_seconds(proc.pgid)
        soaking = run.load.kind == LoadKind.SOAK
        split = self.state.config.cpu_split
        smp = sampler.Sampler(probe, f"{base_url}/lab/saturation",
                              os.path.join(self.state.out, "samples", f"{name}.csv"), others,
                              connections=connections if soaking else None, split=split,
                              throttling=pod.throttling if pod is not None else None)
        nmt = soak.NativeMemory(jcmd, probe.pid if probe is not None else None, self.state.out, name, nmt_note)
        if soaking:
            nmt.start()
        # plain text: gzip cost k6 6 % of its CPU at 1,000/s, and the file is reduced to windows and deleted at once
        k6_csv = os.path.join(self.state.out, "k6", f"{name}.csv")
        profiled = self.profiler is not None and run.runtime in self.host_jvms and probe is not None
        if profiled:
            self.profiler.start(probe.pid)
        stacks = self.stacks_after_settling(run, probe)
        smp.start()
        started_at = time.time()
        try:
            rc, summary_file = self.k6(run, settle_s(run.load.kind) + run.seconds, base_url, tokens_file, name,
                                       csv_path=k6_csv)
        finally:
            ended_at = time.time()
            smp.stop()
            if profiled:
                self.profiler.stop(probe.pid, name)
            collapsed = self.stop_stacks(stacks, probe, name)
            areas = nmt.change() if soaking else None
        k6_summary = k6tool.read_summary(summary_file, run.model) if os.path.isfile(summary_file) else {}
        if os.path.isfile(k6_csv):
            output = windows.read_k6_csv(k6_csv)
            os.remove(k6_csv)  # reduced to per-second windows; the raw samples are tens of MB
            requests, dropped, since_ms = windows.settled(output, settle_s(run.load.kind))
            failed_all = int((~output.requests["ok"]).sum())
        else:  # k6 did not get to write it: its summary's counts are all there is
            output, requests, since_ms = windows.NO_OUTPUT, windows.EMPTY, None
            dropped, failed_all = int(k6_summary.get("dropped_iterations", 0)), int(k6_summary.get("errors", 0))
        if since_ms is not None:
            smp.keep_between(since_ms / 1000, float(requests["t_ms"].max()) / 1000 if len(requests) else ended_at)
        table.append_windows(self.state.out, run.tag, windows.per_second(requests))
        if soaking:
            self.state.env.append("soaks", soak.record(run, smp.rows, nmt, areas))
        figures = windows.summary(requests, closed=run.load.kind == LoadKind.CLOSED)
        row = run_row(run, figures, dropped, k6_summary, rc, smp, smp.cpu_ms_per_request(output.requests),
                      sampled=probe is not None or bool(smp.rows), started_at=started_at, ended_at=ended_at)
        chosen = self.state.budget(run.runtime)
        row.app_cpus = chosen.cpus if chosen is not None else None
        split = self.state.config.cpu_split
        if split:
            row.rig_cpus, row.rig_cpu_pct = len(split.rig), smp.mean("rig_cpu_pct")
            row.app_set_cpus, row.app_set_cpu_pct = len(split.app), smp.mean("app_set_cpu_pct")
        row.failed_all = failed_all
        row.throttled_pct, row.throttled_ms_per_s = smp.throttled()
        row.profile = os.path.relpath(collapsed, self.state.out) if collapsed else None
        return row

    def stacks_after_settling(self, run: PlannedRun, probe):
        """A profiled run's recording, started once the run's settling seconds are over (a timer; None: none)."""
        if run.load.kind != LoadKind.PROFILE or self.stacks is None or probe is None or \
                run.runtime not in self.host_jvms:
            return None
        started = threading.Event()

        def start():
            self.stacks.start(probe.pid, run.event)
            started.set()

        timer = threading.Timer(SETTLE_S, start)
        timer.start()
        return timer, started

    def stop_stacks(self, stacks, probe, name: str) -> str | None:
        if stacks is None:
            return None
        timer, started = stacks
        timer.cancel()
        timer.join()
        return self.stacks.stop_collapsed(probe.pid, name) if started.is_set() else None


def run_row(run: PlannedRun, figures, dropped, k6_summary, k6_exit, smp, cpu_ms_per_req, sampled, started_at,
            ended_at) -> RunRow:
    """A run's row: k6's figures beside the sampler's means and peaks (sampler.py's columns)."""
    gc_share = counter_rate(smp.rows, "gc_pause_seconds")
    # the JVM counts allocations at each young collection: none during the run says nothing, not "no allocation"
    allocated = counter_rate(smp.rows, "allocated_bytes") or None
    jit = counter_rate(smp.rows, "jit_ms")
    queue_peaks = (v for v in (smp.peak("worker_queue"), smp.peak("branch_queue")) if v is not None)
    return RunRow(
        tag=run.tag, runtime=run.runtime, scenario=run.scenario, model=run.label, variant=run.variant, twin=run.twin,
        load_model=run.load.kind, load=run.load.value, repetition=run.repetition, planned_s=run.seconds, **figures,
        dropped=dropped, k6_exit=k6_exit,
        checks_failed=int(k6_summary.get("checks_failed", 0)),
        app_cpu_pct=smp.mean("app_cpu_pct"), k6_cpu_pct=smp.mean("k6_cpu_pct"), db_cpu_pct=smp.mean("db_cpu_pct"),
        downstream_cpu_pct=smp.mean("downstream_cpu_pct"), host_cpu_pct=smp.mean("host_cpu_pct"),
        bench_cpu_pct=smp.mean("bench_cpu_pct"), other_cpu_pct=smp.mean("other_cpu_pct"),
        steal_cpu_pct=smp.mean("steal_cpu_pct"),
        app_cpu_ms_per_req=cpu_ms_per_req,
        rss_peak_mb=smp.peak("rss_mb"), threads_peak=smp.peak("os_threads"),
        worker_queue_max=max(queue_peaks, default=None),
        worker_threads_max=smp.peak("worker_threads"), jdbc_awaiting_max=smp.peak("jdbc_awaiting"),
        jdbc_blocking_ms_avg=smp.mean("jdbc_blocking_ms"), sql_queue_max=smp.peak("sql_queue"),
        downstream_waiting_max=smp.peak("downstream_waiting"),
        gc_share_pct=None if gc_share is None else round(100 * gc_share, 2),
        alloc_mb_per_s=None if allocated is None else round(allocated / 2**20, 1),
        jit_ms_per_s=None if jit is None else round(jit, 1), slo_p99_ms=slo_p99_ms(run.scenario, run.variant),
        local_hit_pct=smp.share("cache_local_hits", "cache_local_lookups"),
        remote_hit_pct=smp.share("cache_remote_hits", "cache_remote_lookups"),
        metrics_missed_pct=None if not sampled else
        round(100 * sum(r.get("metrics_missed", 0) for r in smp.rows) / max(len(smp.rows), 1), 1),
        started_at=round(started_at, 3), ended_at=round(ended_at, 3))
