"""The report's first screen: one row per scenario with the best model's capacity, the others against it, the steady
CPU per request and what stopped the best model; the caveats once, in the caption."""
from __future__ import annotations

import pandas as pd

from benchlab.formatting import TOO_FEW_REQUESTS, one_run, ratio
from benchlab.report.capacity import (HELD_AT_NO_RATE, ONE_RUN_FACTOR, capacity_text, repetitions, unbounded,
                                      versus_best, what_stopped)
from benchlab.report.layout import Table, model_order, model_rank
from benchlab.results import slo
from benchlab.results.cost import Cost, verdict_costs
from benchlab.results.environment import Environment
from benchlab.scenarios import SCENARIOS

HEADERS = ["scenario", "SLO", "best model", "capacity", "the others' capacity, vs the best",
           "steady CPU per request", "what stopped the best"]
NOT_TOLD_APART = "not told apart"


def joined(told: list[str], groups: dict[str, list[str]]) -> str:
    """'worker 0.21x (0.18 to 0.22); virtual, reactive: not told apart': models alike in a group each."""
    return "; ".join(told + [f"{', '.join(models)}: {what}" for what, models in groups.items() if models]) or "-"


def capacity_cells(runs: pd.DataFrame, env: Environment, caps: list[slo.Capacity], scenario: str) -> list[str]:
    """The best model, its capacity, the others against it, what stopped it."""
    sc = sorted((c for c in caps if c.scenario == scenario), key=lambda c: -c.rate)
    if not sc:
        return ["-", "-", "-", "-"]
    best = sc[0]
    if not best.rate:
        return ["none", f"none held {min(best.steps):g}/s", "-", what_stopped(runs, best, env)]
    if len(sc) > 1 and all(unbounded(c, env) for c in sc):
        return ["none told apart", capacity_text(best, env), "every model held every rate",
                f"nothing; --loads {scenario}=search:{max(best.steps):g} finds the knees"]
    reps = repetitions(runs, scenario)
    told, tied, groups = [], [], {HELD_AT_NO_RATE: []}
    for c in sc[1:]:
        versus = versus_best(best, c, env, reps)
        if versus is None:
            tied.append(c)
        elif versus == HELD_AT_NO_RATE:
            groups[versus].append(c.model)
        else:
            told.append(f"{c.model} {versus}")
    # tied where the rig stopped them all alike: the tie is k6's or the machine's, not the models'
    at_ceiling = best.ceiling if all(c.ceiling == best.ceiling for c in tied) else None
    return [best_cell(best.model, [c.model for c in tied], at_ceiling), capacity_text(best, env),
            joined(told, groups), what_stopped(runs, best, env)]


def best_cell(best: str, tied: list[str], ceiling: str | None = None) -> str:
    """'virtual', or 'virtual, reactive (tied)' where the others' capacities are not told apart from the best's: the
    highest rate alone would name a winner that the next run may not repeat. Tied models in their own order; 'tied at
    the machine's ceiling' where k6 or the machine stopped each of them (Capacity.ceiling)."""
    return f"{', '.join(model_order([best] + tied))} (tied{f' at {ceiling}' if ceiling else ''})" if tied else best


def cost_cell(costs: list[Cost]) -> str:
    """'at 500/s: worker 0.718 ms; virtual 1.41x (1.31 to 1.52); reactive: not told apart; A/A floor x1.08': the
    verdict's rate only (the highest every model ran); a clause per rate where runtimes' cost rates differ. A ratio
    from one pair of runs is its estimate and '1 run'; one whose costs are unsettled, 'too few requests to tell'."""
    costs = verdict_costs(costs, costs[0].scenario) if costs else []
    if not costs:
        return "-"
    clauses = []
    for rate, ladder in dict.fromkeys((c.rate, c.ladder) for c in costs):
        at = [c for c in costs if (c.rate, c.ladder) == (rate, ladder)]
        # the others in the models' own order: two within the variation between apps may swap places from run to run
        cheapest, others = at[0], sorted(at[1:], key=lambda c: model_rank(c.model))
        told = [f"{c.model} {ratio(c.ratio, c.ratio_low, c.ratio_high)}" for c in others if c.told_apart]
        told += [f"{c.model} {one_run(ratio(c.ratio))}" for c in others if c.pairs == 1]
        not_told = [c.model for c in others if not c.told_apart and c.ratio_unsettled is None]
        too_few = [c.model for c in others if c.pairs != 1 and c.ratio_unsettled is not None]
        clauses.append(f"{'at' if not clauses else 'At'} {rate:g}/s: {cheapest.model} {cheapest.cpu_ms:.3f} ms" + (
            f"; {joined(told, {NOT_TOLD_APART: not_told, TOO_FEW_REQUESTS: too_few})}; {floor_text(cheapest)}"
            if others else ""))
    return ". ".join(clauses)


def floor_text(c: Cost) -> str:
    """'A/A floor x1.08', or 'no A/A twin' where none ran (nothing is told apart then)."""
    return f"A/A floor x{c.floor.factor:.2f}" if c.floor is not None else "no A/A twin"


def answer_table(runs: pd.DataFrame, env: Environment, caps: list[slo.Capacity], costs: list[Cost]) -> Table | None:
    """One row per scenario with a capacity or a steady cost, in report order."""
    rows = []
    for scenario in SCENARIOS:
        mine = [c for c in costs if c.scenario == scenario]
        if not mine and not any(c.scenario == scenario for c in caps):
            continue
        best, capacity, others, stopped = capacity_cells(runs, env, caps, scenario)
        rows.append([scenario, f"p99 <= {slo.scenario_bound_ms(runs, scenario):g} ms", best, capacity, others,
                     cost_cell(mine), stopped])
    if not rows:
        return None
    one_run = any(repetitions(runs, c.scenario) == 1 for c in caps)
    ceilings = any(c.ceiling for c in caps)
    return Table("The answer", HEADERS, rows, " ".join([
        "Capacity: the highest arrival rate a model held its SLO at, up to the next step"
        + ("; >= where k6 or the machine broke the next step, a ceiling of the rig, not the model's" if ceilings
           else "") + "; the others as a multiple of it, with the range both intervals allow.",
        "Tied: the capacities' intervals overlap"
        + (f", or one repetition puts them within x{ONE_RUN_FACTOR:g} (runs vary that much here)" if one_run else "")
        + "; CPU per request not told apart: its ratio's interval reaches the A/A floor, a twin app's spread.",
        "CPU per request: the app's, on the steady app at the highest cost rate all its runtime's models ran; the "
        "details follow in tables."]))
