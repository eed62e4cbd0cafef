"""A block's runs on one app: the warm-up until steady, the ladder (skipping a model's steps above its first breach)
and the capacity searches, each step after the app drained the last one, or on a fresh app. A step whose figures
cannot be trusted is measured again: bench/README.md, "Measuring a step again"."""
import dataclasses
import itertools
import math
import os
import re
import time

from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from benchlab.formatting import duration
from benchlab.model import SOAK_SHARE, Limit, Load, LoadKind, PlannedRun, RunRow
from benchlab.plan.search import Search, SearchSettings, cost_rate
from benchlab.results import cost, slo, table
from benchlab.results.again import (MAX_ATTEMPTS, generator_limited, interference, measure_again,
                                    measure_once_more)
from benchlab.results.environment import SearchRecord, WarmupRecord
from benchlab.results.steady import SteadyRule
from benchlab.run.measure import sampler, warmup
from benchlab.run.measure.k6runs import K6Runs
from benchlab.run.measure.scale_out import ScaleOut
from benchlab.run.procs import CONSOLE, log
from benchlab.run.provision import health, heaps, services
from benchlab.run.state import BenchState
from benchlab.scenarios import SCENARIOS, slo_p99_ms, variant_of

PAUSE_BEFORE_AGAIN_S = 3.0  # before a step is measured again: whatever disturbed the first measurement may pass
# Before a step disturbed by the machine is measured again, wait up to this long for QUIET_SECONDS in a row under the
# interference limit: steal comes in spells, and a measurement inside the same spell repeats the first.
QUIET_WAIT_S = 20.0
QUIET_SECONDS = 3


@dataclasses.dataclass
class Block:
    """The app a block of runs is measured on, and what a restart of it needs."""
    app: object
    probe: object
    base_url: str
    tokens_file: str | None
    restart: object  # n -> (app, probe); None for --target
    db_url: str | None
    jcmd: str | None = None  # this host's jcmd, where it can read the app's native memory (a soak's NMT)
    nmt_note: str = ""  # why it cannot, if it cannot
    # a scale-out's: port -> a second replica of the app, started cold within `pod`, the replicas' size (a CpuBudget);
    # an A/A twin's pod, where the app's size is a cgroup of its own: the budget its warm-ups lift
    start_replica: object = None
    pod: object = None
    restarts: int = 0
    broken: dict = dataclasses.field(default_factory=dict)  # (runtime, scenario, model, rep) -> rate the SLO broke
    twin: "Block | None" = None  # the A/A twin's app, where the block's cost runs have one (PlannedRun.twin)


def wait_quiet(limit_pct: float, longest_s: float = QUIET_WAIT_S) -> tuple[float, bool]:
    """Seconds waited until QUIET_SECONDS one-second samples in a row of the whole machine stayed under `limit_pct`
    of one core, and whether they did within `longest_s`."""
    started, in_a_row = time.monotonic(), 0
    while True:
        in_a_row = in_a_row + 1 if sampler.machine_busy_pct(1.0) <= limit_pct else 0
        waited = time.monotonic() - started
        if in_a_row >= QUIET_SECONDS or waited >= longest_s:
            return waited, in_a_row >= QUIET_SECONDS


