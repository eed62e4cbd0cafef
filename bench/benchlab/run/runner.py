"""The measured part: start what the plan needs, then block by block (a scenario under one app) a fresh app where
needed, a warm-up and the runs; one row per run, and results.json's environment."""
import copy
import dataclasses
import itertools
import os
import shutil
import tempfile
import time
import traceback

from benchlab.config import POD_MEMORY_MB, Config
from benchlab.model import Limit, LoadKind, PlannedRun, RuntimeSpec
from benchlab.plan.planner import Plan, app_key, run_props, start_up_seconds
from benchlab.project import ROOT, rss_mb
from benchlab.results import cost, slo, table
from benchlab.results.environment import Environment, RuntimeInfo
from benchlab.plan import heap_search
from benchlab.run.measure import k6tool, memory, pinned, point_select, profiler, soak
from benchlab.run.measure.k6runs import K6Runs
from benchlab.run.measure.steps import Block, Steps
from benchlab.run.procs import Interrupted, ProcessManager, install_signal_handlers, log, run_checked
from benchlab.run.provision import budget, drivers, health, heaps, jvm, machine, runtimes
from benchlab.run.provision.app import Apps, Services
from benchlab.run.state import BenchState
from benchlab.scenarios import SCENARIOS, jwt_mysql, variant_of


# What trains the AOT cache when the bench does: every model's JWT + MySQL requests and its aggregation, cached or not.
AOT_TRAINING_TESTS = ("UserMeIT", "AggregateIT", "CachedAggregateIT")
TWIN_PORT_OFFSET = 8  # the A/A twin's port beside the app's: past the downstream's, k6's, the backends' and HAProxy's


