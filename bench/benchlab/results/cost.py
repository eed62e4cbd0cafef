"""What a request costs the app at steady state: its CPU per successful request at a common rate (the cost runs), with
Student's t intervals over the interleaved runs, and each model as a multiple of the cheapest (the mean of the log
ratios of one repetition's runs). Why these intervals: bench/README.md, "Reading the report"."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from benchlab.model import LoadKind

LEVEL = 0.95
# The cost runs share one app, and apps differ by up to this much (JWT + MySQL at 1,000/s: the same build in two apps
# moved each model by x1.01 to x1.11): a model is told apart only beyond it (bench/README.md, "Reading the report").
ONE_APP_FACTOR = 1.15


@dataclass(frozen=True)
class Cost:
    scenario: str
    model: str
    rate: float  # the common arrival rate, requests/s
    runs: int
    cpu_ms: float  # the app's CPU ms per successful request: mean over the runs
    low: float  # its 95 % interval (Student's t over the runs)
    high: float
    ratio: float  # cpu_ms / the cheapest model's at the same rate (1 for the cheapest)
    ratio_low: float
    ratio_high: float
    rss_mb: float | None  # median of the runs' peak RSS
    alloc_mb_per_s: float | None  # median allocation rate
    k6_cpu_ms: float | None  # k6's CPU per request, median: what the load generator paid for the same requests

    @property
    def detectable(self) -> bool:
        """Whether the model's cost differs from the cheapest one's beyond the interval."""
        return not self.ratio_low <= 1 <= self.ratio_high

    @property
    def told_apart(self) -> bool:
        """Whether the difference is also beyond the variation between apps (ONE_APP_FACTOR)."""
        return self.ratio_low > ONE_APP_FACTOR

    @property
    def requests_per_core_s(self) -> float:
        """The most one core could serve at this cost: 1,000 ms / CPU ms per request."""
        return 1000 / self.cpu_ms


def per_run(rows: pd.DataFrame) -> pd.Series:
    """Each cost run's app CPU ms per successful request (the rows' figure is per finished request)."""
    ok = rows.requests - rows.errors
    return (rows.app_cpu_ms_per_req * rows.requests / ok.where(ok > 0)).astype(float)


def t_interval(values: np.ndarray) -> tuple[float, float]:
    """The 95 % interval of the mean of a few runs; unbounded from fewer than 2."""
    if len(values) < 2:
        return -math.inf, math.inf
    low, high = stats.t.interval(LEVEL, len(values) - 1, loc=values.mean(), scale=stats.sem(values))
    return float(low), float(high)


def ratio_interval(model: pd.Series, cheapest: pd.Series) -> tuple[float, float]:
    """The interval of model / cheapest from the runs of the same repetition (Series indexed by repetition)."""
    paired = np.log((model / cheapest).dropna().to_numpy())
    low, high = t_interval(paired)
    return math.exp(low) if low > -math.inf else 0.0, math.exp(high) if high < math.inf else math.inf


def costs(runs: pd.DataFrame) -> list[Cost]:
    """Per scenario (and variant) and model, from the cost runs of the tidy table; the cheapest model first."""
    rows = runs[runs.load_model == LoadKind.COST].copy()
    if rows.empty:
        return []
    rows["cpu_ms"] = per_run(rows)
    rows["k6_ms"] = rows.k6_cpu_pct * 10 / rows.ok_rps.where(rows.ok_rps > 0)
    out = []
    for (scenario, rate), at in rows.groupby(["scenario", "load"], sort=False):
        by_rep = {m: g.groupby("repetition").cpu_ms.mean().dropna() for m, g in at.groupby("model", sort=False)}
        by_rep = {m: v for m, v in by_rep.items() if len(v)}
        if not by_rep:
            continue
        cheapest = min(by_rep, key=lambda m: by_rep[m].mean())
        for model in sorted(by_rep, key=lambda m: by_rep[m].mean()):
            g, mean = at[at.model == model], float(by_rep[model].mean())
            low, high = t_interval(by_rep[model].to_numpy())
            ratio_low, ratio_high = (1.0, 1.0) if model == cheapest else ratio_interval(by_rep[model],
                                                                                         by_rep[cheapest])
            out.append(Cost(scenario, model, float(rate), len(by_rep[model]), mean, low, high,
                            mean / float(by_rep[cheapest].mean()), ratio_low, ratio_high,
                            median(g.rss_peak_mb), median(g.alloc_mb_per_s), median(g.k6_ms)))
    return out


def cheapest(runs: pd.DataFrame, scenario: str, runtime: str) -> str | None:
    """The model whose request costs least in a runtime's cost runs of a scenario as configured (None: none ran)."""
    found = costs(runs[(runs.runtime == runtime) & (runs.scenario == scenario) & (runs.variant.fillna("") == "")])
    return found[0].model if found else None


def median(values: pd.Series) -> float | None:
    values = values.dropna()
    return float(values.median()) if len(values) else None


@dataclass(frozen=True)
class Gain:
    """One model's steady CPU per request in this build (after) against another build (before, --builds), from the
    cost runs of one interleaved run: each repetition's blocks ran one after the other, an app each."""
    scenario: str
    model: str
    rate: float
    before: str  # the runtimes: jvm-NAME, the other build
    after: str  # jvm, this build
    before_ms: float
    after_ms: float
    ratio: float  # after / before: below 1 is a gain
    low: float  # 95 % interval of the ratio over the runs' pairs (the k-th run of either build in a repetition)
    high: float
    per_app: tuple[float, ...]  # the ratio of each repetition's pair of apps: the variation between apps
    failed: int  # failed requests in both builds' cost runs


def gains(runs: pd.DataFrame, before: str, after: str, cost_repeat: int) -> list[Gain]:
    """Per scenario, cost rate and model: this build's CPU per request against the other build's."""
    rows = runs[(runs.load_model == LoadKind.COST) & runs.runtime.isin([before, after])].copy()
    rows["cpu_ms"] = per_run(rows)
    out = []
    for (scenario, rate, model), at in rows.groupby(["scenario", "load", "model"], sort=False):
        side = {rt: g.groupby("repetition").cpu_ms.mean().dropna() for rt, g in at.groupby("runtime")}
        if set(side) != {before, after}:
            continue
        low, high = ratio_interval(side[after], side[before])
        apps = pd.DataFrame({"after": side[after], "before": side[before]}).dropna()
        apps["app"] = (apps.index - 1) // cost_repeat
        per_app = tuple(float(g["after"].mean() / g["before"].mean()) for _, g in apps.groupby("app"))
        out.append(Gain(scenario, model, float(rate), before, after, float(side[before].mean()),
                        float(side[after].mean()), float(side[after].mean() / side[before].mean()), low, high,
                        per_app, int(at.errors.sum())))
    return out