class Steps:
    def __init__(self, state: BenchState, k6: K6Runs, sampled: dict, warmup_cap: float | None = None,
                 warmup_load: Load | None = None):
        self.state, self.k6, self.sampled = state, k6, sampled  # sampled: our processes whose CPU each run samples
        # a warm-up's cap and load where not the plan's and the scenario's (the memory search's)
        self.warmup_cap, self.warmup_load = warmup_cap, warmup_load
        # (runtime, scenario, variant) -> the capacities its cost rates are bounded by, as at its first cost run: one
        # set of rates for all its repetitions, whatever a later one's search finds
        self.cost_bounds: dict[tuple, list[float]] = {}

    @property
    def cores(self) -> int:
        return int(self.state.env.get("cores") or os.cpu_count() or 1)

    def warm_up(self, block: Block, first: PlannedRun, label: str, models: list[str] | None = None,
                primed: tuple[str, ...] = ()):
        """Every model of a block, before its first measurement, at its own warm-up load, else the search's first rate,
        else the scenario's lowest, until the app is steady (at most the cap each, one more go where the cap stopped
        it), the CPU budget lifted; only `models` where given, only the block's model where it has an app of its own.
        The `primed` models first, each for at most the cap of scenarios measured at fixed loads: never measured on
        this app, they only leave what they leave in the others' (pools, heap, the JIT's type profiles)."""
        config, budget = self.state.config, block.pod or self.state.budget(first.runtime)
        scenario = first.scenario
        models = models or [m for m in config.models if m in variant_of(scenario, first.variant).models]
        if SCENARIOS[scenario].app_per_model or SCENARIOS[scenario].scale_out_cpus:  # the block's one model
            models = [first.model]
        loads = {m: self.warmup_load or SCENARIOS[scenario].warmup_for(m) or self.first_load(scenario)
                 for m in [*primed, *models]}
        pid = block.probe.pid if block.probe is not None else None
        if budget is not None:
            budget.lift(pid)
        try:
            for model in primed:
                self.warm(block, first, loads[model], model, f"{label} primed",
                          self.state.plan.warmup_others_s or self.state.plan.warmup_s)
            unsteady = [m for m in models if not self.warm(block, first, loads[m], m, label).steady]
            # The JIT's work is the app's, not a model's: the first model's warm-up often ends at the cap while the
            # compilers are still busy, and they finish during the others'. One more go for each model not steady,
            # also for an app's only model (a jar that sees one processor compiles on fewer threads).
            for model in unsteady:
                self.warm(block, first, loads[model], model, f"{label} again")
        finally:
            if budget is not None:
                budget.restore(pid)

    def first_load(self, scenario: str) -> Load:
        """The search's first rate, else the scenario's lowest load; open where it is a rate."""
        levels = self.state.config.load_levels[scenario]
        load = next((level for level in levels if level.kind == LoadKind.SEARCH), None) or \
            min(levels, key=lambda level: (level.kind == LoadKind.CLOSED, level.value))
        return load if load.kind == LoadKind.CLOSED else Load(LoadKind.OPEN, load.value)

    def warm(self, block: Block, first: PlannedRun, load: Load, model: str, label: str,
             cap: float | None = None) -> WarmupRecord:
        """One model's warm-up on the block's app, until steady or the cap (else the scenario's); recorded and
        logged."""
        if block.app is not None:  # an app of ours (not --target): let it finish the previous backlog
            health.wait_drained(block.app, block.base_url)
        cap = cap or self.warmup_cap or self.state.plan.warmup_cap(first.scenario)
        run = PlannedRun(0, first.runtime, first.scenario, load, 0, model, cap, first.variant)
        record = warmup.until_steady(self.k6, run, block.probe, block.base_url, block.tokens_file,
                                     f"{label.replace(' ', '-')}-{run.tag}", cap, label,
                                     self.state.budget(first.runtime) is not None,
                                     SteadyRule.for_slo(slo_p99_ms(first.scenario, first.variant)))
        self.state.env.append("warmups", record)
        last = record.windows[-1] if record.windows else None
        log(f"{label} {first.scenario} {model} at {load.label}: "
            + ("steady" if record.steady else f"not steady within {cap:g} s")
            + f" after {record.seconds:.0f} s and {record.requests} requests"
            + (f" (last {warmup.WINDOW_S:g} s: p99 {last.p99_ms} ms, app CPU {last.app_cpu_ms_per_req} ms "
               f"per request, JIT {last.jit_ms_per_s} ms/s)" if last else ""))
        return record

    def run_plan(self, runs, block: Block):
        """Runs a block; block.app and block.probe are new afterwards if the app had to be restarted. The runs of a
        capacity search (one per model and repetition) are searched together, their steps interleaved."""
        with Progress(TextColumn("{task.description}"), BarColumn(), TimeRemainingColumn(), console=CONSOLE,
                      transient=True) as progress:
            task = progress.add_task("runs", total=len(runs))
            searched = lambda r: r.load.kind == LoadKind.SEARCH  # noqa: E731
            verdict_load = next((r.load for r in runs if r.twin), None)  # the twin runs at the verdict's rate only
            last_verdict_run = max((r.index for r in runs if r.load == verdict_load), default=None)
            for _, group in itertools.groupby(runs, key=lambda r: (r.repetition, r.load) if searched(r) else r.index):
                group = list(group)
                if searched(group[0]):
                    self.search(group, block, progress, task)
                else:
                    self.ladder_step(group[0], block, progress, task)
                if group[-1].index == last_verdict_run and self.state.plan.verdict_runs_most:
                    self.settle_verdicts(runs, block, progress, task)

    def settle_verdicts(self, runs: list[PlannedRun], block: Block, progress, task):
        """After the verdict rate's planned runs, more repetitions of it for each model whose ratio to the cheapest
        lies beyond the A/A floor and whose interval does not, and for the cheapest, up to the most the plan allows
        (results/cost.more_verdict_runs); the twin's floor stays as measured."""
        first = next(r for r in runs if r.twin)
        rows = table.final(table.frame(self.state.rows))
        rows = rows[(rows.runtime == first.runtime) & (rows.scenario == first.scenario)
                    & (rows.variant.fillna("") == first.variant)]
        more = cost.more_verdict_runs(rows, first.scenario, self.state.plan.verdict_runs_most)
        if more is None:
            return
        said = (f"{first.runtime} {first.scenario}{f' ({first.variant})' if first.variant else ''}: "
                f"{', '.join(more.models[1:])} undecided against {more.models[0]} at {more.rate:g}/s, "
                f"{more.added} more repetitions for {more.runs} each")
        self.state.env.append("verdict_runs_added", said)
        log(said)
        planned = {r.model: r for r in runs if r.load == first.load and not r.twin}
        last = max(r.repetition for r in planned.values())
        after = max(r.index for r in runs if r.load == first.load)  # what is left after them: what was after it
        added = [(rep, model) for rep in range(last + 1, last + more.added + 1)
                 for model in (more.models if rep % 2 else reversed(more.models))]
        progress.update(task, total=len(runs) + len(added))  # a block's one verdict rate: added to once
        for n, (rep, model) in enumerate(added, start=1):
            self.ladder_step(dataclasses.replace(planned[model], index=after, repetition=rep), block, progress, task,
                             f"added run {n} of {len(added)}, after run {after} of {len(self.state.plan.runs)}")

    def position(self, run: PlannedRun, search_step: int | None = None) -> str:
        """Where a step stands in the plan: "run 3 of 33", "run 3 of 33, search step 4"."""
        return f"run {run.index} of {len(self.state.plan.runs)}" + (
            f", search step {search_step}" if search_step is not None else "")

    def ladder_step(self, run: PlannedRun, block: Block, progress, task, position: str | None = None):
        position = position or self.position(run)
        progress.update(task, description=f"{position} {run.scenario} {run.label} {run.load.label} "
                                          f"rep {run.repetition}")
        if run.twin:  # measured on the twin's app, as any step on the block's
            block = block.twin
        if run.load.kind in (LoadKind.COST, LoadKind.PROFILE):
            run = self.within_knees(run)
        key = (run.runtime, run.scenario, run.model, run.repetition)
        if run.load.kind in (LoadKind.SOAK, LoadKind.SCALE_OUT) and not run.load.value:
            run = self.held_rate(run)
        if run is None:
            progress.advance(task)
            return
        if run.load.kind == LoadKind.SCALE_OUT:
            found = self.search_found(run)
            ScaleOut(self.state, self.k6, self.sampled).run(run, block.app, block.tokens_file, block.start_replica,
                                                             found.held if found else None, block.pod)
            progress.advance(task)
            return
        if run.load.kind == LoadKind.OPEN and key in block.broken:
            # The capacity of this repetition is settled (a pass above a failure is luck, slo.py), and a model
            # past its knee only costs time: a starved worker pool, minutes of backlog.
            self.state.env.append("skipped", f"{run.tag} (SLO broken at {block.broken[key]:g}/s)")
            log(f"{run.tag}: skipped, {run.model} broke the SLO at {block.broken[key]:g}/s in this repetition")
        else:
            row = self.step(run, block, position)
            if run.load.kind == LoadKind.OPEN and not slo.holds_slo(dataclasses.asdict(row)):
                block.broken.setdefault(key, run.load.value)
        progress.advance(task)

    def within_knees(self, run: PlannedRun) -> PlannedRun:
        """A cost (or profiled) run at its rate, moved below the lowest capacity the searches of its block found where
        the verdict's rate would run past it (plan/search.cost_rate); the move said once, in the log and the report."""
        key = (run.runtime, run.scenario, run.variant)
        planned = sorted({level.value for level in self.state.config.load_levels[run.scenario]
                          if level.kind == LoadKind.COST})
        if key not in self.cost_bounds:
            bounds = {}  # model -> its lowest capacity; one that held no rate: below the lowest it broke at
            for s in self.state.env.get("searches", []):
                if (s.runtime, s.scenario, s.variant) == key and (s.held or s.broke):
                    bounds[s.model] = min(bounds.get(s.model, math.inf), s.held or s.broke / SearchSettings.factor)
            self.cost_bounds[key] = list(bounds.values())
            moved = [cost_rate(rate, planned[-1], self.cost_bounds[key]) for rate in planned]
            if moved != planned:
                lowest = min(bounds, key=bounds.get)
                said = (f"{run.runtime} {run.scenario}{f' ({run.variant})' if run.variant else ''}: cost rates "
                        f"{', '.join(f'{r:,g}' for r in planned)}/s moved to {', '.join(f'{r:,g}' for r in moved)}/s, "
                        f"below {lowest}'s capacity of {bounds[lowest]:,g}/s")
                self.state.env.append("cost_rates_moved", said)
                log(said)
        rate = cost_rate(run.load.value, planned[-1], self.cost_bounds[key])
        return run if rate == run.load.value else dataclasses.replace(run, load=Load(run.load.kind, rate))

    def search_found(self, run: PlannedRun) -> SearchRecord | None:
        """The last search of the run's model in its block that held a rate."""
        found = [s for s in self.state.env.get("searches", []) if (s.runtime, s.scenario, s.variant, s.model)
                 == (run.runtime, run.scenario, run.variant, run.model) and s.held]
        return found[-1] if found else None

    def held_rate(self, run: PlannedRun) -> PlannedRun | None:
        """A soak or a scale-out at SOAK_SHARE of the capacity the model's search found just before (None: it found
        none)."""
        found = self.search_found(run)
        if not found:
            self.state.env.append("skipped", f"{run.tag} (its search held no rate)")
            log(f"{run.tag}: skipped, the search before it held no rate")
            return None
        rate = round(SOAK_SHARE * found.held)
        log(f"{run.tag}: {run.load.kind} at {rate:g}/s, {SOAK_SHARE * 100:g} % of the {found.held:g}/s its search held")
        return dataclasses.replace(run, load=Load(run.load.kind, rate))

    def search(self, runs: list[PlannedRun], block: Block, progress, task):
        """One repetition of a capacity search for each model of `runs`, in rounds: every model still searching
        measures its next rate, in an order that alternates between rounds, until every search has its answer."""
        env = self.state.env
        ceiling = (env.get("point_select") or {}).get("qps") if SCENARIOS[runs[0].scenario].limit == \
            Limit.POINT_SELECT else None
        searches = {r.model: Search(SearchSettings(r.load.value), ceiling) for r in runs}
        for round_no in itertools.count():
            order = runs if round_no % 2 == 0 else list(reversed(runs))
            todo = [(r, rate) for r in order if (rate := searches[r.model].next_rate()) is not None]
            if not todo:
                break
            for placeholder, rate in todo:
                run = dataclasses.replace(placeholder, load=Load(LoadKind.OPEN, rate))
                position = self.position(placeholder, len(searches[run.model].steps) + 1)
                progress.update(task, description=f"{position} {run.scenario} {run.model} at {run.load.label} "
                                                  f"rep {run.repetition}")
                values = dataclasses.asdict(self.step(run, block, position))
                searches[run.model].record(rate, slo.holds_slo(values), generator_limited(values, self.cores))
        for placeholder in runs:
            found = searches[placeholder.model]
            env.append("searches", SearchRecord(
                runtime=placeholder.runtime, scenario=placeholder.scenario, variant=placeholder.variant,
                model=placeholder.model, repetition=placeholder.repetition, stop=found.stop, held=found.held,
                broke=found.broke, ceiling=ceiling, steps=len(found.steps)))
            log(f"{placeholder.scenario} {placeholder.model} rep {placeholder.repetition}: search ended "
                f"({found.stop.value}) after {len(found.steps)} steps, held {found.held}/s, broke {found.broke}/s")
            progress.advance(task)

    def step(self, run: PlannedRun, block: Block, position: str) -> RunRow:
        """A step, measured, and measured again where measure_again says why (a third time where
        measure_once_more does): the last measurement is the step's; the others stay in the table, marked
        superseded, and the report lists them all."""
        limit = self.state.config.max_interference
        row = self.measure(run, block, position)
        reason = measure_again(dataclasses.asdict(row), self.cores, limit, run.load.kind)
        attempt = 1
        while reason:
            attempt += 1
            log(f"{run.tag}: measuring it {'again' if attempt == 2 else 'a third time'} after a pause, {reason}")
            row.superseded = True
            table.drop_windows(self.state.out, run.tag)
            if interference(dataclasses.asdict(row), limit):  # the wait for quiet seconds is the pause
                waited, quiet = wait_quiet(limit)
                reason += (f"; measured once the machine was quiet (after {waited:.0f} s)" if quiet else
                           f"; measured with the machine still busy after {waited:.0f} s (over {limit:g} % of one "
                           f"core)")
            else:
                time.sleep(PAUSE_BEFORE_AGAIN_S)
            row = self.measure(run, block, position, attempt=attempt, reason=reason)
            reason = measure_once_more(dataclasses.asdict(row), limit, run.load.kind) \
                if attempt < MAX_ATTEMPTS else None
        return row

    def measure(self, run: PlannedRun, block: Block, position: str, attempt: int = 1,
                reason: str | None = None) -> RunRow:
        """One measured run: wait for the app to drain the previous one (or restart a starved app), measure, keep."""
        state = self.state
        drained = self.drain(run, block) if block.app is not None else 0.0
        if SCENARIOS[run.scenario].inserts_reports and block.db_url:
            services.empty_reports(block.db_url, state.config.db_user, state.config.db_password)
        soak = dict(jcmd=block.jcmd, nmt_note=block.nmt_note, connections=self.connections(block)) \
            if run.load.kind == LoadKind.SOAK else {}
        row = self.k6.measure(run, block.probe, block.base_url, block.tokens_file, self.sampled, attempt,
                              pod=block.pod or state.budget(run.runtime), **soak)
        row.drain_wait_s, row.attempt, row.remeasured = round(drained, 1), attempt, reason
        row.heap_mb = state.config.runtime(run.runtime).heap_mb
        row.oom = heaps.died_of_oom(block.app)  # an OutOfMemoryError ended the app: the run's stop
        state.rows.append(row)
        self.check(row)
        log(f"{run.tag}: {row.ok_rps:.1f} ok/s over {row.window_s:.0f} s, p99 "
            f"{row.p99_ms if row.p99_ms is None else round(row.p99_ms, 1)} ms, errors {row.errors}, "
            f"dropped {row.dropped}" + (f", other processes {row.other_cpu_pct:.0f} % of a core"
                                        if row.other_cpu_pct else "")
            + f" ({position}; about {duration(state.plan.seconds_left(run))} of runs left)")
        table.write(state.out, state.rows, state.env)
        if row.oom:  # the step ended there; the next one gets a fresh, warmed app
            self.state.env.append("out_of_memory", f"{run.tag}: {row.oom}")
            log(f"{run.tag}: the app ran out of memory ({row.oom}): restarting it")
            self.restart(run, block)
        elif block.app is not None and not block.app.alive():
            raise RuntimeError(f"the app died during {run.tag}; see {block.app.log_path}")
        time.sleep(state.plan.cooldown_s)
        return row

    def connections(self, block: Block) -> dict[str, int]:
        """What a soak counts the app's connections to: the database's port and the downstream service's."""
        db_port = re.search(r"//[^/:]+:(\d+)", block.db_url or "")
        ports = {"downstream_connections": self.state.config.port + 1}
        return dict(ports, db_connections=int(db_port.group(1))) if db_port else ports

    def drain(self, run: PlannedRun, block: Block) -> float:
        """Seconds the app took to work off the previous run's backlog; a starved app is restarted and warmed again."""
        try:
            return health.wait_drained(block.app, block.base_url)
        except health.StillBusy:
            # A starved worker pool leaves a backlog that takes minutes to work off: a restart and a re-warm cost
            # less. The re-warm runs until the app is steady again, as the block's first warm-up did.
            log(f"the app is still busy 15 s after the run: restarting it (restart {block.restarts + 1})")
            self.restart(run, block)
            return health.wait_drained(block.app, block.base_url)

    def restart(self, run: PlannedRun, block: Block) -> None:
        """A fresh app for the block, warmed again, after a starved run or an OutOfMemoryError."""
        block.restarts += 1
        self.state.env.restarts = self.state.env.get("restarts", 0) + 1
        self.state.pm.stop(block.app)
        block.app, block.probe = block.restart(block.restarts)
        self.warm_up(block, run, f"rewarm{block.restarts}")

    def check(self, row: RunRow):
        if row.k6_exit not in (0, 99):
            self.state.failures.append(f"{row.tag}: k6 exit {row.k6_exit} (script error, setup failure or killed)")
        if row.checks_failed and (row.errors if row.failed_all is None else row.failed_all) == 0:
            # failed checks on answered requests (wrong body): the app is broken, not overloaded
            self.state.failures.append(f"{row.tag}: {row.checks_failed} failed checks without failed requests")
