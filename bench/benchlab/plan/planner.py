"""The plan: which runs, in which order, and how long it takes. Pure: no I/O, so it is tested as it is."""
from __future__ import annotations

from dataclasses import dataclass

from benchlab.model import AGGREGATE_IDEAL_S, WORKER, Load, LoadKind, PlannedRun, settle_s
from benchlab.plan.search import SearchSettings
from benchlab.scenarios import SCENARIOS, scale_out, variant_of

# Seconds a run costs beyond its load window: k6 start and stop, drain check, the pause between runs.
RUN_OVERHEAD_S = 1.5  # measured here: a 8 s run with 1 s cooldown takes 9.5-10 s
RESTART_S = 35.0  # measured here: the wait for a drain that does not come, stop and start (the re-warm apart)
APP_START_S = 8.0  # measured here: stop and start of the app for another configuration (a scenario's variant)
# A warm-up runs until the app is steady (run/measure/warmup.py), at most --warmup seconds: planned at this much (three
# 2 s windows after the JIT's first compilations, k6's start; measured here: 22 to 30 s on average in the quick
# preset's scenarios, one more go included), at most the cap.
EXPECTED_WARMUP_S = 26.0


# A profiled run's length (--profile): its breakdown needs thousands of samples, and 20 s of an app using a third of a
# core gives about 7,000 at one per millisecond of CPU.
PROFILE_S = 20.0

# A verdict's cost run lasts long enough to hold this many requests at its planned rate (one moved below a knee at run
# time keeps these seconds). At the aggregation's 80/s the quick preset's 3 s held 240 (160 between the sampler's
# first and last reading), and a model's runs scattered by up to 35 %.
VERDICT_REQUESTS = 500

# An undecided cost verdict adds repetitions of its rate until it holds this many times the planned ones
# (results/cost.more_verdict_runs): quick's 4 reach 8, enough for a 1.15x ratio whose paired runs scatter by 10 %.
MOST_VERDICT_RUNS = 2

# Steps a capacity search usually takes per model: 4 to 7 here (x2 to the breach, then two or three bisections).
USUAL_SEARCH_STEPS = 6


def measured_steps(run: PlannedRun, upper_bound: bool = False) -> int:
    """Runs a planned run stands for: a capacity search its usual steps (at most its step budget), anything else one."""
    if run.load.kind != LoadKind.SEARCH:
        return 1
    return SearchSettings(run.load.value).max_steps if upper_bound else USUAL_SEARCH_STEPS


def run_props(run: PlannedRun) -> dict[str, str]:
    """The app properties a run needs beyond the bench's own: its variant's."""
    return dict(variant_of(run.scenario, run.variant).props)


def expected_restart(run: PlannedRun) -> bool:
    limit = SCENARIOS[run.scenario].worker_starves_above_in_flight
    if run.model != WORKER or limit is None:
        return False
    in_flight = run.load.value * AGGREGATE_IDEAL_S if run.load.kind != LoadKind.CLOSED else run.load.value
    core = run_props(run).get("lab.worker.branches.core-size")
    if core is not None:  # a dedicated branch executor queues past its core threads (ThreadPoolExecutor semantics)
        return 2 * in_flight > int(core)
    return in_flight > limit


def reads_verdicts(loads: list[Load]) -> bool:
    """Whether a scenario's loads give the report's verdicts (a capacity search, a cost rate, a soak's drift): its
    warm-ups may take the full --warmup to reach steady state; a scenario measured at fixed points only gets
    --warmup-others."""
    return any(load.kind in (LoadKind.SEARCH, LoadKind.COST, LoadKind.SOAK, LoadKind.SCALE_OUT) for load in loads)


