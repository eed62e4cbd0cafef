"""Capacity at an SLO from a stepped arrival-rate ladder: the highest offered rate that held the SLO."""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from benchlab.model import SLO_MAX_BAD_SHARE, LoadKind
from benchlab.results import why
from benchlab.scenarios import slo_p99_ms


def bound_ms(row) -> float:
    """The p99 bound a row is judged against: the one it was measured with, else (a table an older bench wrote) its
    scenario's (variant's) bound now."""
    recorded = row.get("slo_p99_ms")
    if recorded is not None and recorded == recorded:
        return float(recorded)
    return slo_p99_ms(row["scenario"], variant_text(row.get("variant")))


def scenario_bound_ms(runs: pd.DataFrame, scenario: str) -> float:
    """The p99 bound a scenario's rows were measured with (bound_ms): its app as configured's, else (only variants
    measured, such as the quick preset's 1 s holds) the first variant's."""
    rows = runs[runs.scenario == scenario]
    plain = rows[rows["variant"].fillna("") == ""] if "variant" in rows else rows
    return bound_ms((plain if len(plain) else rows).iloc[0]) if len(rows) else slo_p99_ms(scenario, "")


def holds_slo(row) -> bool:
    """p99 within the bound it was measured against (bound_ms) and failed + dropped within SLO_MAX_BAD_SHARE of what
    was offered. The p99 is over every request, failed ones included (their durations stay in k6's
    http_req_duration)."""
    offered = row["requests"] + row["dropped"]
    bad = row["errors"] + row["dropped"]
    bound = bound_ms(row)
    return bool(offered > 0 and row["p99_ms"] is not None and row["p99_ms"] <= bound
                and bad <= SLO_MAX_BAD_SHARE * offered)


# A breach beyond this margin needs no second measurement: p99 over this many times the bound, or this share lost.
# Not 1 %: steps that lost 1.0 to 1.6 % here held when measured again (bench/README.md, "Measuring a step again").
MARGIN_P99_FACTOR = 3.0
MARGIN_BAD_SHARE = 0.05


def breach_by_margin(row) -> bool:
    """A breach that a second measurement would only repeat: far beyond the SLO's p99, or many requests lost."""
    offered = row["requests"] + row["dropped"]
    return bool((row["p99_ms"] or 0) > MARGIN_P99_FACTOR * bound_ms(row)
                or (offered and (row["errors"] + row["dropped"]) > MARGIN_BAD_SHARE * offered))


def variant_text(variant) -> str:
    """A row's variant: "" for the app as configured (a CSV read back has NaN there)."""
    return variant if isinstance(variant, str) else ""


@dataclass(frozen=True)
class Capacity:
    scenario: str
    model: str
    rate: float  # median over repetitions of each repetition's capacity; 0 = not even the lowest step held
    low: float  # lowest repetition's capacity
    high: float  # the first step above the highest repetition's capacity (the true capacity lies below it)
    steps: tuple[float, ...]
    ceiling: str | None = None  # the rig's ceiling that broke the step above it (why.ceiling): then a lower bound


# A pod's searches further apart than this get it one more search, decided once after the planned ones. A search ends
# within 20 % (plan/search.py), so two of one capacity may differ by a step of x1.2; beyond x1.25 the app or the hour
# moved it.
SEARCHES_DISAGREE = 1.25


@dataclass(frozen=True)
class Disagreement:
    """A pod's searches (a runtime's, in a scenario and variant) whose capacities lie further apart than
    SEARCHES_DISAGREE: those of its best model, the one of the highest median, whose capacity sizes the pod."""
    runtime: str
    scenario: str
    variant: str
    model: str
    capacities: tuple[float, ...]  # each search's, by repetition

    @property
    def factor(self) -> float:
        """The highest over the lowest (inf where one search held no rate)."""
        low, high = min(self.capacities), max(self.capacities)
        return high / low if low else math.inf


def disagreeing_searches(table: pd.DataFrame, factor: float = SEARCHES_DISAGREE) -> list[Disagreement]:
    """Per runtime, scenario and variant, from the open-model rows of the tidy table (the final measurements), the
    searches of its best model where two of them lie more than `factor` apart."""
    open_rows = table[table["load_model"] == LoadKind.OPEN].copy()
    if open_rows.empty:
        return []
    open_rows["slo_ok"] = open_rows.apply(holds_slo, axis=1)
    open_rows["variant"] = open_rows["variant"].map(variant_text)
    out = []
    for (runtime, scenario, variant), pod in open_rows.groupby(["runtime", "scenario", "variant"], sort=False):
        per_model = {model: tuple(rep_capacity(r.set_index("load")["slo_ok"]) for _, r in g.groupby("repetition"))
                     for model, g in pod.groupby("model", sort=False)}
        best = max(per_model, key=lambda m: float(pd.Series(per_model[m]).median()))
        found = Disagreement(runtime, scenario, variant, best, per_model[best])
        if len(found.capacities) >= 2 and max(found.capacities) and found.factor > factor:
            out.append(found)
    return out


def rep_capacity(passed: pd.Series) -> float:
    """Highest step such that it and every lower step held: a pass above a failure is luck, not capacity."""
    capacity = 0.0
    for rate, ok in passed.sort_index().items():
        if not ok:
            break
        capacity = rate
    return capacity


def capacities(table: pd.DataFrame, cores: int | None = None) -> list[Capacity]:
    """Per scenario and model, from the open-model rows of the tidy table. cores: the machine's, with which a knee k6
    or the machine set is named (Capacity.ceiling); without them it is not."""
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
        rate = float(s.median())
        broke = breaking_step(g, rate)
        out.append(Capacity(scenario, model, rate, float(s.min()), float(above[0]) if above else float(s.max()),
                            steps, why.ceiling(peaks(broke), cores) if cores and len(broke) else None))
    return out


def breaking_step(rows: pd.DataFrame, rate: float) -> pd.DataFrame:
    """A model's open-model rows at the first step above its capacity, where it broke the SLO (none: it held the
    top)."""
    above = rows.load[rows.load > rate]
    return rows[rows.load == above.min()] if len(above) else rows.iloc[:0]


def peaks(rows: pd.DataFrame) -> dict:
    """The highest of each figure over a step's repetitions, as one row for why.py's rules."""
    return dict(rows.max(numeric_only=True).to_dict(), scenario=rows.scenario.iloc[0])
