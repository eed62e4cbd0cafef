"""The measured part: start what the plan needs, warm up, run every planned run, write one row per run."""
import dataclasses
import itertools
import os
import shutil
import tempfile
import threading
import time
import traceback

from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from benchlab.config import Config
from benchlab.model import SLO_MAX_BAD_SHARE, Limit, Load, LoadKind, PlannedRun, RunRow
from benchlab.plan.planner import Plan, app_key
from benchlab.plan.search import Search, SearchSettings
from benchlab.report.wording import duration
from benchlab.results import slo, table, why, windows
from benchlab.run import drivers, jvm, k6tool, pinned, pinning, profiler, runtimes, sampler, services, startup
from benchlab.run.procs import CONSOLE, Interrupted, ProcessManager, install_signal_handlers, log, run_checked
from benchlab.run.services import ROOT
from benchlab.scenarios import SCENARIOS, script_of, variant_of


def curve_scenario(tokens: bool) -> str:
    """The warm-up curve's load: the first scenario that can be it (a closed load, so that the throughput shows how
    fast a fresh app answers), one that sends tokens when there are tokens (JWT + MySQL), else one without."""
    return next(s.name for s in SCENARIOS.values() if s.curve_vus and s.needs_tokens == tokens)


def counter_rate(rows, column) -> float | None:
    """A counter's increase per second between the run's first and last sample that has it."""
    seen = [r for r in rows if r.get(column) is not None]
    if len(seen) < 2:
        return None
    return (seen[-1][column] - seen[0][column]) / max(seen[-1]["t_s"] - seen[0]["t_s"], 1)


def k6_env(base_url, run: PlannedRun, seconds, config, tokens_file):
    timeout = SCENARIOS[run.scenario].k6_timeout_s or config.timeout
    env = {"BASE_URL": base_url, "MODEL": run.model, "LOAD_MODEL": run.load.kind, "DURATION": f"{int(round(seconds))}s",
           "TOKENS_FILE": tokens_file or "", "USERS": str(config.users), "TIMEOUT": f"{int(timeout)}s",
           # k6's thresholds are the bench's SLO, so that k6's verdict and the report's cannot disagree
           "P99_MS": f"{SCENARIOS[run.scenario].slo_p99_ms:g}", "MAX_ERROR_RATE": f"{SLO_MAX_BAD_SHARE:g}"}
    if run.load.kind == LoadKind.OPEN:
        env["RATE"] = f"{run.load.value:g}"
        if config.max_vus:
            env.update(PRE_ALLOCATED_VUS=str(min(config.max_vus, max(20, int(run.load.value)))),
                       MAX_VUS=str(config.max_vus))
    else:
        env["VUS"] = f"{run.load.value:g}"
    env.update(variant_of(run.scenario, run.variant).k6_env)
    if config.live:  # k6's web dashboard on 127.0.0.1:5665 for the run's duration (one run at a time)
        env["K6_WEB_DASHBOARD"] = "true"
    return env