class Bench:
    """The processes of one benchmark and the figures they give; run_all() drives the plan."""

    def __init__(self, config: Config, plan: Plan):
        self.state = BenchState(config, plan, ProcessManager())
        self.apps = Apps(self.state)
        self.k6 = None  # K6Runs, once k6 is found or installed

    @property
    def env(self) -> Environment:
        return self.state.env

    def run_all(self) -> int:
        state, config = self.state, self.state.config
        workdir = tempfile.mkdtemp(prefix="bench-")
        status = 0
        started = time.time()
        try:
            java_home = machine.find_java_home()
            k6_exe = k6tool.find_or_install_k6(ROOT, state.logs)
            self.k6 = K6Runs(state, k6_exe)
            if config.live:
                log("--live: each k6 run serves its web dashboard on http://127.0.0.1:5665 while it runs")
            state.env = machine.environment(java_home, k6tool.k6_version(k6_exe))
            self.env.copy_settings(config)
            self.env.update(pinning=config.cpu_split.describe() if config.cpu_split else
                            "none: the app, k6, the database and the other services share every CPU",
                            planned_seconds=round(state.plan.planned_seconds()),
                            planned_seconds_at_most=round(state.plan.planned_seconds(upper_bound=True)),
                            planned_start_up_seconds=round(start_up_seconds(len(config.runtimes), config.cold_starts,
                                                                            config.warmup_curve)))
            status = self.run_target(config.target) if config.target else self.run_local(java_home, workdir)
        except Interrupted as e:
            log(f"interrupted ({e}): stopping everything")
            status = 130
        except Exception as e:  # noqa: BLE001 - any failure: clear message, cleanup, non-zero exit
            log(f"ERROR: {e}")
            with open(os.path.join(state.logs, "error.log"), "a") as f:
                traceback.print_exc(file=f)
            status = 1
        finally:
            if not state.pm.stop_all():
                status = status or 1
            for chosen in {id(b): b for b in state.budgets.values()}.values():
                chosen.remove()
            shutil.rmtree(workdir, ignore_errors=True)
        self.env.update(wall_seconds=round(time.time() - started), failures=state.failures, complete=status == 0)
        table.write(state.out, state.rows, self.env)
        return status

    def prepare(self, java_home) -> tuple[dict, dict]:
        """The packaged apps (built if needed, one per MySQL driver compared) and the runtimes, checked and prepared.
        Returns (runtime name -> runtime, driver version -> packaged app)."""
        config = self.state.config
        logs = self.state.logs
        jar = os.path.join(ROOT, "target/quarkus-app/quarkus-run.jar")
        wanted = {spec.base for spec in config.runtimes}
        training = runtimes.JvmAotRuntime.name in wanted and (config.rebuild or runtimes.JvmAotRuntime.cache_problem(
            ROOT)) and (jvm.feature_version(java_home) or 0) >= runtimes.JvmAotRuntime.MIN_JDK
        if (config.rebuild or not os.path.isfile(jar)) and not training:  # the training packages the jar itself
            log("building the app: ./mvnw -B -q package -DskipTests (about 1 minute; several more the first time, "
                "while Maven downloads the plugins and dependencies)")
            run_checked([os.path.join(ROOT, "mvnw"), "-B", "-q", "package", "-DskipTests"],
                        os.path.join(logs, "build.log"), timeout=1800, cwd=ROOT, what="Maven build")
        if {"native", "container-native"} & wanted and not config.native_exe \
                and not runtimes.find_runners(ROOT):
            build_native(logs)
        if training:  # after the native build, which may package the app again
            train_aot_cache(logs)
        # MySQL Connector/J per packaged app, as packaged (the report's settings)
        self.env.mysql_driver = {drivers.SHIPPED_APP: drivers.packaged_version(ROOT, drivers.SHIPPED_APP)}
        app_dirs = {}  # driver version -> the packaged app that has it
        for version in sorted({variant_of(r.scenario, r.variant).driver for r in self.state.plan.runs} - {None}):
            app_dirs[version] = drivers.prepare(ROOT, version, logs, config.rebuild)
            self.env.mysql_driver[app_dirs[version]] = version
        rts = {spec.name: self.runtime(spec) for spec in config.runtimes}
        self.apply_budgets([rt for rt in rts.values() if not rt.container])
        self.env.runtime_info = {}
        for rt in rts.values():
            home = rt.java_home or java_home
            rt.check(ROOT, home)
            heaps.check_starts(rt, home)
            self.env.runtime_info[rt.name] = RuntimeInfo(java_home=home, limits=rt.limits(),
                                                         prepared=rt.prepare(self.state.pm, ROOT, home, logs))
        # the report's start-up table says why a native runtime has no row of figures
        self.env.native_executables = [os.path.relpath(f, ROOT) for f in runtimes.find_runners(ROOT)]
        self.k6.host_jvms = {name for name, rt in rts.items() if isinstance(rt, runtimes.JvmRuntime)}
        if config.flamegraph:
            log(f"flame graphs ({config.flamegraph}) of every run of the host JVM runtimes: "
                f"async-profiler {profiler.VERSION}")
            self.k6.profiler = profiler.Profiler(java_home, profiler.library(ROOT, logs), config.flamegraph,
                                                 os.path.join(self.state.out, "flamegraphs"))
            self.env.flamegraphs = (f"async-profiler {profiler.VERSION}, event {config.flamegraph}: "
                                    f"flamegraphs/<run>-{config.flamegraph}.html, one per run of a host JVM runtime")
        if config.profile:
            self.k6.stacks = profiler.Profiler(java_home, profiler.library(ROOT, logs), None,
                                               os.path.join(self.state.out, "profiles"))
            self.env.profiles = (f"async-profiler {profiler.VERSION}, events {', '.join(profiler.Profiler.PROFILED_INTERVALS)} "
                                 f"at intervals {', '.join(profiler.Profiler.PROFILED_INTERVALS.values())}: "
                                 f"profiles/<run>.collapsed, one per profiled run")
        return rts, app_dirs

    def runtime(self, spec: RuntimeSpec):
        """The runtime the record describes, as --builds, --heap, --jdk or a pod size (--app-cpus 0.25,0.5) made it.
        A container's limits are its pod's: --cpus, else the CPU budget; --memory, else --app-memory."""
        config = self.state.config
        memory = config.memory or (f"{config.app_memory_mb}m" if config.app_memory_mb else None)
        options = dict(jvm_args=config.jvm_args, native_exe=config.native_exe, cpus=config.cpus or config.cpus_of(spec),
                       memory=memory, base_image=config.base_image)
        return heaps.make(spec, options)

    def apply_budgets(self, host_runtimes) -> None:
        """--app-cpus: the app's CPU budget for the runtimes on this host (a container has its own limit), a group per
        size, with --app-memory's limit: every start of the app within it, the JVM told the processor count it implies;
        results.json says how, or why not. A pod size the machine cannot make stops the bench (RuntimeError)."""
        config = self.state.config
        made = {}  # CPUs -> the budget of that size
        for rt in host_runtimes:
            cpus = config.cpus_of(config.runtime(rt.name))
            if not cpus:
                continue
            if cpus not in made:
                name = f"concurrency-lab-bench-{config.port}" + (f"-cpu{cpus:g}" if config.sizes_compared else "")
                made[cpus] = budget.make(cpus, name, os.cpu_count() or 1, period_us=round(config.app_cpu_period * 1000),
                                         memory_mb=config.app_memory_mb, strict=config.sizes_compared,
                                         cpuset=config.cpu_split.app if config.cpu_split else None)
                log(f"the app's CPU budget: {made[cpus].describe()}")
            chosen = made[cpus]
            if not chosen.applied:
                continue
            self.state.budgets[rt.name] = rt.budget = chosen
            if isinstance(rt, runtimes.JvmRuntime):
                rt.jvm_args += chosen.jvm_options()
        if made:
            self.env.app_cpu_budget = "; ".join(b.describe() for b in made.values())
        if len(made) == 1 and next(iter(made.values())).applied:
            only = next(iter(made.values()))
            self.env.update(app_budget_cpus=only.cpus, app_processors=only.processors)

    def run_local(self, java_home, workdir) -> int:
        state = self.state
        rts, app_dirs = self.prepare(java_home)
        if state.config.cpu_split:
            # The builds are done: from here on the bench, and every process it starts but the app (k6, the database,
            # the downstream service, Redis, HAProxy), runs on the rig's CPUs.
            os.sched_setaffinity(0, state.config.cpu_split.rig)
        up = self.apps.start_services(java_home, workdir)
        steps = Steps(state, self.k6, up.sampled())
        jfr_dir = os.path.join(state.logs, "jfr")
        # The app of the moment and what it runs: (runtime, properties, packaged app); each runtime's first app (its
        # start-up measurement) runs the plain configuration. The plan's blocks come in its order: a runtime after
        # another, or taking turns with --jdk.
        app, probe, running = None, None, None
        started_up = set()

        def blocks():
            yield from (list(b) for _, b in itertools.groupby(state.plan.runs,
                                                              key=lambda r: (r.scenario, r.variant, app_key(r))))
            yield from self.added_searches()  # lazily: decided once, after every planned block

        for block in blocks():
            rt = rts[block[0].runtime]
            home = rt.java_home or java_home  # the app's JDK; the services and the tools run on the bench's
            if rt.name not in started_up:
                started_up.add(rt.name)
                if app is not None:
                    state.pm.stop(app)
                app, probe = self.start_up(rt, home, java_home, up, jfr_dir)
                running = (rt.name, up.app_props, drivers.SHIPPED_APP)
            t_block = time.time()
            app, probe, running = self.run_block(steps, block, rt, home, (app, probe, running), up, app_dirs)
            self.env.load_seconds = round(self.env.get("load_seconds", 0) + time.time() - t_block)
        if app is not None:
            state.pm.stop(app)
        if state.config.memory_cases:
            self.memory_searches(java_home, up)
        if os.path.isdir(jfr_dir):
            recorded = {rt.name for rt in rts.values() if getattr(rt, "records_jfr", False)}
            problems = pinned.count(java_home, jfr_dir, [r for r in state.rows if r.runtime in recorded])
            self.env.pinned_recording = "; ".join(problems) if problems else \
                f"JFR {pinned.EVENT}, every pin, in {os.path.relpath(jfr_dir, state.out)}"
        return 1 if any("k6 exit" in f or "failed checks" in f for f in state.failures) else 0

    def added_searches(self) -> list[list[PlannedRun]]:
        """Pod sizes compared: a block more for each pod whose searches disagree (results/slo.py), its search once
        more on a fresh app, after every planned block; said in the log and the report."""
        plan = self.state.plan
        if not plan.search_added:
            return []
        searches = [r for r in plan.runs if r.load.kind == LoadKind.SEARCH]
        order = list(dict.fromkeys((r.runtime, r.scenario, r.variant) for r in searches))
        found = [d for d in slo.disagreeing_searches(table.final(table.frame(self.state.rows)))
                 if (d.runtime, d.scenario, d.variant) in order]  # a search's, not a ladder's repetitions
        added = []
        for d in sorted(found, key=lambda d: order.index((d.runtime, d.scenario, d.variant))):
            pod = [r for r in searches if (r.runtime, r.scenario, r.variant) == (d.runtime, d.scenario, d.variant)]
            rep = max(r.repetition for r in pod) + 1
            said = (f"{d.runtime} {d.scenario}{f' ({d.variant})' if d.variant else ''}: its searches found {d.model} "
                    f"at {' and '.join(f'{c:,g}' for c in d.capacities)}/s, more than x{slo.SEARCHES_DISAGREE:g} "
                    f"apart: one more search")
            self.env.append("searches_added", said)
            log(said)
            added.append([dataclasses.replace(r, index=plan.runs[-1].index, repetition=rep)
                          for r in pod if r.repetition == 1])
        return added

    def memory_searches(self, java_home, up: Services) -> None:
        """--heap-search: each model's smallest heap for each memory case, on the first host JVM runtime."""
        config = self.state.config
        base = heaps.search_base(config.runtimes)
        options = dict(jvm_args=config.jvm_args, native_exe=config.native_exe)
        self.env.planned_memory_seconds = round(heap_search.planned_seconds(
            config.memory_cases, len(config.models), config.duration, config.warmup_others))
        if not self.state.plan.runs:
            self.env.load_seconds = 0  # the memory search alone
        t = time.time()
        memory.Memory(self.state, self.k6, self.apps, up, lambda heap_mb, extra: heaps.search_runtime(
            base, options, heap_mb, extra), java_home).run_all()
        self.env.memory_seconds = round(time.time() - t)

    def start_up(self, rt, home, java_home, up: Services, jfr_dir):
        """A runtime's first app: its cold starts, then a start with the recording and the profiler's agent, a smoke
        test, its idle RSS, the warm-up curve and (once) the database's point-select rate. Returns (app, probe)."""
        config, base_url = self.state.config, self.state.base_url
        info = self.env.runtime_info[rt.name]
        if config.cold_starts:
            info.cold_starts = self.apps.cold_starts(rt, home, up)
        # After the cold starts: the JFR recording and the profiler's agent loading cost start-up time of their own.
        if isinstance(rt, runtimes.JvmRuntime):
            if rt.records_jfr:  # the app on the host JVM only
                rt.jvm_args += [pinned.jvm_option(jfr_dir), *pinned.trace_options(jvm.feature_version(home))]
            if config.flamegraph or config.profile:
                rt.jvm_args.append(profiler.JVM_OPTION)
        app, first = self.apps.start(rt, home, up.app_props, up, f"app-{rt.name}.log")
        probe = rt.probe(app)
        log(f"app ({rt.name}) answered its first request {first:.2f} s after its start; pid {app.pid}")
        info.update(first_request_s=round(first, 2), probe=probe.describe(),
                    quarkus_started_s=health.quarkus_started(app), command=rt.describe(ROOT, home))
        warnings = rt.start_warnings(app)
        if warnings:
            info.start_warnings = warnings
            log(f"WARNING: app ({rt.name}): {' / '.join(warnings)}; see {app.log_path}")
        health.smoke_test(base_url, config, up.tokens_file)
        info.rss_idle_mb = rss_mb(app.pid)
        if config.warmup_curve:
            info.warmup_curve = self.k6.warmup_curve(rt.name, base_url, up.tokens_file)
            log(f"app ({rt.name}) warm-up curve: {info.warmup_curve['ok_per_s']} successful requests/s")
        needs_point_select = any(SCENARIOS[s].limit == Limit.POINT_SELECT for s in config.scenarios)
        if needs_point_select and self.env.get("point_select") is None:
            threads = int(self.env.jdbc_pool_max)
            log(f"measuring the database's point-select rate ({threads} JDBC threads, "
                f"{config.pointselect_seconds:.0f} s; the app is idle)")
            self.env.point_select = point_select.point_select_rate(self.state.pm, java_home, up.db_url, config,
                                                                  threads, self.state.logs)
            log(f"point-select rate: {self.env.point_select['qps']:.0f} queries/s")
        return app, probe

    def run_block(self, steps: Steps, block, rt, home, current, up: Services, app_dirs):
        """A block of runs under one app: a fresh app if the block needs another runtime, configuration or packaging
        (or each model has one of its own), a warm-up, the runs, and what the JVM's pinned-thread trace saw.
        `current` and the result: (app, probe, what it runs)."""
        app, probe, running = current
        scenario, variant = block[0].scenario, variant_of(block[0].scenario, block[0].variant)
        if SCENARIOS[scenario].scale_out_cpus:
            return self.run_scale_out(steps, self.cheapest_model(block), rt, home, current, up)
        block_props = dict(up.app_props, **run_props(block[0]))
        if variant.redis:
            block_props["quarkus.redis.hosts"] = up.redis_url
        app_dir = app_dirs.get(variant.driver, drivers.SHIPPED_APP)
        block_rt = rt.on_app(app_dir) if app_dir != drivers.SHIPPED_APP else rt
        on_host_jvm = isinstance(rt, runtimes.JvmRuntime)
        if SCENARIOS[scenario].soaks and on_host_jvm:  # what grows outside the heap, area by area
            block_rt = block_rt.with_jvm_args([jvm.NMT])
        logs = [app.log_path]
        if (rt.name, block_props, app_dir) != running or SCENARIOS[scenario].app_per_model:
            self.state.pm.stop(app)
            app, _ = self.apps.start(block_rt, home, block_props, up, f"app-{rt.name}-{variant.name or 'default'}.log")
            probe, running, logs = block_rt.probe(app), (rt.name, block_props, app_dir), [app.log_path]
            log(f"app ({rt.name}) restarted for {scenario} {variant.name} {block[0].model}: pid {app.pid}")

        def restart(n):
            proc, _ = self.apps.start(block_rt, home, block_props, up, f"app-{rt.name}-restart{n}.log")
            logs.append(proc.log_path)
            return proc, block_rt.probe(proc)

        first_row = len(self.state.rows)
        on = Block(app, probe, self.state.base_url, up.tokens_file, restart, up.db_url,
                   **soak.reader(rt, home, ROOT) if SCENARIOS[scenario].soaks else {})
        steps.warm_up(on, block[0], "warmup")
        if any(r.twin for r in block):
            on.twin = self.start_twin(steps, block, block_rt, home, block_props, up, on)
        try:
            steps.run_plan(block, on)
        finally:
            if on.twin is not None:
                self.state.pm.stop(on.twin.app)
                if on.twin.pod is not block_rt.budget:
                    on.twin.pod.remove()
        if getattr(rt, "records_jfr", False):
            traced = pinned.TRACE_OPTION in rt.jvm_args  # set at the runtime's start-up where its JDK has the trace
            seen = [pinned.read_trace(path, traced) for path in logs]
            for row in self.state.rows[first_row:]:
                row.pinned_trace = None if not traced else any(t.pinned for t in seen)
        return on.app, on.probe, running

    def start_twin(self, steps: Steps, block, rt, home, props, up: Services, on: Block) -> Block:
        """The A/A twin of a block's app: the same build and configuration, started apart on a port of its own, in a
        pod of the app's size, primed on the block's other models and warmed up on the one it runs (results/cost.py
        reads it)."""
        port = self.state.config.port + TWIN_PORT_OFFSET
        pod = budget.alongside(rt.budget, "twin")  # in the app's group, a memory limit would hold both JVMs
        twin_rt = in_pod(rt, pod) if pod is not rt.budget else rt
        label = f"app-{rt.name}-{block[0].scenario}-twin"
        app, _ = self.apps.start(twin_rt, home, props, up, f"{label}.log", port)
        log(f"the A/A twin of the app ({rt.name}) for {block[0].scenario}: pid {app.pid}, port {port}")

        def restart(n):
            proc, _ = self.apps.start(twin_rt, home, props, up, f"{label}-restart{n}.log", port)
            return proc, twin_rt.probe(proc)

        twin = Block(app, twin_rt.probe(app), f"http://127.0.0.1:{port}", on.tokens_file, restart, on.db_url, pod=pod)
        # Warmed on its own model only, the executable's twin cost 0.90 to 0.95x the shared app's per request, with
        # about a fifth of its GC time (the jar's 0.92 to 1.02x): an app that never ran the others holds less. Primed on
        # them, it holds what the shared app holds.
        own = next(r.model for r in block if r.twin)
        steps.warm_up(twin, block[0], "warmup twin", models=[own],
                      primed=tuple(dict.fromkeys(r.model for r in block if r.model != own)))
        return twin

    def cheapest_model(self, block):
        """A scale-out's runs on the runtime's cheapest model for JWT + MySQL in this run, where its cost runs ran."""
        rows = table.final(table.frame(self.state.rows))
        chosen = cost.cheapest(rows, jwt_mysql.SCENARIO.name, block[0].runtime)
        if chosen is None or chosen == block[0].model:
            return block
        log(f"{block[0].scenario} on {block[0].runtime}: {chosen}, its cheapest model for {jwt_mysql.SCENARIO.name}")
        return [dataclasses.replace(r, model=chosen) for r in block]

    def run_scale_out(self, steps: Steps, block, rt, home, current, up: Services):
        """A scale-out block: its first replica a fresh app within a pod of the scenario's size, searched and warmed as
        any block's app; its scale-out run starts the second replica cold within a pod of its own. The runtime's own
        budget is back afterwards."""
        config, state = self.state.config, self.state
        cpus = SCENARIOS[block[0].scenario].scale_out_cpus
        pods = [budget.make(cpus, f"concurrency-lab-bench-{config.port}-replica{n}", os.cpu_count() or 1,
                            period_us=round(config.app_cpu_period * 1000),
                            memory_mb=config.app_memory_mb or POD_MEMORY_MB, strict=True,
                            cpuset=config.cpu_split.app if config.cpu_split else None) for n in (1, 2)]
        replicas = [in_pod(rt, pod) for pod in pods]
        own = state.budgets.get(rt.name)
        state.budgets[rt.name] = pods[0]
        try:
            log(f"{block[0].scenario} on {rt.name}: replicas of {pods[0].describe()}")
            state.pm.stop(current[0])
            app, _ = self.apps.start(replicas[0], home, up.app_props, up, f"app-{rt.name}-replica1.log")
            props = dict(up.app_props)

            def start_replica(port):
                return replicas[1].start(state.pm, ROOT, home, port, dict(props, **{"quarkus.http.port": port}),
                                         up.child_env, os.path.join(state.logs, f"app-{rt.name}-replica2.log"))

            def restart(n):
                proc, _ = self.apps.start(replicas[0], home, props, up, f"app-{rt.name}-replica1-restart{n}.log")
                return proc, replicas[0].probe(proc)

            on = Block(app, replicas[0].probe(app), state.base_url, up.tokens_file, restart, up.db_url,
                       start_replica=start_replica, pod=pods[0])
            steps.warm_up(on, block[0], "warmup")
            steps.run_plan(block, on)
        finally:
            if own is None:
                state.budgets.pop(rt.name)
            else:
                state.budgets[rt.name] = own
            for pod in pods:
                pod.remove()
        # the next block starts an app of its own: nothing runs as the runtime's app
        return on.app, on.probe, (f"{rt.name} replica", None, None)

    def run_target(self, base_url) -> int:
        """An app started elsewhere: no database, downstream or app of ours, no process figures, same scripts."""
        state, config = self.state, self.state.config
        needing = [s for s in config.scenarios if SCENARIOS[s].needs_tokens]
        if needing and not config.tokens:
            raise RuntimeError(f"--target with the {', '.join(needing)} scenario needs --tokens FILE: tokens signed "
                               f"with the target's key (one per line)")
        configured = sorted({r.scenario for r in state.plan.runs if run_props(r)})
        if configured:
            raise RuntimeError(f"--target cannot measure {', '.join(configured)}: its variants configure the app "
                               f"(pool sizes, executors), which only a local run can start; measure it locally")
        try:
            health.smoke_test(base_url, config, config.tokens)
        except OSError as e:
            raise RuntimeError(f"--target {base_url} does not answer: {e}") from e
        steps = Steps(state, self.k6, {})
        t_load = time.time()
        for _, block in itertools.groupby(state.plan.runs, key=lambda r: r.scenario):
            block = list(block)
            on = Block(None, None, base_url, config.tokens, None, None)
            steps.warm_up(on, block[0], "warmup")
            steps.run_plan(block, on)
        self.env.load_seconds = round(time.time() - t_load)
        return 1 if any("k6 exit" in f for f in state.failures) else 0


