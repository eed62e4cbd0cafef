"""Capacity at the SLO: each model's table row and verdict, its lead over the next model, and why it stopped
there (the first step it did not hold, or the search's bound)."""
from __future__ import annotations

import math

import pandas as pd

from benchlab.formatting import TOO_FEW_REQUESTS, Fixed, num, percent, ratio
from benchlab.model import SLO_MAX_BAD_SHARE, Limit, LoadKind, Stop
from benchlab.report.layout import Table
from benchlab.results import slo, why
from benchlab.results.cost import Cost, verdict_costs
from benchlab.results.environment import Environment
from benchlab.scenarios import SCENARIOS


def physical_limit(scenario: str, env: Environment, caps: list[slo.Capacity]) -> tuple[float | None, str]:
    kind = SCENARIOS[scenario].limit
    if kind == Limit.POINT_SELECT:
        qps = (env.point_select or {}).get("qps")
        return qps, "the database's point selects, " + (f"{qps:.0f}/s" if qps else "not measured")
    top = max(max(c.steps) for c in caps if c.scenario == scenario)  # a model's skipped steps were offered too
    return top, f"the top rate offered, {top:g}/s"

def capacity_table(runs: pd.DataFrame, env: Environment, caps: list[slo.Capacity], costs: list[Cost] = ()) -> Table:
    """Each model's capacity, its interval, how it compares, and why it stopped there; with cost runs, also its CPU
    per request at the knee against its steady cost (a JIT still compiling in the measurement, or a throttled app,
    would show as a ratio far above 1)."""
    steady_cost = {(c.scenario, c.model): c for scenario in {c.scenario for c in costs}
                   for c in verdict_costs(costs, scenario)}
    knees = knee_runs(runs, caps)
    first = {}
    for c in caps:
        first.setdefault(c.scenario, c)
    rows = []
    for scenario in SCENARIOS:
        sc = [c for c in caps if c.scenario == scenario]
        if not sc:
            continue
        best = max(c.rate for c in sc)
        for c in sorted(sc, key=lambda c: -c.rate):
            limit, _ = physical_limit(scenario, env, caps)
            top = c.rate == max(c.steps)
            bound = search_bound(env, scenario, c.model)
            interval = f"{c.low:g} to {c.high:g}" + (f" ({bound})" if bound else " (ladder top: at least)" if top
                                                     else f" (at least: {c.ceiling})" if c.ceiling else "")
            rows.append([scenario, c.model, f"{c.rate:g}/s" if c.rate else "none of the steps",
                         interval, Fixed(c.rate / best, 2) if best else None,
                         f"{num(c.rate / limit, 2)} ({num(c.low / limit, 2)} to {num(c.high / limit, 2)})"
                         if limit else "-", reason(runs, c, env.cores)]
                        + ([knee_vs_steady(steady_cost.get((scenario, c.model)), knees.get((scenario, c.model)))]
                           if costs else []))
    note = ("Capacity: the highest arrival rate at which the model held the SLO at that step and every lower one "
            f"(p99 within its bound; failed + dropped <= {percent(SLO_MAX_BAD_SHARE)}), up to the next step; the "
            "median over repetitions. Physical limit: " + "; ".join(
                f"{s}: {physical_limit(s, env, caps)[1]}" for s in SCENARIOS if s in first) + "."
            + (" Knee vs steady: the app's CPU per request at the knee over its steady cost; above 1.3 the knee "
               "still paid for the JIT or interference." if costs else ""))
    return Table("Capacity at the SLO", ["scenario", "model", "capacity", "interval (req/s)", "vs best",
                                        "vs physical limit", "why it stopped there"]
                 + (["CPU per request at the knee vs steady"] if costs else []), rows, note)


# A knee is flat where the step at the capacity held with its p99 already at 0.8 of the bound and the next step broke
# it by at most half again: a few per cent more p99 in the next run and the same step breaks, so the capacity moves a
# step or two between runs with nothing changed. Every measurement of the two steps counts, those measured again too:
# worker's JWT + MySQL p99 at 1,400/s read 50.1 ms, then 105.5 ms, and its capacity moved from 1,700 to 1,200/s.
FLAT_KNEE = (0.8, 1.5)


