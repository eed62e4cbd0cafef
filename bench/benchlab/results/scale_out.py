"""A scale-out's verdicts (ScaleOutRecord): k6's requests in windows by the second they started, what clients met
before the step, until the second replica joined and after, when that replica carried its share within the SLO, and
whether the machine rather than the replicas was the limit. Why these rules: bench/README.md, "Scale-out"."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchlab.results.environment import ScaleOutRecord

WINDOW_S = 5  # a window holds about a thousand requests at the stepped rate: enough for a p99 of its own
# Replica 2 carries its share at this share of half the stepped rate: round robin splits requests, not seconds, and
# k6's arrivals and HAProxy's counters scatter a second's count by a few percent.
SHARE_FLOOR = 0.9
# The machine was the limit from this share of all its cores on: past it k6, HAProxy and the database wait for CPU
# beside the replicas (why.py's level for k6 and the database).
MACHINE_LIMIT_PCT = 90.0
HELPERS = ("k6", "haproxy", "db")  # the processes beside the replicas that can take the machine's CPU
REPLICAS = ("replica 1", "replica 2")


def windows(requests: pd.DataFrame, start_ms: float, seconds: int, slo_p99_ms: float,
            width_s: int = WINDOW_S) -> list[dict]:
    """k6's requests (read_k6_csv's: t_ms when each ended, ms its duration, ok) in windows of width_s from start_ms
    (unix ms) to `seconds` after it, each request in the window it started in: start_s, requests, failed, late
    (answered, but over the SLO) and p99_ms (of every request in it; None in a window without one)."""
    started_s = (requests["t_ms"] - requests["ms"] - start_ms) / 1000
    inside = (started_s >= 0) & (started_s < seconds)
    ok = requests.loc[inside, "ok"].astype(bool)
    ms = requests.loc[inside, "ms"].astype(float)
    frame = pd.DataFrame({"start_s": (started_s[inside] // width_s * width_s).astype(int), "ms": ms,
                          "failed": ~ok, "late": ok & (ms > slo_p99_ms)})
    by_window = frame.groupby("start_s")
    counted = pd.DataFrame({"requests": by_window.size(), "failed": by_window["failed"].sum(),
                            "late": by_window["late"].sum(), "p99_ms": by_window["ms"].quantile(0.99)})
    counted = counted.reindex(pd.RangeIndex(0, seconds, width_s, name="start_s"))
    counts = ["requests", "failed", "late"]
    counted[counts] = counted[counts].fillna(0).astype(int)
    counted["p99_ms"] = counted["p99_ms"].astype(object).where(counted["p99_ms"].notna(), None)
    return counted.reset_index().to_dict("records")


@dataclass(frozen=True)
class Requests:
    """k6's requests that started in a part of the run, and how many of them failed or came late."""
    requests: int
    failed: int
    late: int


@dataclass(frozen=True)
class ScaleOut:
    """A record's verdicts; seconds after the step, as a team reads a scale-out."""
    record: ScaleOutRecord
    before: Requests  # before the step: the baseline
    joining: Requests  # from the step until replica 2 was ready (to the end where it never was)
    joined: Requests | None  # from then to the end (None: it never joined)
    serves_s: float | None  # from the step until replica 2 served its share, whatever the latency (None: never)
    share_s: float | None  # from the step until replica 2 carried its share within the SLO (None: not in the run)
    windows_after: int  # the windows that started at the step or later
    windows_past_slo: int  # of those, the ones whose p99 was over the SLO
    worst_p99_ms: float | None  # the highest p99 of those windows
    limit: str | None  # the largest of HELPERS where the machine was the limit (None: it was not)

    @property
    def ready_after_s(self) -> float | None:
        r = self.record
        return None if r.ready_s is None else r.ready_s - r.step_s


def window_width(record: ScaleOutRecord) -> int:
    """The width windows() was called with: the step between two windows (WINDOW_S where there is one window)."""
    starts = [w["start_s"] for w in record.windows[:2]]
    return starts[1] - starts[0] if len(starts) == 2 else WINDOW_S


def window_frame(record: ScaleOutRecord) -> pd.DataFrame:
    """The record's windows with replica 2's 2xx per second averaged over each (NaN where none was counted)."""
    frame = pd.DataFrame(record.windows, columns=["start_s", "requests", "failed", "late", "p99_ms"])
    frame["p99_ms"] = frame["p99_ms"].astype(float)
    served = pd.Series(record.served.get("replica 2", []), dtype=float)
    width = window_width(record)
    frame["replica_2_per_s"] = frame["start_s"].map(served.groupby(served.index // width * width).mean())
    return frame


def requests_in(frame: pd.DataFrame) -> Requests:
    return Requests(int(frame["requests"].sum()), int(frame["failed"].sum()), int(frame["late"].sum()))


def share_start(after: pd.DataFrame, record: ScaleOutRecord, within_slo: bool = True) -> float | None:
    """The start of the first window from which on replica 2 served SHARE_FLOOR of its half of the stepped rate, and
    (within_slo) the p99 held the SLO, in every window to the end; a window without requests holds nothing."""
    carried = after["replica_2_per_s"] >= SHARE_FLOOR * record.rate_after / len(REPLICAS)
    if within_slo:
        carried &= after["p99_ms"] <= record.slo_p99_ms
    to_the_end = carried[::-1].cummin()[::-1]  # True where this window and every later one carried
    return float(after.loc[to_the_end, "start_s"].iloc[0]) if to_the_end.any() else None


def machine_limit(record: ScaleOutRecord) -> str | None:
    """The largest consumer of k6, HAProxy and the database where the machine's CPU reached MACHINE_LIMIT_PCT."""
    if record.machine_cpu_pct < MACHINE_LIMIT_PCT:
        return None
    return max(HELPERS, key=lambda name: record.cpu_pct.get(name, 0.0))


def verdicts(record: ScaleOutRecord) -> ScaleOut:
    """Each window counts toward the part of the run it started in: before the step, until the join, after it."""
    frame = window_frame(record)
    after = frame[frame["start_s"] >= record.step_s]
    joined = after["start_s"] >= record.ready_s if record.ready_s is not None else pd.Series(False, after.index)
    share, serves = share_start(after, record), share_start(after, record, within_slo=False)
    worst = after["p99_ms"].max()
    return ScaleOut(record, before=requests_in(frame[frame["start_s"] < record.step_s]),
                    joining=requests_in(after[~joined]),
                    joined=requests_in(after[joined]) if record.ready_s is not None else None,
                    serves_s=None if serves is None else serves - record.step_s,
                    share_s=None if share is None else share - record.step_s, windows_after=len(after),
                    windows_past_slo=int((after["p99_ms"] > record.slo_p99_ms).sum()),
                    worst_p99_ms=None if pd.isna(worst) else float(worst), limit=machine_limit(record))
