"""Capacity at an SLO from a stepped arrival-rate ladder: the highest offered rate that held the SLO."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchlab.model import SLO_MAX_BAD_SHARE, LoadKind
from benchlab.scenarios import SCENARIOS


def holds_slo(row) -> bool:
    """p99 within the scenario's bound and failed + dropped within SLO_MAX_BAD_SHARE of what was offered. The p99
    is over every request, failed ones included (their durations stay in k6's http_req_duration)."""
    offered = row["requests"] + row["dropped"]
    bad = row["errors"] + row["dropped"]
    return bool(offered > 0 and row["p99_ms"] is not None and row["p99_ms"] <= SCENARIOS[row["scenario"]].slo_p99_ms
                and bad <= SLO_MAX_BAD_SHARE * offered)


@dataclass(frozen=True)
class Capacity:
    scenario: str
    model: str
    rate: float  # median over repetitions of each repetition's capacity; 0 = not even the lowest step held
    low: float  # lowest repetition's capacity
    high: float  # the first step above the highest repetition's capacity (the true capacity lies below it)
    steps: tuple[float, ...]


def rep_capacity(passed: pd.Series) -> float:
    """Highest step such that it and every lower step held: a pass above a failure is luck, not capacity."""
    capacity = 0.0
    for rate, ok in passed.sort_index().items():
        if not ok:
            break
        capacity = rate
    return capacity


def capacities(table: pd.DataFrame) -> list[Capacity]:
    """Per scenario and model, from the open-model rows of the tidy table."""
    open_rows = table[table["load_model"] == LoadKind.OPEN].copy()
    if open_rows.empty:
        return []
    open_rows["slo_ok"] = open_rows.apply(holds_slo, axis=1)
    out = []
    for (scenario, model), g in open_rows.groupby(["scenario", "model"], sort=False):
        steps = tuple(sorted(g["load"].unique()))
        per_rep = [rep_capacity(r.set_index("load")["slo_ok"]) for _, r in g.groupby("repetition")]
        s = pd.Series(per_rep)
        above = [x for x in steps if x > s.max()]
        out.append(Capacity(scenario, model, float(s.median()), float(s.min()),
                            float(above[0]) if above else float(s.max()), steps))
    return out