def flat_knees(all_runs: pd.DataFrame, caps: list[slo.Capacity]) -> list[str]:
    """The models whose p99 climbs gently through the SLO at their knee: at the capacity already near the bound, in
    its worst measurement, and the next step within reach, in its best (all_runs: also the superseded ones)."""
    out = []
    for c in caps:
        if not c.rate or c.rate == max(c.steps):
            continue
        bound = slo.scenario_bound_ms(all_runs, c.scenario)
        at = all_runs[(all_runs.scenario == c.scenario) & (all_runs.model == c.model)
                      & (all_runs.load_model == LoadKind.OPEN)]
        above = min(s for s in c.steps if s > c.rate)
        held, broke = at[at.load == c.rate].p99_ms.max(), at[at.load == above].p99_ms.min()
        if FLAT_KNEE[0] * bound <= held and broke <= FLAT_KNEE[1] * bound:
            out.append(f"{c.scenario}, {c.model}: a flat knee, p99 {held:.0f} ms at {c.rate:g}/s and {broke:.0f} ms "
                       f"at {above:g}/s against {bound:g} ms; this capacity may move a step between runs (the chart "
                       f"below).")
    return out


def knee_vs_steady(cost: Cost | None, knee) -> str:
    if cost is None or knee is None or knee.app_cpu_ms_per_req != knee.app_cpu_ms_per_req \
            or knee.app_cpu_ms_per_req is None:
        return "-"
    if cost.unsettled == TOO_FEW_REQUESTS:  # a ratio of a cost its runs do not bound says nothing either
        return TOO_FEW_REQUESTS
    return f"{knee.app_cpu_ms_per_req / cost.cpu_ms:.2f}x ({knee.app_cpu_ms_per_req:.3f} vs {cost.cpu_ms:.3f} ms)"

def repetitions(runs: pd.DataFrame, scenario: str) -> int:
    """The capacity search's repetitions (a cost rate's interleaved runs are numbered as repetitions too)."""
    return int(runs[(runs.scenario == scenario) & (runs.load_model == LoadKind.OPEN)].repetition.max())


def unbounded(c: slo.Capacity, env: Environment) -> bool:
    """Whether no rate above the capacity was seen to break the SLO: the true capacity may be anything higher."""
    return c.rate == max(c.steps) or search_bound(env, c.scenario, c.model) is not None


def lower_bound(c: slo.Capacity, env: Environment) -> bool:
    """Whether the capacity is only a lower bound: no rate above it broke the SLO, or k6 or the machine broke it
    (Capacity.ceiling), not the app. The model's own capacity lies at or above it."""
    return unbounded(c, env) or c.ceiling is not None


def capacity_text(c: slo.Capacity, env: Environment) -> str:
    """'840/s (840 to 1000)'; '>= 50/s' where no rate above it broke the SLO, '>= 1700/s, the machine's ceiling'
    where the rig did."""
    if unbounded(c, env):
        return f">= {c.rate:g}/s"
    return f">= {c.rate:g}/s, {c.ceiling}" if c.ceiling else f"{c.rate:g}/s ({c.low:g} to {c.high:g})"


# One repetition gives no run-to-run variation; three quick runs on the 2-core lab machine found one model's
# aggregate capacity anywhere from 680 to 1,300/s. So from one repetition a lead is claimed only beyond this factor.
ONE_RUN_FACTOR = 2.0
HELD_AT_NO_RATE = "held at no rate"


def versus_best(best: slo.Capacity, other: slo.Capacity, env: Environment, reps: int) -> str | None:
    """Another model's capacity as a multiple of the best one's, with the range both intervals allow; None where the
    two are not told apart (overlapping intervals, or from one repetition closer than ONE_RUN_FACTOR)."""
    if not other.rate:
        return HELD_AT_NO_RATE
    best_high = math.inf if lower_bound(best, env) else best.high
    other_high = math.inf if lower_bound(other, env) else other.high
    if other_high > best.low or (reps == 1 and best.low < ONE_RUN_FACTOR * other_high):
        return None
    return ratio(other.rate / best.rate, other.low / best_high, other_high / best.low)


