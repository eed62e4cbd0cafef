"""The tidy results: results.csv (one row per run), windows.csv (one row per run and second) and results.json
(the environment and the same rows), all in the output directory. The report reads only these."""
from __future__ import annotations

import dataclasses
import json
import os

import pandas as pd

from benchlab.model import RunRow, step_label
from benchlab.results.environment import Environment
from benchlab.results.windows import PER_SECOND

RESULTS_CSV = "results.csv"
WINDOWS_CSV = "windows.csv"
RESULTS_JSON = "results.json"
WINDOW_COLUMNS = ["tag", "t", *PER_SECOND]


def frame(rows: list[RunRow]) -> pd.DataFrame:
    """The tidy table of measured runs, a column per RunRow field."""
    return pd.DataFrame([dataclasses.asdict(r) for r in rows], columns=[f.name for f in dataclasses.fields(RunRow)])


def write(out: str, rows: list[RunRow], env: Environment) -> None:
    records = [dataclasses.asdict(r) for r in rows]
    frame(rows).to_csv(os.path.join(out, RESULTS_CSV), index=False)
    tmp = os.path.join(out, RESULTS_JSON + ".tmp")
    with open(tmp, "w") as f:
        json.dump({"environment": env.to_json(), "runs": records}, f, indent=1)
    os.replace(tmp, os.path.join(out, RESULTS_JSON))


def append_windows(out: str, tag: str, per_second: pd.DataFrame) -> None:
    """Seconds are renumbered from 0 within the run; the first and last (partial) seconds are kept, the bootstrap
    treats every second alike."""
    if per_second.empty:
        return
    df = per_second.assign(tag=tag, t=per_second["t"] - per_second["t"].min())
    path = os.path.join(out, WINDOWS_CSV)
    df[WINDOW_COLUMNS].to_csv(path, mode="a", index=False, header=not os.path.isfile(path))


def drop_windows(out: str, tag: str) -> None:
    """Forgets a run's per-second windows: a step measured again is read from its last measurement only."""
    path = os.path.join(out, WINDOWS_CSV)
    if os.path.isfile(path):
        win = pd.read_csv(path)
        win[win.tag != tag].to_csv(path, index=False)


def read(out: str) -> tuple[pd.DataFrame, pd.DataFrame, Environment]:
    """(runs, windows, environment) of a finished or interrupted benchmark, also one an older bench wrote: its
    environment read into the record it was written from (Environment.from_json), its tables given the columns it
    lacks."""
    with open(os.path.join(out, RESULTS_JSON)) as f:
        env = Environment.from_json(json.load(f)["environment"])
    runs = pd.read_csv(os.path.join(out, RESULTS_CSV))
    for f in dataclasses.fields(RunRow):
        if f.name not in runs:  # a table written by an older bench: the figure was not recorded
            runs[f.name] = None
    wpath = os.path.join(out, WINDOWS_CSV)
    win = pd.read_csv(wpath) if os.path.isfile(wpath) else pd.DataFrame(columns=WINDOW_COLUMNS)
    for column in WINDOW_COLUMNS:
        if column not in win:  # written by an older bench (no p50 per second)
            win[column] = None
    return runs, win, env


def variant_medians(runs: pd.DataFrame, scenario: str, **columns) -> list[tuple[str, str, pd.DataFrame]]:
    """A scenario's runs per load step and model, in table order: the step's label, the model, and one row per variant
    (its index, in the order measured) of the columns named, each aggregated over the repetitions as pandas' named
    aggregation says (name=(column, "median")). Empty where the scenario did not run."""
    rows = runs[runs.scenario == scenario]
    return [(step_label(kind, load), model, g.groupby("variant", sort=False).agg(**columns))
            for (kind, load, model), g in rows.groupby(["load_model", "load", "model"], sort=True)]


def final(runs: pd.DataFrame) -> pd.DataFrame:
    """Each step's measurement: a step measured again (run/measure/steps.py) is its last attempt; the earlier ones
    stay in results.csv, marked superseded, and in the report's list of steps measured again."""
    return runs[~runs.superseded.fillna(False).astype(bool)].copy()


def median_rows(runs: pd.DataFrame) -> pd.DataFrame:
    """Scenario x model x load: medians over repetitions, sums for the counts, max for the queues."""
    keys = ["scenario", "load_model", "load", "model", "variant"]  # the variant is part of the model's label
    agg = {c: "median" for c in ("ok_rps", "p50_ms", "p99_ms", "app_cpu_pct", "k6_cpu_pct", "db_cpu_pct",
                                  "host_cpu_pct", "downstream_cpu_pct", "app_cpu_ms_per_req", "rss_peak_mb", "threads_peak", "window_s",
                                  "gc_share_pct", "jdbc_blocking_ms_avg")}
    agg.update({c: "sum" for c in ("requests", "errors", "status_0", "status_4xx", "status_5xx", "dropped")})
    agg["pinned"] = lambda v: v.sum(min_count=1)  # None when not recorded, not 0
    agg.update({c: "max" for c in ("worker_queue_max", "worker_threads_max", "jdbc_awaiting_max", "sql_queue_max",
                                   "downstream_waiting_max", "metrics_missed_pct")})
    agg["repetition"] = "nunique"
    return runs.groupby(keys, sort=True).agg(agg).reset_index()