@dataclass(frozen=True)
class Plan:
    runs: list[PlannedRun]
    warmups: int
    warmup_s: float  # the longest warm-up of a scenario the verdicts are read from
    cooldown_s: float
    warmup_others_s: float | None = None  # the longest warm-up of any other scenario (None: warmup_s)
    others: frozenset[str] = frozenset()  # the scenarios that get warmup_others_s
    other_warmups: int = 0  # how many of the warm-ups are theirs, and a twin's on the models it never runs
    twin_apps: int = 0  # A/A twins started (a block's cost runs with a twin): primed on the others, warmed on its model
    # the repetitions a verdict's rate may reach where its verdict is undecided (0: the planned ones only)
    verdict_runs_most: int = 0
    # pod sizes compared: a pod whose searches disagree gets one more, in a block of its own (results/slo.py)
    search_added: bool = False

    def planned_seconds(self, upper_bound: bool = False) -> float:
        """The load phase: every run and warm-up with its fixed overhead, and a restart after each run expected to
        starve the worker pool. Expected: without the steps expected to be skipped, a search at its usual steps; upper
        bound: every run, a search at its step budget."""
        runs = self.runs if upper_bound else [r for r in self.runs if not expected_skip(r, self.runs)]
        verdicts = self.warmups - self.other_warmups
        return (sum(self.run_seconds(r, upper_bound) for r in runs)
                + (sum(self.run_seconds(r) * self.verdict_runs_added(r) for r in runs) if upper_bound else 0)
                + verdicts * (warmup_seconds(self.warmup_s, upper_bound) + RUN_OVERHEAD_S)
                + self.other_warmups * (warmup_seconds(self.warmup_others_s or self.warmup_s, upper_bound)
                                        + RUN_OVERHEAD_S)
                + self.app_starts() * APP_START_S
                + (self.added_search_seconds() if upper_bound else 0))

    def warmup_cap(self, scenario: str) -> float:
        """The longest warm-up of a scenario's models."""
        return self.warmup_others_s if scenario in self.others and self.warmup_others_s else self.warmup_s

    def run_seconds(self, run: PlannedRun, upper_bound: bool = False) -> float:
        """What one planned run costs: its steps, their overhead and an expected restart. A search that starts where
        the worker pool starves restarts the app once and then searches below its start; the upper bound restarts it
        after every step."""
        steps = measured_steps(run, upper_bound)
        restarts = (steps if upper_bound else 1) if expected_restart(run) else 0
        return (steps * (settle_s(run.load.kind) + run.seconds + self.cooldown_s + RUN_OVERHEAD_S)
                + restarts * self.restart_s(run))

    def verdict_runs_added(self, run: PlannedRun) -> int:
        """The most repetitions an undecided verdict adds that a run stands for: its model's at the verdict's rate,
        counted on its first run there (a twin's rate)."""
        if not self.verdict_runs_most or run.twin or run.load.kind != LoadKind.COST:
            return 0
        theirs = [r.repetition for r in self.runs if r.load == run.load and not r.twin
                  and (r.runtime, r.scenario, r.variant, r.model) == (run.runtime, run.scenario, run.variant, run.model)]
        has_twin = any(r.twin and r.load == run.load and (r.runtime, r.scenario, r.variant)
                       == (run.runtime, run.scenario, run.variant) for r in self.runs)
        return self.verdict_runs_most - len(theirs) if has_twin and run.repetition == min(theirs) else 0

    def added_search_seconds(self) -> float:
        """The most the added searches cost: one more for every pod, each an app start, its models' warm-ups and
        their searches at their step budget."""
        if not self.search_added:
            return 0.0
        firsts = [r for r in self.runs if r.load.kind == LoadKind.SEARCH and r.repetition == 1]
        pods = {(r.runtime, r.scenario, r.variant) for r in firsts}
        return len(pods) * APP_START_S + sum(
            self.run_seconds(r, upper_bound=True) + warmup_seconds(self.warmup_cap(r.scenario), True) + RUN_OVERHEAD_S
            for r in firsts)

    def seconds_left(self, after: PlannedRun) -> float:
        """The expected time of the runs after this one (warm-ups and app starts of later blocks left out)."""
        return sum(self.run_seconds(r) for r in self.runs
                   if r.index > after.index and not expected_skip(r, self.runs))

    def restart_s(self, run: PlannedRun) -> float:
        """A restart and the re-warm of every model of the run's block, as long as the block's first warm-up."""
        block_models = {r.model for r in self.runs if (r.runtime, r.scenario, r.variant)
                        == (run.runtime, run.scenario, run.variant)}
        return RESTART_S + len(block_models) * (warmup_seconds(self.warmup_cap(run.scenario)) + RUN_OVERHEAD_S)

    def app_starts(self) -> int:
        """App starts for another configuration: wherever a run's properties differ from the run's before it, and
        for each model of a scenario that runs every model in an app of its own."""
        keys = [app_key(r) for r in self.runs]
        # each runtime's first app starts with no properties of a run, on the shipped driver
        firsts = {r.runtime: (r.runtime, [], None, None) for r in self.runs}
        starts = 0
        for previous, key in zip([None] + keys, keys):
            first = firsts.pop(key[0], None)
            starts += key != (first or previous)
        return starts + self.twin_apps