def what_stopped(runs: pd.DataFrame, c: slo.Capacity, env: Environment) -> str:
    """What stopped a model, in a dozen words: the search's bound, or the first step it did not hold."""
    if unbounded(c, env):
        return search_bound(env, c.scenario, c.model) or f"nothing: it held the top rate, {max(c.steps):g}/s"
    at = step_runs(runs, c)
    row = slo.peaks(at)
    failed, dropped = int(at.errors.sum()), int(at.dropped.sum())
    return (f"at {at.load.iloc[0]:g}/s: {why.brief(row, env.cores)}; p99 {num(at.p99_ms.median())} ms"
            + (f", {failed} failed" if failed else "") + (f", {dropped} dropped" if dropped else ""))


def step_runs(runs: pd.DataFrame, c: slo.Capacity) -> pd.DataFrame:
    """The runs of the first step above a model's capacity, where it broke the SLO."""
    return slo.breaking_step(runs[(runs.scenario == c.scenario) & (runs.model == c.model)
                                  & (runs.load_model == LoadKind.OPEN)], c.rate)


SEARCH_BOUNDS = {  # why a capacity search stopped without a rate that broke the SLO just above one that held
    Stop.CEILING: "at least: the database's point-select rate was reached",
    Stop.LOAD_GENERATOR: "at least: k6 was the limit",
    Stop.BUDGET: "at least: the search ran out of steps",
    Stop.NOTHING_HELD: "none held down to an eighth of the search's start",
}

def search_bound(env: Environment, scenario: str, model: str) -> str | None:
    """What limits a searched capacity other than the app, if any repetition's search stopped at such a limit."""
    stops = {s.stop for s in env.searches if (s.scenario, s.model) == (scenario, model)}
    return "; ".join(SEARCH_BOUNDS[stop] for stop in Stop if stop in stops and stop in SEARCH_BOUNDS) or None

def reason(runs: pd.DataFrame, c: slo.Capacity, cores: int) -> str:
    """The 'why' at the first step the model did not hold: peaks over its repetitions at that step."""
    if c.rate == max(c.steps):
        return f"held the SLO up to the highest step ({max(c.steps):g}/s)"
    at = step_runs(runs, c)
    row = slo.peaks(at)
    failed, dropped = int(at.errors.sum()), int(at.dropped.sum())
    breach = (f"at {at.load.iloc[0]:g}/s, {int(at.requests.sum()) + dropped} requests: p99 {num(at.p99_ms.median())} ms"
              + (f", {failed} failed" if failed else "") + (f", {dropped} dropped" if dropped else ""))
    explained = why.explain(row, cores, SCENARIOS[c.scenario].worker_branches_nest)
    budget = why.app_budget(row)
    if budget and "CPU budget" not in explained and row.get("app_cpu_pct") == row.get("app_cpu_pct"):
        # the app's share of its budget beside whatever saturated first: a budgeted app that did not use it was
        # stopped by something else
        explained += f"; the app at {row['app_cpu_pct'] / budget:.0f} % of its {budget:g} CPU budget"
    return f"{breach}; {explained}"

def knee_runs(runs: pd.DataFrame, caps: list[slo.Capacity]) -> dict[tuple[str, str], pd.Series]:
    """Per scenario and model, the run at its capacity (its knee): the first repetition that offered that rate."""
    out = {}
    for c in caps:
        at = runs[(runs.scenario == c.scenario) & (runs.model == c.model) & (runs.load_model == LoadKind.OPEN)
                  & (runs.load == c.rate)]
        if c.rate and not at.empty:
            out[c.scenario, c.model] = at.sort_values("repetition").iloc[0]
    return out
