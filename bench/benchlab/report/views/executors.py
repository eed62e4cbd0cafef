"""The executors' section: each setting's throughput against the ideal, whether the latency kept growing (a queue
that keeps filling), and each run's latency second by second."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from benchlab.formatting import Fixed, Percent, num, percent
from benchlab.model import AGGREGATE_IDEAL_S, WORKER, LoadKind
from benchlab.report.layout import Table, model_color, model_label
from benchlab.results.environment import Environment
from benchlab.scenarios.executors import NAME

GROWTH_WINDOW_S = 5  # latency growth: mean of the first seconds of a run against its last seconds


def latency_growth(win: pd.DataFrame, tags) -> tuple[float | None, float | None]:
    """Mean latency over the first and over the last GROWTH_WINDOW_S seconds, pooled over the runs' windows."""
    w = win[win.tag.isin(list(tags))]
    if w.empty:
        return None, None
    first = w[w.t < GROWTH_WINDOW_S]
    last = w[w.t > w.groupby("tag").t.transform("max") - GROWTH_WINDOW_S]
    return first.mean_ms.mean(), last.mean_ms.mean()


def view(runs: pd.DataFrame, win: pd.DataFrame, env: Environment) -> tuple[Table, list[str]] | None:
    """Closed-model steps of the executors scenario: throughput against users / 0.6 s, latency growth, queues."""
    rows = runs[(runs.scenario == NAME) & (runs.load_model == LoadKind.CLOSED)]
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for users, at in rows.groupby("load"):
        ideal = users / AGGREGATE_IDEAL_S
        per_model = []
        for name, g in at.groupby(at.apply(model_label, axis=1), sort=False):
            first, last = latency_growth(win, g.tag)
            share = g.ok_rps.median() / ideal
            per_model.append((name, share))
            table_rows.append([f"{users:g} VUs", name, str(g.repetition.nunique()), g.ok_rps.median(),
                               Percent(share), g.p50_ms.median(), g.p99_ms.median(), g.max_ms.max(),
                               f"{num(first)} -> {num(last)}", str(int(g.errors.sum())),
                               Fixed(g.worker_queue_max.max(), 0), Fixed(g.worker_threads_max.max(), 0)])
        workers = sorted((m for m in per_model if m[0].startswith(WORKER)), key=lambda m: -m[1])
        if len(workers) >= 2:
            sentences.append(f"At {users:g} users the cure among the worker model's settings is {workers[0][0]}: "
                             f"{percent(workers[0][1])} of the ideal, against {percent(workers[-1][1])} for "
                             f"{workers[-1][0]}.")
    note = ("Closed model, as the article's JMeter threads; of ideal: successful req/s over users / "
            f"{AGGREGATE_IDEAL_S:g} s. Latency first -> last: the mean over a run's first and last {GROWTH_WINDOW_S} s; "
            "growth means a queue that keeps filling, which the 60 s deadline of this scenario lets show. "
            "Queue max: the worker pool's, or the dedicated branch executor's.")
    return Table("Executors (article 000): the worker model's branch executor at the article's sizes",
                 ["load", "model", "reps", "ok req/s", "of ideal", "p50 ms", "p99 ms", "max ms",
                  "latency first -> last ms", "failed", "queue max", "worker threads max"], table_rows, note), sentences


def charts(runs: pd.DataFrame, win: pd.DataFrame) -> list[str]:
    """The executors scenario's closed-model runs: mean latency per second, one line per model and setting (the
    first repetition), so that a queue that keeps filling shows as a line that keeps climbing."""
    rows = runs[(runs.scenario == NAME) & (runs.load_model == LoadKind.CLOSED) & (runs.repetition == 1)]
    figs = []
    for users, at in rows.groupby("load"):
        fig = go.Figure()
        for _, r in at.iterrows():
            w = win[win.tag == r.tag]
            fig.add_trace(go.Scatter(x=w.t, y=w.mean_ms, mode="lines", name=r.model,
                                     line={"color": model_color(r.model)}))
        fig.update_layout(title=f"executors at {users:g} users: mean latency per second", height=380,
                          xaxis_title="second of the run", yaxis_title="mean latency ms (log)", yaxis_type="log",
                          yaxis_tickformat="~g", margin={"t": 50})
        figs.append(fig.to_html(full_html=False, include_plotlyjs=False))
    return figs
