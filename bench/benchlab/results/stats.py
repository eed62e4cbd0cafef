"""Differences between two models with a confidence interval from a moving-block bootstrap over the runs' per-second
windows: blocks of seconds within each run, then the runs themselves drawn again, so that the interval covers the
variation from run to run. From one run on a side there is none to cover, and no interval. Why: bench/README.md,
"Reading the report"."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from benchlab.formatting import compare, fmt, one_run

BLOCK_S = 5  # seconds per block: longer than the queues seen here take to drain at a stable load
RESAMPLES = 2000
LEVEL = 0.95


@dataclass(frozen=True)
class Difference:
    estimate: float  # mean(a) - mean(b)
    low: float  # its 95 % interval; unbounded where a side has one run
    high: float
    reference: float  # mean(b), for percent wording

    @property
    def bounded(self) -> bool:
        """Whether it has an interval: difference() gives none from one run on a side."""
        return math.isfinite(self.low) and math.isfinite(self.high)

    @property
    def detectable(self) -> bool:
        return not (self.low <= 0 <= self.high)

    def as_percent(self) -> tuple[float, float, float]:
        """Estimate and interval as shares of the reference b: (a - b) / b."""
        return self.estimate / self.reference, self.low / self.reference, self.high / self.reference


def block_resample_means(runs: list[np.ndarray], rng: np.random.Generator, resamples: int = RESAMPLES,
                         block: int = BLOCK_S) -> np.ndarray:
    """Bootstrap distribution of the mean over runs of each run's mean: each run resampled in moving blocks, then
    the runs drawn with replacement (two stages, as for any nested sample)."""
    per_run = []
    for values in runs:
        n = len(values)
        b = max(1, min(block, n))
        starts = np.arange(n - b + 1)
        k = -(-n // b)  # blocks needed to cover n
        picks = rng.choice(starts, size=(resamples, k))
        idx = (picks[:, :, None] + np.arange(b)[None, None, :]).reshape(resamples, -1)[:, :n]
        per_run.append(values[idx].mean(axis=1))
    per_run = np.asarray(per_run)
    if len(per_run) == 1:
        return per_run[0]
    drawn = rng.integers(0, len(per_run), size=(resamples, len(per_run)))
    return per_run[drawn, np.arange(resamples)[:, None]].mean(axis=1)


def difference(a_runs: list[np.ndarray], b_runs: list[np.ndarray], seed: int = 1) -> Difference:
    """a - b of the per-second mean over runs, with a percentile bootstrap interval (runs of a and b resampled apart)
    where each side has at least 2 runs. The seconds of one run vary less than runs do: the bootstrap gave one run's
    +233 % an interval of +233 to +233 %. So from one run on a side, no interval (unbounded)."""
    a_runs, b_runs = with_samples(a_runs), with_samples(b_runs)
    if min(len(a_runs), len(b_runs)) < 2:
        a_mean, b_mean = run_means(a_runs), run_means(b_runs)
        return Difference(a_mean - b_mean, -math.inf, math.inf, b_mean)
    return bootstrap(a_runs, b_runs, seed)


def within_run(a: np.ndarray, b: np.ndarray, seed: int = 1) -> Difference:
    """a - b, two stretches of one run's seconds (a soak's last tenth against its first), with the interval from
    blocks of those seconds: a drift within a run is read against the variation within it."""
    return bootstrap(with_samples([a]), with_samples([b]), seed)


def with_samples(runs: list[np.ndarray]) -> list[np.ndarray]:
    """The runs that have samples, as arrays of floats; an error where none has."""
    runs = [np.asarray(r, dtype=float) for r in runs if len(r)]
    if not runs:
        raise ValueError("both sides need at least one run with samples")
    return runs


def run_means(runs: list[np.ndarray]) -> float:
    """The mean over runs of each run's mean: every run counts alike, however long."""
    return float(np.mean([r.mean() for r in runs]))


def bootstrap(a_runs: list[np.ndarray], b_runs: list[np.ndarray], seed: int) -> Difference:
    rng = np.random.default_rng(seed)
    dist = block_resample_means(a_runs, rng) - block_resample_means(b_runs, rng)
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(dist, [tail, 100 - tail])
    b_mean = run_means(b_runs)
    return Difference(run_means(a_runs) - b_mean, float(low), float(high), b_mean)


def percent(share: float, sign: str = "") -> str:
    """Whole percents; one decimal below 1 % and two below 0.1 %, so that neither a small detectable difference nor
    the bounds of a tight interval read '0 %' ('-0.0 % to +0.0 %' says nothing about how tight it is)."""
    digits = 0 if abs(share) >= 0.01 else 1 if abs(share) >= 0.001 else 2
    return f"{share * 100:{sign}.{digits}f}"


def verdict(a_name: str, b_name: str, d: Difference, what: str, unit: str) -> str:
    """One sentence: the difference with its interval, or 'no detectable difference'; from one run, the difference
    and '1 run'."""
    if not d.bounded:
        return one_run(compare(a_name, d.estimate + d.reference, b_name, d.reference, what, unit))
    share, low, high = d.as_percent()
    interval = f"95 % CI {percent(low, '+')} % to {percent(high, '+')} %"
    if not d.detectable:
        return f"no detectable difference in {what} between {a_name} and {b_name} ({interval})"
    direction = "higher" if share > 0 else "lower"
    return (f"{a_name} {what} is {percent(abs(share))} % {direction} than {b_name} "
            f"({fmt(d.estimate + d.reference)} vs {fmt(d.reference)} {unit}; {interval})")


def share_text(d: Difference) -> str:
    """A difference for a table cell: '+8 % (+5 to +11 %)', 'none detectable (-3 to +4 %)', or from one run
    '+233 %, 1 run'."""
    share, low, high = d.as_percent()
    if not d.bounded:
        return one_run(f"{percent(share, '+')} %")
    interval = f"({percent(low, '+')} to {percent(high, '+')} %)"
    return f"{percent(share, '+')} % {interval}" if d.detectable else f"none detectable {interval}"
