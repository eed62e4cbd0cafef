"""The gateway's section: per step and model, latency over all requests with the failures beside it, and what the
gateway cost the app."""
from __future__ import annotations

import pandas as pd

from benchlab.formatting import Fixed, Percent, num
from benchlab.model import CPU_PER_REQUEST_MIN_APP_CPU_PCT, LoadKind, app_busy, step_label
from benchlab.report.layout import Table, failed_text
from benchlab.results.environment import Environment
from benchlab.scenarios.gateway import IDEAL_LATENCY_S, NAME

def view(runs: pd.DataFrame, win: pd.DataFrame, env: Environment) -> tuple[Table, list[str]] | None:
    """Article 004's table, redone: per step and model, latency over all requests with the failures beside it, and
    what the gateway cost the app (threads, memory, CPU and GC per request)."""
    rows = runs[runs.scenario == NAME]
    if rows.empty:
        return None
    ideal_s = IDEAL_LATENCY_S
    table_rows, sentences = [], []
    for (kind, load), at in rows.groupby(["load_model", "load"], sort=True):
        for model, g in at.groupby("model", sort=False):
            of_ideal = Percent(g.ok_rps.median() / (load / ideal_s)) if kind == LoadKind.CLOSED else "-"
            table_rows.append([step_label(kind, load), model, str(g.repetition.nunique()), g.ok_rps.median(), of_ideal,
                               g.p50_ms.median(), g.p99_ms.median(), g.max_ms.max(), failed_text(g),
                               Fixed(g.threads_peak.max(), 0), Fixed(g.rss_peak_mb.max(), 0),
                               Fixed(g.app_cpu_ms_per_req.median(), 2)
                               if app_busy(g.app_cpu_pct.median()) else "-",
                               Fixed(g.alloc_mb_per_s.median(), 0),
                               Fixed(1024 * (g.alloc_mb_per_s / g.ok_rps).median(), 0),
                               Fixed(g.gc_share_pct.median(), 1)])
        if kind == LoadKind.CLOSED:
            med = at.groupby("model", sort=False).agg(ok=("ok_rps", "median"), threads=("threads_peak", "max"),
                                                      errors=("errors", "sum"))
            fewest, most = med.threads.idxmin(), med.threads.idxmax()
            served = ", ".join(f"{m} {num(r.ok)} req/s ({int(r.errors)} failed)" for m, r in med.iterrows())
            threads = (f"{num(med.threads[fewest], 0)} threads at the peak in every model"
                       if med.threads[fewest] == med.threads[most] else
                       f"threads at the peak from {num(med.threads[fewest], 0)} ({fewest}) to "
                       f"{num(med.threads[most], 0)} ({most})")
            sentences.append(f"gateway at {load:g} users: {served}; {threads}.")
    note = ("The article's mix (40 % heavy, 35 % data, 25 % process) over two backend instances in a process of their "
            "own, which wait on timers and never limit the run. Latencies cover every request, failed ones included; "
            "failed: all (no answer/4xx/5xx), plus iterations k6 could not start. Of ideal: successful req/s against "
            f"users / {ideal_s * 1000:g} ms (the mix's mean backend latency). Threads: the app's OS threads at the peak; "
            "CPU ms/req: the app's CPU time per request, where it averaged "
            f">= {CPU_PER_REQUEST_MIN_APP_CPU_PCT:.0f} % CPU; alloc: the app's allocation rate (the JVM's "
            "allocated-bytes counter, which advances at each collection) and per successful request; GC %: share of "
            "the run's time in GC pauses.")
    return Table("Gateway (article 004): every request counted, failures beside the latencies",
                 ["load", "model", "reps", "ok req/s", "of ideal", "p50 ms", "p99 ms", "max ms", "failed",
                  "threads", "RSS MB", "CPU ms/req", "alloc MB/s", "alloc KB/req", "GC %"], table_rows, note), sentences