class Bench:
    """The processes of one benchmark and the figures they give; run() drives the plan."""

    def __init__(self, config: Config, plan: Plan):
        self.config, self.plan = config, plan
        self.pm = ProcessManager()
        self.out = config.out
        self.logs = os.path.join(config.out, "logs")
        self.rows: list[RunRow] = []
        self.failures: list[str] = []
        self.env: dict = {}
        self.db = None
        self.downstream = None
        self.redis_url = None
        self.profiler = None  # --flamegraph: one flame graph per run of the app on the host JVM
        self.k6_proc = None
        split = pinning.split_cores(os.cpu_count() or 1) if config.pin else None
        self.k6_cores, self.app_cores = split if split else (None, None)

    # --- the app and what it needs -------------------------------------------------------------------------------

    def start_services(self, java_home, workdir):
        """Database, tokens and the downstream service (which seeds the users). Returns (props, env, tokens file)."""
        config = self.config
        jwt = services.Jwt(config.jwt, workdir)
        tokens_file, token_error = None, []
        token_thread = None
        if any(SCENARIOS[s].needs_tokens for s in config.scenarios):
            tokens_file = os.path.join(workdir, "tokens.txt")
            log(f"signing {config.users} {config.jwt.upper()} tokens (in parallel with the database start)")

            def sign():
                try:
                    services.generate_tokens(self.pm, config.users, tokens_file, jwt, self.logs)
                except BaseException as e:  # noqa: BLE001 - re-raised by the main thread
                    token_error.append(e)

            token_thread = threading.Thread(target=sign, daemon=True)
            token_thread.start()
        if config.db_url:
            db_url = config.db_url
        else:
            log("starting the database: ./mvnw -q exec:exec@database")
            t = time.time()
            self.db, db_url = services.start_database(self.pm, java_home, self.logs)
            log(f"database ready in {time.time() - t:.0f} s: {db_url}")
        props = {"quarkus.http.host": "127.0.0.1", "quarkus.datasource.jdbc.url": db_url,
                 "quarkus.datasource.username": config.db_user, "quarkus.datasource.password": config.db_password,
                 **jwt.props}
        child_env = dict(os.environ, **jwt.env)
        ds_port = config.port + 1
        # The downstream service (same jar) seeds the users, so that every app start finds the same database state
        # and no app start-up includes the seeding.
        ds_props = dict(props, **{"quarkus.http.port": ds_port, "lab.seed.users": config.users})
        backend_ports = (config.port + 3, config.port + 4)
        gateway = any(SCENARIOS[s].backends for s in config.scenarios)
        if gateway:  # the gateway's two backend instances, beside the downstream service in its process
            ds_props["lab.backend.ports"] = ",".join(map(str, backend_ports))
        ds = self.pm.start("downstream", runtimes.JvmRuntime().command(ROOT, java_home, ds_port, ds_props),
                           os.path.join(self.logs, "downstream.log"), env=child_env, cwd=ROOT)
        if token_thread:
            token_thread.join(timeout=900)
            if token_error:
                raise token_error[0]
        services.wait_ready(ds, f"http://127.0.0.1:{ds_port}/q/health/ready", 180, "downstream service")
        self.downstream = ds
        log(f"downstream ready on port {ds_port}, {config.users} users seeded")
        redis = None
        if any(variant_of(r.scenario, r.variant).redis for r in self.plan.runs):
            log("starting Redis for the remote cache tier: ./mvnw -q exec:exec@redis")
            redis, self.redis_url = services.start_redis(self.pm, java_home, self.logs)
            log(f"Redis ready: {self.redis_url}")
        if self.app_cores:
            for proc in (self.db, ds, redis):
                if proc is not None:
                    pinning.pin_group(proc.pgid, self.app_cores)
        # No drain on stop: the bench stops the app only between runs (a restart after a starved run, the end),
        # with nothing in flight worth waiting for.
        app_props = dict(props, **{"quarkus.http.port": config.port,
                                   "quarkus.rest-client.downstream.url": f"http://127.0.0.1:{ds_port}",
                                   "quarkus.shutdown.delay-enabled": "false", "quarkus.shutdown.timeout": "1s"})
        if gateway:
            app_props["lab.gateway.instances"] = ",".join(f"http://127.0.0.1:{p}" for p in backend_ports)
        return app_props, child_env, tokens_file, db_url

    def start_app(self, rt, java_home, props, child_env, tokens_file, log_name):
        base_url = f"http://127.0.0.1:{self.config.port}"
        t = time.time()
        proc = rt.start(self.pm, ROOT, java_home, self.config.port, props, child_env, os.path.join(self.logs, log_name))
        first = services.first_success(proc, base_url, self.config, tokens_file, t, 300, f"app ({rt.name})")
        services.wait_ready(proc, f"{base_url}/q/health/ready", 60, f"app ({rt.name})")
        if self.app_cores and getattr(proc, "pgid", None):
            pinning.pin_group(proc.pgid, self.app_cores)
        return proc, first

    def cold_starts(self, rt, java_home, props, child_env, tokens_file) -> list[dict]:
        """--cold-starts fresh starts of the app, each stopped after its first successful request: seconds from the
        start command to that answer, Quarkus's own "started in", and the RSS at that moment."""
        base_url = f"http://127.0.0.1:{self.config.port}"
        starts = []
        for i in range(1, self.config.cold_starts + 1):
            t = time.time()
            proc = rt.start(self.pm, ROOT, java_home, self.config.port, props, child_env,
                            os.path.join(self.logs, f"cold-{rt.name}-{i}.log"))
            try:
                first = services.first_success(proc, base_url, self.config, tokens_file, t, 300, f"app ({rt.name})")
                starts.append({"first_request_s": round(first, 3), "rss_mb": startup.rss_mb(proc.pid),
                               "quarkus_started_s": services.quarkus_started(proc)})
            finally:
                self.pm.stop(proc)
            log(f"cold start {i}/{self.config.cold_starts} of {rt.name}: first successful request after {first:.2f} s")
        return starts

    def warmup_curve(self, rt_name, base_url, tokens_file) -> dict:
        """Successful requests per second over the first --warmup-curve seconds of load on a freshly started app."""
        scenario = curve_scenario(tokens=bool(tokens_file))
        run = PlannedRun(0, rt_name, scenario, Load(LoadKind.CLOSED, SCENARIOS[scenario].curve_vus), 0,
                         self.config.models[0], self.config.warmup_curve)
        name = f"warmup-curve-{rt_name}"
        csv_path = os.path.join(self.out, "k6", f"{name}.csv.gz")
        rc, _ = self.k6(run, run.seconds, base_url, tokens_file, name, csv_path=csv_path)
        if rc not in (0, 99):
            raise RuntimeError(f"k6 failed during the warm-up curve (exit {rc}); see {self.logs}/k6-{name}.log")
        per = windows.per_second(windows.read_k6_csv(csv_path))
        os.remove(csv_path)  # reduced to per-second counts, like a measured run's
        ok = dict(zip(per.t, per.ok))
        # every second from the first answer on, quiet ones as 0; the last one is cut short by k6's stop
        seconds = range(min(ok), max(ok)) if ok else range(0)
        return {"load": f"{scenario} on {run.model}, {run.load.label} (closed model)",
                "ok_per_s": [int(ok.get(t, 0)) for t in seconds]}

    # --- one k6 run ----------------------------------------------------------------------------------------------

    def k6(self, run: PlannedRun, seconds, base_url, tokens_file, name, csv_path=None):
        summary = os.path.join(self.out, "k6", f"{name}.json")
        script = os.path.join(self.config.k6_dir, script_of(run.scenario, run.variant))
        rc = k6tool.run_k6(self.pm, self.k6_exe, script, k6_env(base_url, run, seconds, self.config, tokens_file),
                           summary, os.path.join(self.logs, f"k6-{name}.log"), self.config.port + 2,
                           timeout=seconds + (SCENARIOS[run.scenario].k6_timeout_s or self.config.timeout) + 120, csv_path=csv_path, cores=self.k6_cores,
                           started=lambda p: setattr(self, "k6_proc", p))
        return rc, summary

    def k6_cpu(self):
        p = self.k6_proc
        return sampler.group_cpu_seconds(p.pgid) if p is not None and p.alive() else None

    def measure(self, run: PlannedRun, rt_name, probe, base_url, tokens_file) -> RunRow:
        samples_csv = os.path.join(self.out, "samples", f"{run.tag}.csv")
        others = {"k6": self.k6_cpu}
        if self.db is not None:
            others["db"] = lambda: sampler.group_cpu_seconds(self.db.pgid)
        if self.downstream is not None:
            others["downstream"] = lambda: sampler.group_cpu_seconds(self.downstream.pgid)
        smp = sampler.Sampler(probe, f"{base_url}/lab/saturation", samples_csv, others)
        cpu_before = probe.cpu_seconds() if probe else None
        k6_csv = os.path.join(self.out, "k6", f"{run.tag}.csv.gz")
        profiled = self.profiler is not None and rt_name == "jvm" and probe is not None
        if profiled:
            self.profiler.start(probe.pid)
        smp.start()
        started_at = time.time()
        try:
            rc, summary_file = self.k6(run, run.seconds, base_url, tokens_file, run.tag, csv_path=k6_csv)
        finally:
            ended_at = time.time()
            smp.stop()
            if profiled:
                self.profiler.stop(probe.pid, run.tag)
        cpu = probe.cpu_seconds() - cpu_before if probe and probe.pid and os.path.exists(f"/proc/{probe.pid}") \
            else None
        k6_summary = k6tool.read_summary(summary_file, run.model) if os.path.isfile(summary_file) else {}
        requests = windows.read_k6_csv(k6_csv) if os.path.isfile(k6_csv) else windows.EMPTY
        table.append_windows(self.out, run.tag, windows.per_second(requests))
        if os.path.isfile(k6_csv):
            os.remove(k6_csv)  # reduced to per-second windows; the raw samples are tens of MB
        figures = windows.summary(requests, closed=run.load.kind == LoadKind.CLOSED)
        gc_share = counter_rate(smp.rows, "gc_pause_seconds")
        allocated = counter_rate(smp.rows, "allocated_bytes")
        return RunRow(
            tag=run.tag, runtime=rt_name, scenario=run.scenario, model=run.model, variant=run.variant,
            load_model=run.load.kind,
            load=run.load.value, repetition=run.repetition, planned_s=run.seconds, **figures,
            dropped=int(k6_summary.get("dropped_iterations", 0)), k6_exit=rc,
            checks_failed=int(k6_summary.get("checks_failed", 0)),
            app_cpu_pct=smp.mean("app_cpu_pct"), k6_cpu_pct=smp.mean("k6_cpu_pct"), db_cpu_pct=smp.mean("db_cpu_pct"),
            downstream_cpu_pct=smp.mean("downstream_cpu_pct"),
            host_cpu_pct=smp.mean("host_cpu_pct"),
            app_cpu_ms_per_req=round(1000 * cpu / figures["requests"], 3) if cpu and figures["requests"] else None,
            rss_peak_mb=smp.peak("rss_mb"), threads_peak=smp.peak("os_threads"),
            worker_queue_max=max((v for v in (smp.peak("worker_queue"), smp.peak("branch_queue")) if v is not None),
                                 default=None),
            worker_threads_max=smp.peak("worker_threads"), jdbc_awaiting_max=smp.peak("jdbc_awaiting"),
            jdbc_blocking_ms_avg=smp.mean("jdbc_blocking_ms"), sql_queue_max=smp.peak("sql_queue"),
            downstream_waiting_max=smp.peak("downstream_waiting"),
            gc_share_pct=None if gc_share is None else round(100 * gc_share, 2),
            alloc_mb_per_s=None if allocated is None else round(allocated / 2**20, 1),
            local_hit_pct=smp.share("cache_local_hits", "cache_local_lookups"),
            remote_hit_pct=smp.share("cache_remote_hits", "cache_remote_lookups"),
            metrics_missed_pct=None if probe is None and not smp.rows else
            round(100 * sum(r.get("metrics_missed", 0) for r in smp.rows) / max(len(smp.rows), 1), 1),
            started_at=round(started_at, 3), ended_at=round(ended_at, 3))

    def check(self, row: RunRow):
        if row.k6_exit not in (0, 99):
            self.failures.append(f"{row.tag}: k6 exit {row.k6_exit} (script error, setup failure or killed)")
        if row.checks_failed and row.errors == 0:
            # failed checks on answered requests (wrong body): the app is broken, not overloaded
            self.failures.append(f"{row.tag}: {row.checks_failed} failed checks without failed requests")

    # --- the whole run -------------------------------------------------------------------------------------------

    def warm_up(self, proc, first: PlannedRun, base_url, tokens_file, label, seconds=None):
        """Every model of a block (a scenario under one app configuration) at the scenario's lowest load, before
        any measurement of the block: for the JIT, without overloading a model before it is measured. Where each
        model has an app of its own, only that model."""
        seconds = seconds or self.config.warmup
        scenario = first.scenario
        load = min(self.config.load_levels[scenario], key=lambda l: (l.kind == LoadKind.CLOSED, l.value))
        if load.kind == LoadKind.SEARCH:  # at the search's first rate
            load = Load(LoadKind.OPEN, load.value)
        if SCENARIOS[scenario].warmup_vus is not None:
            load = Load(LoadKind.CLOSED, SCENARIOS[scenario].warmup_vus)
        models = [m for m in self.config.models if m in variant_of(scenario, first.variant).models]
        if SCENARIOS[scenario].app_per_model:
            models = [first.model]
        for model in models:
            if proc is not None:  # an app of ours (not --target): let it finish the previous backlog
                services.wait_drained(proc, base_url)
            run = PlannedRun(0, first.runtime, scenario, load, 0, model, seconds, first.variant)
            rc, _ = self.k6(run, seconds, base_url, tokens_file, f"{label}-{run.tag}")
            if rc not in (0, 99):
                raise RuntimeError(f"k6 failed during warm-up (exit {rc}); see {self.logs}/k6-{label}-{run.tag}.log")

    def run_all(self):
        config = self.config
        workdir = tempfile.mkdtemp(prefix="bench-")
        status = 0
        started = time.time()
        try:
            java_home = services.find_java_home()
            self.k6_exe = k6tool.find_or_install_k6(ROOT, self.logs)
            if self.config.live:
                log("--live: each k6 run serves its web dashboard on http://127.0.0.1:5665 while it runs")
            self.env = services.environment(config, java_home, k6tool.k6_version(self.k6_exe))
            self.env.update(pinning=pinning.describe(config.pin, os.cpu_count() or 1),
                            planned_seconds=round(self.plan.planned_seconds()),
                            planned_seconds_at_most=round(self.plan.planned_seconds(upper_bound=True)), **config.settings)
            if config.target:
                status = self.run_target(config.target)
            else:
                status = self.run_local(java_home, workdir)
        except Interrupted as e:
            log(f"interrupted ({e}): stopping everything")
            status = 130
        except Exception as e:  # noqa: BLE001 - any failure: clear message, cleanup, non-zero exit
            log(f"ERROR: {e}")
            with open(os.path.join(self.logs, "error.log"), "a") as f:
                traceback.print_exc(file=f)
            status = 1
        finally:
            if not self.pm.stop_all():
                status = status or 1
            shutil.rmtree(workdir, ignore_errors=True)
        self.env.update(wall_seconds=round(time.time() - started), failures=self.failures, complete=status == 0)
        table.write(self.out, self.rows, self.env)
        return status

    def run_local(self, java_home, workdir):
        config = self.config
        jar = os.path.join(ROOT, "target/quarkus-app/quarkus-run.jar")
        if config.rebuild or not os.path.isfile(jar):
            log("building the app: ./mvnw -B -q package -DskipTests (about 1 minute; several more the first time, "
                "while Maven downloads the plugins and dependencies)")
            run_checked([os.path.join(ROOT, "mvnw"), "-B", "-q", "package", "-DskipTests"],
                        os.path.join(self.logs, "build.log"), timeout=1800, cwd=ROOT, what="Maven build")
        # MySQL Connector/J per packaged app, as packaged (the report's settings)
        self.env["mysql_driver"] = {drivers.SHIPPED_APP: drivers.packaged_version(ROOT, drivers.SHIPPED_APP)}
        app_dirs = {}  # driver version -> the packaged app that has it
        for version in sorted({variant_of(r.scenario, r.variant).driver for r in self.plan.runs} - {None}):
            app_dirs[version] = drivers.prepare(ROOT, version, self.logs, config.rebuild)
            self.env["mysql_driver"][app_dirs[version]] = version
        rt_options = dict(jvm_args=config.jvm_args, native_exe=config.native_exe, cpus=config.cpus, memory=config.memory,
                          base_image=config.base_image)
        rts = {r: runtimes.make(r, rt_options, config.jdk_runtimes.get(r)) for r in config.runtimes}
        for rt in rts.values():
            home = rt.java_home or java_home
            rt.check(ROOT, home)
            self.env.setdefault("runtime_info", {})[rt.name] = dict(rt.prepare(self.pm, ROOT, home, self.logs),
                                                                     limits=rt.limits(), java_home=home)
        # the report's start-up table says why a native runtime has no row of figures
        self.env["native_executables"] = [os.path.relpath(f, ROOT) for f in runtimes.find_runners(ROOT)]
        if config.flamegraph:
            log(f"flame graphs ({config.flamegraph}) of every run of the jvm runtime: async-profiler {profiler.VERSION}")
            self.profiler = profiler.Profiler(java_home, profiler.library(ROOT, self.logs), config.flamegraph,
                                              os.path.join(self.out, "flamegraphs"))
            self.env["flamegraphs"] = (f"async-profiler {profiler.VERSION}, event {config.flamegraph}: "
                                       f"flamegraphs/<run>-{config.flamegraph}.html, one per run of the jvm runtime")
        services_up = self.start_services(java_home, workdir)
        jfr_dir = os.path.join(self.logs, "jfr")
        # The app of the moment and what it runs: (runtime, properties, packaged app); each runtime's first app (its
        # start-up measurement) runs the plain configuration. The plan's blocks come in its order: a runtime after
        # another, or taking turns with --jdk.
        app, probe, running = None, None, None
        started_up = set()
        for _, block in itertools.groupby(self.plan.runs, key=lambda r: (r.scenario, r.variant, app_key(r))):
            block = list(block)
            rt = rts[block[0].runtime]
            home = rt.java_home or java_home  # the app's JDK; the services and the tools run on the bench's
            if rt.name not in started_up:
                started_up.add(rt.name)
                if app is not None:
                    self.pm.stop(app)
                app, probe = self.start_up(rt, home, java_home, services_up, jfr_dir)
                running = (rt.name, services_up[0], drivers.SHIPPED_APP)
            t_block = time.time()
            app, probe, running = self.run_block(block, rt, home, app, probe, running, services_up, app_dirs)
            self.env["load_seconds"] = round(self.env.get("load_seconds", 0) + time.time() - t_block)
        if app is not None:
            self.pm.stop(app)
        if os.path.isdir(jfr_dir):
            recorded = {rt.name for rt in rts.values() if getattr(rt, "records_jfr", False)}
            problems = pinned.count(java_home, jfr_dir, [r for r in self.rows if r.runtime in recorded])
            self.env["pinned_recording"] = "; ".join(problems) if problems else \
                f"JFR {pinned.EVENT}, every pin, in {os.path.relpath(jfr_dir, self.out)}"
        return 1 if any("k6 exit" in f or "failed checks" in f for f in self.failures) else 0

    def start_up(self, rt, home, java_home, services_up, jfr_dir):
        """A runtime's first app: its cold starts, then a start with the recording and the profiler's agent, a smoke
        test, its idle RSS, the warm-up curve and (once) the database's point-select rate. Returns (app, probe)."""
        config = self.config
        props, child_env, tokens_file, db_url = services_up
        base_url = f"http://127.0.0.1:{config.port}"
        info = self.env["runtime_info"][rt.name]
        if config.cold_starts:
            info["cold_starts"] = self.cold_starts(rt, home, props, child_env, tokens_file)
        # After the cold starts: the JFR recording and the profiler's agent loading cost start-up time of their own.
        if isinstance(rt, runtimes.JvmRuntime):
            if rt.records_jfr:  # the app on the host JVM only
                rt.jvm_args += [pinned.jvm_option(jfr_dir),
                                *pinned.trace_options(jvm.feature_version(home))]
            if config.flamegraph:
                rt.jvm_args.append(profiler.JVM_OPTION)
        app, first = self.start_app(rt, home, props, child_env, tokens_file, f"app-{rt.name}.log")
        probe = rt.probe(app)
        log(f"app ({rt.name}) answered its first request {first:.2f} s after its start; pid {app.pid}")
        info.update(first_request_s=round(first, 2), probe=probe.describe(),
                    quarkus_started_s=services.quarkus_started(app), command=rt.describe(ROOT, home))
        warnings = rt.start_warnings(app)
        if warnings:
            info["start_warnings"] = warnings
            log(f"WARNING: app ({rt.name}): {' / '.join(warnings)}; see {app.log_path}")
        services.smoke_test(base_url, config, tokens_file)
        info["rss_idle_mb"] = startup.rss_mb(app.pid)
        if config.warmup_curve:
            info["warmup_curve"] = self.warmup_curve(rt.name, base_url, tokens_file)
            log(f"app ({rt.name}) warm-up curve: {info['warmup_curve']['ok_per_s']} successful requests/s")
        if any(SCENARIOS[s].limit == Limit.POINT_SELECT for s in config.scenarios) and "point_select" not in self.env:
            threads = int(self.env["jdbc_pool_max"])
            log(f"measuring the database's point-select rate ({threads} JDBC threads, "
                f"{config.pointselect_seconds:.0f} s; the app is idle)")
            self.env["point_select"] = services.point_select_rate(self.pm, java_home, db_url, config, threads,
                                                                  self.logs)
            log(f"point-select rate: {self.env['point_select']['qps']:.0f} queries/s")
        return app, probe

    def run_block(self, block, rt, home, app, probe, running, services_up, app_dirs):
        """A block of runs under one app: a fresh app if the block needs another runtime, configuration or packaging
        (or each model has one of its own), a warm-up, the runs, and what the JVM's pinned-thread trace saw."""
        props, child_env, tokens_file, db_url = services_up
        base_url = f"http://127.0.0.1:{self.config.port}"
        scenario, variant = block[0].scenario, variant_of(block[0].scenario, block[0].variant)
        block_props = dict(props, **block[0].props)
        if variant.redis:
            block_props["quarkus.redis.hosts"] = self.redis_url
        app_dir = app_dirs.get(variant.driver, drivers.SHIPPED_APP)
        block_rt = rt.on_app(app_dir) if app_dir != drivers.SHIPPED_APP else rt
        logs = [app.log_path]
        if (rt.name, block_props, app_dir) != running or SCENARIOS[scenario].app_per_model:
            self.pm.stop(app)
            app, _ = self.start_app(block_rt, home, block_props, child_env, tokens_file,
                                    f"app-{rt.name}-{variant.name or 'default'}.log")
            probe, running, logs = block_rt.probe(app), (rt.name, block_props, app_dir), [app.log_path]
            log(f"app ({rt.name}) restarted for {scenario} {variant.name} {block[0].model}: pid {app.pid}")
        self.warm_up(app, block[0], base_url, tokens_file, "warmup")

        def restart(n):
            proc, _ = self.start_app(block_rt, home, block_props, child_env, tokens_file,
                                     f"app-{rt.name}-restart{n}.log")
            logs.append(proc.log_path)
            return proc, block_rt.probe(proc)

        first_row = len(self.rows)
        app, probe = self.run_plan(block, app, probe, base_url, tokens_file, restart, db_url)
        if getattr(rt, "records_jfr", False):
            traced = pinned.TRACE_OPTION in rt.jvm_args  # set at the runtime's start-up where its JDK has the trace
            seen = [pinned.read_trace(path, traced) for path in logs]
            for row in self.rows[first_row:]:
                row.pinned_trace = None if not traced else any(t.pinned for t in seen)
        return app, probe, running

    def run_target(self, base_url):
        """An app started elsewhere: no database, downstream or app of ours, no process figures, same scripts."""
        config = self.config
        needing = [s for s in config.scenarios if SCENARIOS[s].needs_tokens]
        if needing and not config.tokens:
            raise RuntimeError(f"--target with the {', '.join(needing)} scenario needs --tokens FILE: tokens signed "
                               f"with the target's key (one per line)")
        configured = sorted({r.scenario for r in self.plan.runs if r.props})
        if configured:
            raise RuntimeError(f"--target cannot measure {', '.join(configured)}: its variants configure the app "
                               f"(pool sizes, executors), which only a local run can start; measure it locally")
        try:
            services.smoke_test(base_url, config, config.tokens)
        except OSError as e:
            raise RuntimeError(f"--target {base_url} does not answer: {e}") from e
        t_load = time.time()
        for _, block in itertools.groupby(self.plan.runs, key=lambda r: r.scenario):
            block = list(block)
            self.warm_up(None, block[0], base_url, config.tokens, "warmup")
            self.run_plan(block, None, None, base_url, config.tokens, None, None)
        self.env["load_seconds"] = round(time.time() - t_load)
        return 1 if any("k6 exit" in f for f in self.failures) else 0

    def run_plan(self, runs, app, probe, base_url, tokens_file, restart, db_url):
        """Runs a block; returns the app and its probe, which are new if the app had to be restarted. The runs of a
        capacity search (one per model and repetition) are searched together, their steps interleaved."""
        block = _Block(app, probe, base_url, tokens_file, restart, db_url)
        with Progress(TextColumn("{task.description}"), BarColumn(), TimeRemainingColumn(), console=CONSOLE,
                      transient=True) as progress:
            task = progress.add_task("runs", total=len(runs))
            searched = lambda r: r.load.kind == LoadKind.SEARCH  # noqa: E731
            for _, group in itertools.groupby(runs, key=lambda r: (r.repetition, r.load) if searched(r) else r.index):
                group = list(group)
                if searched(group[0]):
                    self.search(group, block, progress, task)
                else:
                    self.ladder_step(group[0], block, progress, task)
        return block.app, block.probe

    def ladder_step(self, run: PlannedRun, block: "_Block", progress, task):
        progress.update(task, description=f"run {run.index}/{len(self.plan.runs)} {run.scenario} "
                                          f"{run.model} {run.load.label} rep {run.repetition}")
        key = (run.runtime, run.scenario, run.model, run.repetition)
        if run.load.kind == LoadKind.OPEN and key in block.broken:
            # The capacity of this repetition is settled (a pass above a failure is luck, slo.py), and a model
            # past its knee only costs time: a starved worker pool, minutes of backlog.
            self.env.setdefault("skipped", []).append(f"{run.tag} (SLO broken at {block.broken[key]:g}/s)")
            log(f"{run.tag}: skipped, {run.model} broke the SLO at {block.broken[key]:g}/s in this repetition")
        else:
            row = self.step(run, block)
            if run.load.kind == LoadKind.OPEN and not slo.holds_slo(dataclasses.asdict(row)):
                block.broken.setdefault(key, run.load.value)
        progress.advance(task)

    def search(self, runs: list[PlannedRun], block: "_Block", progress, task):
        """One repetition of a capacity search for each model of `runs`, in rounds: every model still searching
        measures its next rate, in an order that alternates between rounds, until every search has its answer."""
        ceiling = (self.env.get("point_select") or {}).get("qps") if SCENARIOS[runs[0].scenario].limit == \
            Limit.POINT_SELECT else None
        searches = {r.model: Search(SearchSettings(r.load.value), ceiling) for r in runs}
        cores = int(self.env.get("cores") or os.cpu_count() or 1)
        for round_no in itertools.count():
            order = runs if round_no % 2 == 0 else list(reversed(runs))
            todo = [(r, rate) for r in order if (rate := searches[r.model].next_rate()) is not None]
            if not todo:
                break
            for placeholder, rate in todo:
                run = dataclasses.replace(placeholder, load=Load(LoadKind.OPEN, rate))
                progress.update(task, description=f"run {placeholder.index}/{len(self.plan.runs)} {run.scenario} "
                                                  f"{run.model} search step {round_no + 1} at {run.load.label} "
                                                  f"rep {run.repetition}")
                row = self.step(run, block)
                values = dict(dataclasses.asdict(row), scenario=run.scenario)
                searches[run.model].record(rate, slo.holds_slo(values), generator_limited(values, cores))
        for placeholder in runs:
            found = searches[placeholder.model]
            self.env.setdefault("searches", []).append(dict(
                runtime=placeholder.runtime, scenario=placeholder.scenario, variant=placeholder.variant,
                model=placeholder.model, repetition=placeholder.repetition, stop=found.stop.value, held=found.held,
                broke=found.broke, ceiling=ceiling, steps=len(found.steps)))
            log(f"{placeholder.scenario} {placeholder.model} rep {placeholder.repetition}: search ended "
                f"({found.stop.value}) after {len(found.steps)} steps, held {found.held}/s, broke {found.broke}/s")
            progress.advance(task)

    def step(self, run: PlannedRun, block: "_Block") -> RunRow:
        """One measured run: wait for the app to drain the previous one (or restart a starved app), measure, keep."""
        drained = 0.0
        if block.app is not None:
            try:
                drained = services.wait_drained(block.app, block.base_url)
            except services.StillBusy:
                # A starved worker pool leaves a backlog that takes minutes to work off: a restart and a re-warm cost
                # less. The re-warm is as long as the block's first one: after 5 s per model the next run still paid
                # for the JIT (twice the CPU per request of its other repetitions).
                block.restarts += 1
                self.env["restarts"] = self.env.get("restarts", 0) + 1
                log(f"the app is still busy 15 s after the run: restarting it (restart {block.restarts})")
                self.pm.stop(block.app)
                block.app, block.probe = block.restart(block.restarts)
                self.warm_up(block.app, run, block.base_url, block.tokens_file, f"rewarm{block.restarts}")
                drained = services.wait_drained(block.app, block.base_url)
        if script_of(run.scenario, run.variant) == "report.js" and block.db_url:
            services.empty_reports(block.db_url, self.config.db_user, self.config.db_password)
        row = self.measure(run, run.runtime, block.probe, block.base_url, block.tokens_file)
        row.drain_wait_s = round(drained, 1)
        self.rows.append(row)
        self.check(row)
        log(f"{run.tag}: {row.ok_rps:.1f} ok/s over {row.window_s:.0f} s, p99 "
            f"{row.p99_ms if row.p99_ms is None else round(row.p99_ms, 1)} ms, errors {row.errors}, "
            f"dropped {row.dropped} (run {run.index} of {len(self.plan.runs)}, about "
            f"{duration(self.plan.seconds_left(run))} of runs left)")
        table.write(self.out, self.rows, self.env)
        if block.app is not None and not block.app.alive():
            raise RuntimeError(f"the app died during {run.tag}; see {block.app.log_path}")
        time.sleep(self.plan.cooldown_s)
        return row


@dataclasses.dataclass
class _Block:
    """The app a block of runs is measured on, and what a restart of it needs."""
    app: object
    probe: object
    base_url: str
    tokens_file: str | None
    restart: object  # n -> (app, probe); None for --target
    db_url: str | None
    restarts: int = 0
    broken: dict = dataclasses.field(default_factory=dict)  # (runtime, scenario, model, rep) -> rate the SLO broke


def generator_limited(row: dict, cores: int) -> bool:
    """Whether k6 itself was the first resource to saturate in a run (why.py): then a breach is not the app's."""
    hits = why.saturated(row, cores)
    return bool(hits) and hits[0][1].resource == "k6 CPU"

def run(config: Config, plan: Plan) -> int:
    install_signal_handlers()
    for d in ("logs", "k6", "samples"):
        os.makedirs(os.path.join(config.out, d), exist_ok=True)
    return Bench(config, plan).run_all()
