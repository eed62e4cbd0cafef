"""A soak's drift: each series from the first tenth of the run to the last, with a block-bootstrap interval over its
seconds, and which series grew beyond the noise (a leak suspect). Why tenths and these rules: bench/README.md,
"Soak"."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchlab.results import stats
from benchlab.results.environment import SoakRecord

TENTH = 0.1
# A series is a leak suspect where even its interval's low end grew by this share of its first tenth (or, from zero,
# by anything): a warm app's RSS and heap wander by a few percent over minutes here without growing.
SUSPECT_GROWTH = 0.10
HEAP_LOW_POINT_S = 5  # the heap in use is a saw-tooth: its lowest point in each 5 s is the heap left after GC
MIN_SECONDS = 5  # a tenth needs a block of seconds (stats.BLOCK_S) for an interval


@dataclass(frozen=True)
class Series:
    column: str
    label: str
    unit: str


SERIES = (
    Series("p99_ms", "p99 of each second", "ms"),
    Series("p50_ms", "p50 of each second", "ms"),
    Series("failed", "failed requests", "/s"),
    Series("rss_mb", "RSS", "MB"),
    Series("heap_after_gc_mb", "heap after young GCs", "MB"),
    Series("live_data_mb", "old generation after GC", "MB"),
    Series("gc_share_pct", "GC share", "%"),
    Series("threads", "threads", ""),
    Series("db_connections", "database connections", ""),
    Series("downstream_connections", "REST client connections", ""),
    Series("meters", "meters", ""),
    Series("app_cpu_pct", "app CPU", "% of a core"),
)


@dataclass(frozen=True)
class Drift:
    series: Series
    first: float  # the first tenth's mean
    last: float  # the last tenth's mean
    low: float  # the change's 95 % interval, in the series' unit
    high: float

    @property
    def change(self) -> float:
        return self.last - self.first

    @property
    def detectable(self) -> bool:
        return not (self.low <= 0 <= self.high)

    @property
    def share(self) -> tuple[float, float, float] | None:
        """The change and its interval as shares of the first tenth (None from zero)."""
        if not self.first:
            return None
        return self.change / self.first, self.low / self.first, self.high / self.first

    @property
    def suspect(self) -> bool:
        """It grew beyond the noise and by more than SUSPECT_GROWTH: a leak suspect."""
        if self.low <= 0:
            return False
        return self.share is None or self.share[1] > SUSPECT_GROWTH


def seconds(record: SoakRecord, windows: pd.DataFrame) -> pd.DataFrame:
    """One row per second of the soak (t from 0): the sampler's series and k6's per-second latency and failures."""
    raw = pd.DataFrame(record.series).apply(pd.to_numeric, errors="coerce")
    frame = pd.DataFrame({"t": (raw["at"] - raw["at"].iloc[0]).round().astype(int) if len(raw) else []})
    frame["rss_mb"] = raw["rss_mb"]
    heap_mb = raw["heap_used_bytes"] / 2**20
    frame["heap_after_gc_mb"] = heap_mb.rolling(HEAP_LOW_POINT_S, min_periods=1).min()
    # Micrometer sets it at each full collection: 0 until the first one, which is not an empty old generation
    frame["live_data_mb"] = raw["live_data_bytes"].where(raw["live_data_bytes"] > 0) / 2**20
    frame["gc_share_pct"] = 100 * raw["gc_pause_seconds"].diff() / raw["at"].diff()
    frame["threads"] = raw["os_threads"]
    for column in ("db_connections", "downstream_connections", "meters", "app_cpu_pct"):
        frame[column] = raw[column]
    mine = windows[windows.tag == record.tag]
    per_second = pd.DataFrame({"t": mine["t"].astype(int), "p99_ms": mine["p99_ms"], "p50_ms": mine["p50_ms"],
                               "failed": mine["requests"] - mine["ok"]})
    return frame.drop_duplicates("t").merge(per_second, on="t", how="outer").sort_values("t").reset_index(drop=True)


def drift(frame: pd.DataFrame) -> list[Drift]:
    """Each series' change from the first tenth of the soak's seconds to the last, where both have enough seconds."""
    out = []
    if frame.empty:
        return out
    span = frame["t"].max() - frame["t"].min()
    first_end, last_start = frame["t"].min() + TENTH * span, frame["t"].max() - TENTH * span
    for series in SERIES:
        if series.column not in frame:
            continue
        first = frame.loc[frame["t"] <= first_end, series.column].dropna().to_numpy(dtype=float)
        last = frame.loc[frame["t"] >= last_start, series.column].dropna().to_numpy(dtype=float)
        if min(len(first), len(last)) < MIN_SECONDS:
            continue
        d = stats.within_run(last, first)
        out.append(Drift(series, float(first.mean()), float(last.mean()), d.low, d.high))
    return out


def suspects(drifts: list[Drift]) -> list[Drift]:
    return [d for d in drifts if d.suspect]


def every_ten_seconds(frame: pd.DataFrame) -> pd.DataFrame:
    """The series' means per 10 s, for the charts."""
    return frame.groupby(frame["t"] // 10 * 10).mean(numeric_only=True).drop(columns="t").reset_index()