def in_pod(rt, pod):
    """A copy of a runtime whose app starts within `pod` (a CpuBudget), its JVM told the pod's processors and heap."""
    placed = copy.copy(rt)
    placed.budget = pod
    if isinstance(rt, runtimes.JvmRuntime):
        placed.jvm_args = [a for a in rt.jvm_args if not a.startswith(
            ("-XX:ActiveProcessorCount=", "-XX:MaxRAMPercentage="))] + pod.jvm_options()
    return placed


def run(config: Config, plan: Plan) -> int:
    install_signal_handlers()
    for d in ("logs", "k6", "samples"):
        os.makedirs(os.path.join(config.out, d), exist_ok=True)
    return Bench(config, plan).run_all()


def train_aot_cache(logs) -> None:
    """The jar and the AOT cache the jvm-aot runtime runs: the integration tests of the core cases train it, then
    run against the jar started with it."""
    log("training the AOT cache: ./mvnw -B -q verify -Daot with the core cases' integration tests (about 5 minutes; "
        "the jar is packaged again)")
    run_checked([os.path.join(ROOT, "mvnw"), "-B", "-q", "verify", "-Daot", "-Dtest=NONE",
                 "-Dsurefire.failIfNoSpecifiedTests=false", f"-Dit.test={','.join(AOT_TRAINING_TESTS)}"],
                os.path.join(logs, "aot-training.log"), timeout=3600, cwd=ROOT, what="the AOT cache's training")


def build_native(logs) -> None:
    """The native executable the native runtimes run, with the GraalVM home deploy/native/toolchain assembles."""
    log("building the native executable: deploy/native/toolchain, then ./mvnw -B -q package -Dnative -DskipTests "
        "(about 6 minutes and 6 GB of memory on 2 cores)")
    run_checked([os.path.join(ROOT, "deploy", "native", "toolchain")], os.path.join(logs, "native-toolchain.log"),
                timeout=1800, cwd=ROOT, what="deploy/native/toolchain")
    run_checked([os.path.join(ROOT, "mvnw"), "-B", "-q", "package", "-Dnative", "-DskipTests"],
                os.path.join(logs, "native-build.log"), timeout=3600, cwd=ROOT, what="the native build")
