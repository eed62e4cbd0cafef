"""Per-second windows of a run from k6's CSV output (`--out csv=FILE.gz`, K6_CSV_TIME_FORMAT=unix_milli): the samples
the statistics resample. Only the measured requests' http_req_duration rows and the dropped iterations are kept, and
the CSV is deleted once reduced."""
from __future__ import annotations

from typing import NamedTuple

import pandas as pd

EMPTY = pd.DataFrame({"t_ms": pd.Series(dtype="int64"), "t": pd.Series(dtype="int64"), "ms": pd.Series(dtype=float), "ok": pd.Series(dtype=bool),
                      "status": pd.Series(dtype=int), "vu": pd.Series(dtype="int64")})
COLUMNS = ["metric_name", "timestamp", "metric_value", "expected_response", "status", "extra_tags", "metadata"]
# The system tags the bench reads, and no more: each tag is a string k6 sets on every sample (it cost k6 7 % of its
# CPU per request at 1,400/s). status and expected_response for the windows, check for the checks' rate, and vu,
# which k6 writes to the CSV's metadata column: a closed model's rate is summed per VU (summary()). The model is the
# scenario's own tag.
SYSTEM_TAGS = "status,expected_response,check,vu"


class K6Output(NamedTuple):
    requests: pd.DataFrame  # t_ms (when it ended), t (that second), ms, ok, status, vu (k6's VU number, or -1)
    dropped_ms: pd.Series  # when k6 dropped each iteration it could not start in time (unix ms)


def read_k6_csv(path: str) -> K6Output:
    """The measured requests and the dropped iterations of one k6 run."""
    raw = pd.read_csv(path, usecols=lambda c: c in COLUMNS,
                      dtype={"extra_tags": "string", "status": "string", "metadata": "string"})
    req = raw[(raw["metric_name"] == "http_req_duration") & raw["extra_tags"].fillna("").str.contains("model=")]
    t_ms = req["timestamp"].astype("int64")
    requests = pd.DataFrame({"t_ms": t_ms, "t": t_ms // 1000, "ms": req["metric_value"].astype(float),
                             "ok": req["expected_response"].astype(str).str.lower() == "true",
                             "status": pd.to_numeric(req["status"], errors="coerce").fillna(0).astype(int),
                             "vu": vu_numbers(req)})
    dropped = raw.loc[raw["metric_name"] == "dropped_iterations", "timestamp"].astype("int64")
    return K6Output(requests, dropped.reset_index(drop=True))


NO_OUTPUT = K6Output(EMPTY, pd.Series(dtype="int64"))


def settled(output: K6Output, settle_s: float) -> tuple[pd.DataFrame, int, float | None]:
    """The part of a run that is measured (model.SETTLE_S says why): the requests that started settle_s or more
    after the run's first one did, the iterations dropped from then on, and that moment (unix ms; None: no
    request)."""
    requests = output.requests
    if requests.empty:
        return requests, len(output.dropped_ms), None
    started = requests["t_ms"] - requests["ms"]
    since = float(started.min()) + 1000 * settle_s
    return requests[started >= since], int((output.dropped_ms >= since).sum()), since


def vu_numbers(req: pd.DataFrame) -> pd.Series:
    if "metadata" not in req:
        return pd.Series(-1, index=req.index, dtype="int64")
    return pd.to_numeric(req["metadata"].str.extract(r"(?:^|&)vu=(\d+)", expand=False), errors="coerce") \
        .fillna(-1).astype("int64")


def open_rate(requests: pd.DataFrame) -> float | None:
    span = (requests["t_ms"].max() - requests["t_ms"].min()) / 1000
    return (len(requests) - 1) / span if len(requests) > 1 and span > 0 else None


def closed_rate(requests: pd.DataFrame) -> float | None:
    if "vu" not in requests or (requests["vu"] < 0).any():
        raise ValueError("a closed model's rate needs each request's VU (k6 --system-tags ...,vu)")
    per_vu = requests.groupby("vu")["t_ms"].agg(["count", "min", "max"])
    per_vu = per_vu[(per_vu["count"] > 1) & (per_vu["max"] > per_vu["min"])]
    if per_vu.empty:
        return None
    return float(((per_vu["count"] - 1) / ((per_vu["max"] - per_vu["min"]) / 1000)).sum())


# The per-second figures of windows.csv, after the run's tag and the second.
PER_SECOND = ["requests", "ok", "mean_ms", "p50_ms", "p99_ms"]


def per_second(requests: pd.DataFrame) -> pd.DataFrame:
    """One row per second: requests, ok, mean, p50 and p99 latency over every request that ended in it."""
    g = requests.groupby("t")
    if requests.empty:
        return pd.DataFrame(columns=["t", *PER_SECOND])
    out = pd.DataFrame({"requests": g.size(), "ok": g["ok"].sum(), "mean_ms": g["ms"].mean(),
                        "p50_ms": g["ms"].median(), "p99_ms": g["ms"].quantile(0.99)})
    return out.reset_index()


def summary(requests: pd.DataFrame, closed: bool = False) -> dict:
    """The run's figures from its requests, the window measured from when requests really ended: (n - 1) / s, per VU
    in a closed model; too few requests, the first start to the last end. Why: bench/README.md, "What --out DIR
    contains"."""
    if requests.empty:
        return dict(window_s=0.0, requests=0, errors=0, status_0=0, status_4xx=0, status_5xx=0, ok_rps=0.0,
                    p50_ms=None, p99_ms=None, max_ms=None)
    n = len(requests)
    rate = closed_rate(requests) if closed else open_rate(requests)
    if rate:
        window = n / rate
    else:
        window = float((requests["t_ms"].max() - (requests["t_ms"] - requests["ms"]).min()) / 1000) or 1.0
    s = requests["status"]
    return dict(window_s=window, requests=len(requests), errors=int((~requests["ok"]).sum()),
                status_0=int((s == 0).sum()), status_4xx=int(s.between(400, 499).sum()),
                status_5xx=int(s.between(500, 599).sum()), ok_rps=float(requests["ok"].sum() / window),
                p50_ms=float(requests["ms"].quantile(0.5)), p99_ms=float(requests["ms"].quantile(0.99)),
                max_ms=float(requests["ms"].max()))