def lower_cost_repeat(cost_repeat: int) -> int:
    """Runs per model at a cost rate below the verdict's: enough for the cost's trend against the rate (half the
    verdict's, at least 2), not for a verdict."""
    return max(2, cost_repeat // 2)


def warmup_seconds(cap: float, upper_bound: bool = False) -> float:
    """One warm-up: until steady, at most the cap."""
    return cap if upper_bound else min(cap, EXPECTED_WARMUP_S)


def start_up_seconds(runtimes: int, cold_starts: int, curve_s: float) -> float:
    """The start-up measurement of every runtime: its cold starts (a start to the first answer and a stop, as long as
    an app start for another configuration) and its warm-up curve (a k6 run)."""
    return runtimes * (cold_starts * APP_START_S + (curve_s + RUN_OVERHEAD_S if curve_s else 0))


def app_key(run: PlannedRun):
    """What a run's app must match: its runtime, its configuration, its driver and, where each model has an app of its
    own, the model."""
    return (run.runtime, sorted(run_props(run).items()), variant_of(run.scenario, run.variant).driver,
            run.model if SCENARIOS[run.scenario].app_per_model else None)


def expected_skip(run: PlannedRun, runs: list[PlannedRun]) -> bool:
    """An open-model step of the worker model above a lower step of the same repetition expected to starve it."""
    return run.load.kind == LoadKind.OPEN and any(
        expected_restart(r) for r in runs if r.load.kind == LoadKind.OPEN and r.load.value < run.load.value
        and (r.runtime, r.scenario, r.variant, r.model, r.repetition)
        == (run.runtime, run.scenario, run.variant, run.model, run.repetition))


def make_plan(runtimes: list[str], scenarios: list[str], loads: dict[str, list[Load]], models: list[str],
              repetitions: int, seconds: float, warmup_s: float, cooldown_s: float,
              variants: dict[str, list[str]] | None = None, interleave: bool = False, cost_repeat: int = 3,
              cost_seconds: float | None = None, warmup_others_s: float | None = None,
              profile_events: tuple[str, ...] = (), soak_seconds: float | None = None, twin: bool = False,
              cost_ladder: bool = True, pod_searches: int = 0) -> Plan:
    """Runtimes x scenarios x variants x loads x repetitions x models, models interleaved innermost, a variant one
    block; with `interleave` (--jdk, --heap) the repetitions outermost. A scenario's capacity searches come first, its
    other loads in their order. A scenario's highest cost rate (its verdict's) runs cost_repeat times per block, each
    run at least VERDICT_REQUESTS long, with `twin` the first model's A/A twin taking its turn; a lower cost rate
    lower_cost_repeat times, or not at all without `cost_ladder`. With profile_events (--profile), the verdict's rate
    then once per model and event in the first runtime's first block of the scenario. With pod_searches (pod sizes
    compared) a scenario's search runs that many rounds, each pod a block per round, its cost runs in the first. Why
    this order: bench/README.md, "The plan and its steps"."""
    blocks = []  # (runtime, scenario, variant, repetitions)
    for scenario in scenarios:
        # a soak or a scale-out is its own repetition: minutes of one run say more than several (its search, once,
        # sets its rate)
        reps = [1] if SCENARIOS[scenario].held_load else list(range(1, repetitions + 1))
        chosen = (variants or {}).get(scenario)
        kept = [v for v in SCENARIOS[scenario].variants
                if ((v.name in chosen) if chosen is not None else not v.opt_in)]
        if pod_searches and not SCENARIOS[scenario].held_load \
                and any(load.kind == LoadKind.SEARCH for load in loads[scenario]):
            # A pod's next search comes after every other pod's, on a fresh app: its own block, as a search in the
            # same block could only follow its own. The app start and warm-up are 1.5 of the 4 min a second search
            # adds per pod in the quick preset; a replica is a fresh app too, and the interval spans apps.
            blocks += [(rt, scenario, v, [rep]) for rep in range(1, pod_searches + 1) for v in kept for rt in runtimes]
        elif interleave:
            blocks += [(rt, scenario, v, [rep]) for rep in reps for v in kept for rt in runtimes]
        else:
            blocks += [(rt, scenario, v, reps) for v in kept for rt in runtimes]
    if not interleave and not pod_searches:  # runtimes outermost, one after the other
        blocks.sort(key=lambda b: runtimes.index(b[0]))
    runs, warmups, twin_apps, primings = [], 0, 0, 0
    for runtime, scenario, variant, block_reps in blocks:
        block_models = [m for m in models if m in variant.models]
        if SCENARIOS[scenario].scale_out_cpus:  # one model per runtime: its cheapest, chosen as the run goes
            block_models = block_models[:1]
        warmups += len(block_models)

        verdict_rate = max((load.value for load in loads[scenario] if load.kind == LoadKind.COST), default=None)

        def load_reps(load: Load) -> list[int]:
            if load.kind != LoadKind.COST:
                return block_reps
            repeat = cost_repeat if load.value == verdict_rate else lower_cost_repeat(cost_repeat)
            first = (block_reps[0] - 1) * cost_repeat  # numbered on across the blocks of an interleaved plan
            return list(range(first + 1, first + repeat + 1))

        def turns(load: Load) -> list[tuple[str, bool]]:
            """Who takes a turn at a load: the models, and at the verdict's rate the first one's twin, last."""
            with_twin = twin and load.kind == LoadKind.COST and load.value == verdict_rate and len(block_models) > 1
            return [(model, False) for model in block_models] + ([(block_models[0], True)] if with_twin else [])

        def profiled(load: Load) -> list[tuple[str, Load, int, str, bool]]:
            if load.kind != LoadKind.COST or load.value != verdict_rate or block_reps[0] != 1 \
                    or runtime != runtimes[0]:
                return []
            return [(model, Load(LoadKind.PROFILE, load.value), 1, event, False) for event in profile_events
                    for model in block_models]

        # the searches first: a block's cost rates move below the lowest capacity they find (Steps.within_knees)
        ordered = sorted((load for load in loads[scenario] if cost_ladder or load.kind != LoadKind.COST
                          or load.value == verdict_rate), key=lambda load: load.kind != LoadKind.SEARCH)
        if pod_searches and block_reps[0] > 1:  # a pod's later round: its search again, the rest ran in the first
            ordered = [load for load in ordered if load.kind == LoadKind.SEARCH]
        if SCENARIOS[scenario].app_per_model:  # each model's runs together, in an app of its own
            order = [(model, load, rep, "", False) for model in block_models for load in ordered
                     for rep in load_reps(load)]
        else:  # no model always first
            order = [step for load in ordered
                     for step in [(model, load, rep, "", on_twin) for rep in load_reps(load)
                                  for model, on_twin in (turns(load) if rep % 2 else list(reversed(turns(load))))]
                     + profiled(load)]
        if any(on_twin for *_, on_twin in order):  # the twin: primed on the other models, warmed up on its own
            twin_apps += 1
            warmups += len(block_models)
            primings += len(block_models) - 1
        runs += [PlannedRun(len(runs) + i + 1, runtime, scenario, load, rep, model,
                            PROFILE_S if load.kind == LoadKind.PROFILE else
                            max(cost_seconds or seconds, VERDICT_REQUESTS / load.value)
                            if load.kind == LoadKind.COST and load.value == verdict_rate else
                            cost_seconds or seconds if load.kind == LoadKind.COST else
                            soak_seconds or seconds if load.kind == LoadKind.SOAK else
                            scale_out.SECONDS if load.kind == LoadKind.SCALE_OUT else seconds,
                            variant.name, event, on_twin)
                 for i, (model, load, rep, event, on_twin) in enumerate(order)]
    others = frozenset(s for s in scenarios if not reads_verdicts(loads[s]))
    other_warmups = primings + sum(len([m for m in models if m in variant.models])
                                   for _, scenario, variant, _ in blocks if scenario in others)
    # an interleaved plan's blocks hold a repetition each, numbered on across apps: nothing to add to
    return Plan(runs, warmups=warmups, warmup_s=warmup_s, cooldown_s=cooldown_s, warmup_others_s=warmup_others_s,
                others=others, other_warmups=other_warmups, twin_apps=twin_apps,
                verdict_runs_most=MOST_VERDICT_RUNS * cost_repeat if twin and not interleave else 0,
                search_added=any(r.load.kind == LoadKind.SEARCH for r in runs) and bool(pod_searches))
