"""The gateway's section: per step and model, latency over all requests with the failures beside it, and what the
gateway cost the app."""
from __future__ import annotations

import pandas as pd

from benchlab.formatting import Fixed, Percent
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
    table_rows = []
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
    note = ("The article's mix (40 % heavy, 35 % data, 25 % process) over two backend instances that wait on timers "
            "and never limit the run; latencies cover every request, failed ones included. "
            f"Of ideal: successful req/s against users / {ideal_s * 1000:g} ms, the mix's mean backend latency. "
            f"Threads: the app's at the peak; CPU ms/req where the app used over {CPU_PER_REQUEST_MIN_APP_CPU_PCT:.0f} "
            "% of a core; alloc: the JVM's allocated bytes per second and per request.")
    return Table("Gateway (article 004): every request counted, failures beside the latencies",
                 ["load", "model", "reps", "ok req/s", "of ideal", "p50 ms", "p99 ms", "max ms", "failed",
                  "threads", "RSS MB", "CPU ms/req", "alloc MB/s", "alloc KB/req", "GC %"], table_rows, note), []
