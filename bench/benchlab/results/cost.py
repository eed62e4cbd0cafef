"""What a request costs the app at steady state: its CPU per successful request at a common rate below every model's
saturation (the cost runs, LoadKind.COST), with an interval from the interleaved repetitions, and each model's cost
as a multiple of the cheapest one's. On a machine whose knee belongs to the load generator, this is what still tells
the models apart."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchlab.model import LoadKind

RESAMPLES = 2000
LEVEL = 0.95


@dataclass(frozen=True)
class Cost:
    scenario: str
    model: str
    rate: float  # the common arrival rate, requests/s
    runs: int
    cpu_ms: float  # the app's CPU ms per successful request: mean over the runs
    low: float  # its 95 % interval (percentile bootstrap over the runs)
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
    def requests_per_core_s(self) -> float:
        """The most one core could serve at this cost: 1,000 ms / CPU ms per request."""
        return 1000 / self.cpu_ms


def per_run(rows: pd.DataFrame) -> pd.Series:
    """Each cost run's app CPU ms per successful request (the rows' figure is per finished request)."""
    ok = rows.requests - rows.errors
    return (rows.app_cpu_ms_per_req * rows.requests / ok.where(ok > 0)).astype(float)


def bootstrap_means(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return values[rng.integers(0, len(values), size=(RESAMPLES, len(values)))].mean(axis=1)


def interval(distribution: np.ndarray) -> tuple[float, float]:
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(distribution, [tail, 100 - tail])
    return float(low), float(high)


def costs(runs: pd.DataFrame, seed: int = 1) -> list[Cost]:
    """Per scenario (and variant) and model, from the cost runs of the tidy table; the cheapest model first."""
    rows = runs[runs.load_model == LoadKind.COST].copy()
    if rows.empty:
        return []
    rows["cpu_ms"] = per_run(rows)
    rows["k6_ms"] = rows.k6_cpu_pct * 10 / rows.ok_rps.where(rows.ok_rps > 0)
    out = []
    for (scenario, rate), at in rows.groupby(["scenario", "load"], sort=False):
        samples = {m: g.cpu_ms.dropna().to_numpy() for m, g in at.groupby("model", sort=False)}
        samples = {m: v for m, v in samples.items() if len(v)}
        if not samples:
            continue
        rng = np.random.default_rng(seed)
        dist = {m: bootstrap_means(v, rng) for m, v in samples.items()}
        cheapest = min(samples, key=lambda m: samples[m].mean())
        for model in sorted(samples, key=lambda m: samples[m].mean()):
            g = at[at.model == model]
            ratio_low, ratio_high = interval(dist[model] / dist[cheapest])
            low, high = interval(dist[model])
            out.append(Cost(scenario, model, float(rate), len(samples[model]), float(samples[model].mean()), low,
                            high, float(samples[model].mean() / samples[cheapest].mean()),
                            1.0 if model == cheapest else ratio_low, 1.0 if model == cheapest else ratio_high,
                            median(g.rss_peak_mb), median(g.alloc_mb_per_s), median(g.k6_ms)))
    return out


def median(values: pd.Series) -> float | None:
    values = values.dropna()
    return float(values.median()) if len(values) else None
