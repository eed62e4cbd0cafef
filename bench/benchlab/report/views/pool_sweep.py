"""The pool sweep's section: per model and load, throughput, p99, connection waits and database CPU at each pool
size, and the knee: the smallest pool near the model's best throughput."""
from __future__ import annotations

import pandas as pd

from benchlab.formatting import Fixed, percent
from benchlab.model import REACTIVE, LoadKind, step_label
from benchlab.report.layout import Table
from benchlab.results import why
from benchlab.results.environment import Environment
from benchlab.scenarios.pool_sweep import NAME, pool_size

KNEE_SHARE = 0.95  # the knee: the smallest pool that reaches this share of the model's best throughput


# With every pool size this close to the best, the curve is flat: no pool size is a knee, the pool is not the limit
# (two short repetitions on a shared machine scatter by about 10 %).
FLAT_SHARE = 0.85


def view(runs: pd.DataFrame, win: pd.DataFrame, env: Environment) -> tuple[Table, list[str]] | None:
    """Per model and load: throughput, p99, connection waits and database CPU at each pool size; the knee."""
    rows = runs[runs.scenario == NAME].assign(pool=lambda d: d.variant.map(pool_size))
    if rows.empty:
        return None
    cores = env.cores
    table_rows, sentences = [], []
    for (kind, load, model), g in rows.groupby(["load_model", "load", "model"], sort=True):
        step = step_label(kind, load)
        med = g.groupby("pool").agg(ok_rps=("ok_rps", "median"), p99_ms=("p99_ms", "median"),
                                   errors=("errors", "sum"), jdbc_awaiting_max=("jdbc_awaiting_max", "max"),
                                   jdbc_blocking_ms_avg=("jdbc_blocking_ms_avg", "median"),
                                   sql_queue_max=("sql_queue_max", "max"), db_cpu_pct=("db_cpu_pct", "median"),
                                   app_cpu_pct=("app_cpu_pct", "median"), host_cpu_pct=("host_cpu_pct", "median"),
                                   k6_cpu_pct=("k6_cpu_pct", "median")).sort_index()
        best, worst = med.ok_rps.max(), med.ok_rps.min()
        flat = worst >= FLAT_SHARE * best
        knee = None if flat else next(p for p, r in med.iterrows() if r.ok_rps >= KNEE_SHARE * best)
        for pool, r in med.iterrows():
            wait = r.sql_queue_max if model == REACTIVE else r.jdbc_awaiting_max
            table_rows.append([step, model, f"{pool:g}" + (" (knee)" if pool == knee else ""), r.ok_rps,
                               r.p99_ms, str(int(r.errors)), Fixed(wait, 0),
                               "-" if model == REACTIVE else Fixed(r.jdbc_blocking_ms_avg, 1),
                               Fixed(r.db_cpu_pct, 0), Fixed(r.app_cpu_pct, 0), why.brief(r.to_dict(), cores)])
        smallest, largest = med.index.min(), med.index.max()
        served_all = kind == LoadKind.OPEN and worst >= KNEE_SHARE * load
        curve = (f"no knee in throughput: every size from {smallest:g} to {largest:g} connections served the offered "
                 f"{load:g}/s; the pool shows in the wait" if served_all else
                 f"no knee: throughput is flat from {smallest:g} to {largest:g} connections, so the pool is not what "
                 "limits" if flat else
                 f"the knee is at {knee:g} connections, {percent(med.ok_rps[knee] / best, 0)} of the best throughput")
        sentences.append(f"pool-sweep, {model} at {step}: {curve}.")
    note = ("Both pools (JDBC for virtual and worker, reactive for reactive) at the size in the pool column; medians "
            "over repetitions. Wait max: the most requests waiting for a connection in a sample; blocking ms: "
            f"Agroal's average wait for one; limit: the first resource over its level. Knee: the smallest pool with "
            f"{percent(KNEE_SHARE, 0)} of the best throughput, none where every size is within "
            f"{percent(1 - FLAT_SHARE, 0)} of it.")
    return Table("Connection-pool sweep (article 003): the report endpoint, eight reads and an insert per request",
                 ["load", "model", "pool", "ok req/s", "p99 ms", "failed", "wait max", "blocking ms", "DB CPU %",
                  "app CPU %", "limit"], table_rows, note), sentences
