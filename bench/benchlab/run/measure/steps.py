"""A block's runs on one app: warm-up, the ladder of loads (skipping a model's steps above its first SLO breach) and
the capacity searches, each step after the app has drained the previous one, or on a fresh app if it could not."""
import dataclasses
import itertools
import os
import time

from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from benchlab.formatting import duration
from benchlab.model import Limit, Load, LoadKind, PlannedRun, RunRow
from benchlab.plan.search import Search, SearchSettings
from benchlab.results import slo, table, why
from benchlab.results.environment import SearchRecord
from benchlab.run.measure.k6runs import K6Runs
from benchlab.run.procs import CONSOLE, log
from benchlab.run.provision import health, heaps, services
from benchlab.run.state import BenchState
from benchlab.scenarios import SCENARIOS, variant_of


@dataclasses.dataclass
class Block:
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


class Steps:
    def __init__(self, state: BenchState, k6: K6Runs, sampled: dict):
        self.state, self.k6, self.sampled = state, k6, sampled  # sampled: our processes whose CPU each run samples

    def warm_up(self, proc, first: PlannedRun, base_url, tokens_file, label, seconds=None):
        """Every model of a block (a scenario under one app configuration) at the scenario's lowest load, before
        any measurement of the block: for the JIT, without overloading a model before it is measured. Where each
        model has an app of its own, only that model."""
        config = self.state.config
        seconds = seconds or config.warmup
        scenario = first.scenario
        load = min(config.load_levels[scenario], key=lambda l: (l.kind == LoadKind.CLOSED, l.value))
        if load.kind == LoadKind.SEARCH:  # at the search's first rate
            load = Load(LoadKind.OPEN, load.value)
        if SCENARIOS[scenario].warmup_vus is not None:
            load = Load(LoadKind.CLOSED, SCENARIOS[scenario].warmup_vus)
        models = [m for m in config.models if m in variant_of(scenario, first.variant).models]
        if SCENARIOS[scenario].app_per_model:
            models = [first.model]
        for model in models:
            if proc is not None:  # an app of ours (not --target): let it finish the previous backlog
                health.wait_drained(proc, base_url)
            run = PlannedRun(0, first.runtime, scenario, load, 0, model, seconds, first.variant)
            rc, _ = self.k6.k6(run, seconds, base_url, tokens_file, f"{label}-{run.tag}")
            if rc not in (0, 99):
                raise RuntimeError(f"k6 failed during warm-up (exit {rc}); "
                                   f"see {self.state.logs}/k6-{label}-{run.tag}.log")

    def run_plan(self, runs, block: Block):
        """Runs a block; block.app and block.probe are new afterwards if the app had to be restarted. The runs of a
        capacity search (one per model and repetition) are searched together, their steps interleaved."""
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

    def ladder_step(self, run: PlannedRun, block: Block, progress, task):
        progress.update(task, description=f"run {run.index}/{len(self.state.plan.runs)} {run.scenario} "
                                          f"{run.model} {run.load.label} rep {run.repetition}")
        key = (run.runtime, run.scenario, run.model, run.repetition)
        if run.load.kind == LoadKind.OPEN and key in block.broken:
            # The capacity of this repetition is settled (a pass above a failure is luck, slo.py), and a model
            # past its knee only costs time: a starved worker pool, minutes of backlog.
            self.state.env.append("skipped", f"{run.tag} (SLO broken at {block.broken[key]:g}/s)")
            log(f"{run.tag}: skipped, {run.model} broke the SLO at {block.broken[key]:g}/s in this repetition")
        else:
            row = self.step(run, block)
            if run.load.kind == LoadKind.OPEN and not slo.holds_slo(dataclasses.asdict(row)):
                block.broken.setdefault(key, run.load.value)
        progress.advance(task)

    def search(self, runs: list[PlannedRun], block: Block, progress, task):
        """One repetition of a capacity search for each model of `runs`, in rounds: every model still searching
        measures its next rate, in an order that alternates between rounds, until every search has its answer."""
        env = self.state.env
        ceiling = (env.get("point_select") or {}).get("qps") if SCENARIOS[runs[0].scenario].limit == \
            Limit.POINT_SELECT else None
        searches = {r.model: Search(SearchSettings(r.load.value), ceiling) for r in runs}
        cores = int(env.get("cores") or os.cpu_count() or 1)
        for round_no in itertools.count():
            order = runs if round_no % 2 == 0 else list(reversed(runs))
            todo = [(r, rate) for r in order if (rate := searches[r.model].next_rate()) is not None]
            if not todo:
                break
            for placeholder, rate in todo:
                run = dataclasses.replace(placeholder, load=Load(LoadKind.OPEN, rate))
                progress.update(task, description=f"run {placeholder.index}/{len(self.state.plan.runs)} "
                                                  f"{run.scenario} {run.model} search step {round_no + 1} at "
                                                  f"{run.load.label} rep {run.repetition}")
                row = self.step(run, block)
                values = dict(dataclasses.asdict(row), scenario=run.scenario)
                searches[run.model].record(rate, slo.holds_slo(values), generator_limited(values, cores))
        for placeholder in runs:
            found = searches[placeholder.model]
            env.append("searches", SearchRecord(
                runtime=placeholder.runtime, scenario=placeholder.scenario, variant=placeholder.variant,
                model=placeholder.model, repetition=placeholder.repetition, stop=found.stop, held=found.held,
                broke=found.broke, ceiling=ceiling, steps=len(found.steps)))
            log(f"{placeholder.scenario} {placeholder.model} rep {placeholder.repetition}: search ended "
                f"({found.stop.value}) after {len(found.steps)} steps, held {found.held}/s, broke {found.broke}/s")
            progress.advance(task)

    def step(self, run: PlannedRun, block: Block) -> RunRow:
        """One measured run: wait for the app to drain the previous one (or restart a starved app), measure, keep."""
        state = self.state
        drained = self.drain(run, block) if block.app is not None else 0.0
        if SCENARIOS[run.scenario].inserts_reports and block.db_url:
            services.empty_reports(block.db_url, state.config.db_user, state.config.db_password)
        row = self.k6.measure(run, block.probe, block.base_url, block.tokens_file, self.sampled)
        row.drain_wait_s = round(drained, 1)
        row.heap_mb = heaps.heap_of(run.runtime, state.config.heap_runtimes)
        row.oom = heaps.died_of_oom(block.app)  # an OutOfMemoryError ended the app: the run's stop
        state.rows.append(row)
        self.check(row)
        log(f"{run.tag}: {row.ok_rps:.1f} ok/s over {row.window_s:.0f} s, p99 "
            f"{row.p99_ms if row.p99_ms is None else round(row.p99_ms, 1)} ms, errors {row.errors}, "
            f"dropped {row.dropped} (run {run.index} of {len(state.plan.runs)}, about "
            f"{duration(state.plan.seconds_left(run))} of runs left)")
        table.write(state.out, state.rows, state.env)
        if row.oom:  # the step ended there; the next one gets a fresh, warmed app
            self.state.env.append("out_of_memory", f"{run.tag}: {row.oom}")
            log(f"{run.tag}: the app ran out of memory ({row.oom}): restarting it")
            self.restart(run, block)
        elif block.app is not None and not block.app.alive():
            raise RuntimeError(f"the app died during {run.tag}; see {block.app.log_path}")
        time.sleep(state.plan.cooldown_s)
        return row

    def drain(self, run: PlannedRun, block: Block) -> float:
        """Seconds the app took to work off the previous run's backlog; a starved app is restarted and warmed again."""
        try:
            return health.wait_drained(block.app, block.base_url)
        except health.StillBusy:
            # A starved worker pool leaves a backlog that takes minutes to work off: a restart and a re-warm cost
            # less. The re-warm is as long as the block's first one: after 5 s per model the next run still paid
            # for the JIT (twice the CPU per request of its other repetitions).
            log(f"the app is still busy 15 s after the run: restarting it (restart {block.restarts + 1})")
            self.restart(run, block)
            return health.wait_drained(block.app, block.base_url)

    def restart(self, run: PlannedRun, block: Block) -> None:
        """A fresh app for the block, warmed again, after a starved run or an OutOfMemoryError."""
        block.restarts += 1
        self.state.env.restarts = self.state.env.get("restarts", 0) + 1
        self.state.pm.stop(block.app)
        block.app, block.probe = block.restart(block.restarts)
        self.warm_up(block.app, run, block.base_url, block.tokens_file, f"rewarm{block.restarts}")

    def check(self, row: RunRow):
        if row.k6_exit not in (0, 99):
            self.state.failures.append(f"{row.tag}: k6 exit {row.k6_exit} (script error, setup failure or killed)")
        if row.checks_failed and row.errors == 0:
            # failed checks on answered requests (wrong body): the app is broken, not overloaded
            self.state.failures.append(f"{row.tag}: {row.checks_failed} failed checks without failed requests")
