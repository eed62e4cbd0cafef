"""The long-held connections' section: how many were held at once, and what each cost the app."""
from __future__ import annotations

import pandas as pd

from benchlab.formatting import Fixed
from benchlab.model import LoadKind
from benchlab.report.layout import Table, failed_text
from benchlab.results.environment import Environment
from benchlab.scenarios.hold import NAME, hold_seconds

def view(runs: pd.DataFrame, win: pd.DataFrame, env: Environment) -> tuple[Table, list[str]] | None:
    """Article 002's long-held connections: how many were held at once, and what each cost the app."""
    rows = runs[(runs.scenario == NAME) & (runs.load_model == LoadKind.CLOSED)]
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for (variant, load), at in rows.groupby(["variant", "load"], sort=True):
        hold_s = hold_seconds(variant)
        for model, g in at.groupby("model", sort=False):
            held = g.ok_rps.median() * hold_s  # Little's law: answers per second x the time each was held
            rss, threads = g.rss_peak_mb.max(), g.threads_peak.max()
            table_rows.append([f"{load:g}", variant, model, Fixed(held, 0), failed_text(g), g.p99_ms.median(),
                               Fixed(rss, 0), Fixed(1024 * rss / held, 1) if held else "-", Fixed(threads, 0),
                               Fixed(1000 * threads / held, 1) if held else "-"])
            if g.errors.sum() > 0:
                first = "no answer (timeouts, refused or reset connections)" if g.status_0.sum() else "error answers"
                sentences.append(f"hold, {model} at {load:g} connections ({variant}): its requests failed first as "
                                 f"{first}.")
    note = ("Closed model: each VU holds one request for the hold time, so the VUs are the connections offered. "
            "Held: connections held at once by Little's law (answers per second x hold time). RSS and threads: the "
            "app's peak, and per held connection, which includes the idle app (it falls as the count grows).")
    return Table("Long-held connections (article 002): connections held, memory and threads per connection",
                 ["connections", "hold", "model", "held", "failed", "p99 ms", "RSS MB", "RSS KB/held", "threads",
                  "threads per 1,000 held"], table_rows, note), sentences
