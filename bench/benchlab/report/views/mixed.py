"""The I/O + CPU section: each model with the rounds inline and offloaded, at each arrival rate, and whether
offloading helps."""
from __future__ import annotations

import pandas as pd

from benchlab.formatting import Fixed, percent
from benchlab.model import SLO_MAX_BAD_SHARE
from benchlab.report.layout import Table
from benchlab.results.environment import Environment
from benchlab.results.table import variant_medians
from benchlab.scenarios.mixed import NAME

# A p99 or a throughput has to move by more than this to count: single short runs on a shared machine scatter so.
MIXED_MARGIN = 0.10


def overloaded(r) -> bool:
    """Failed plus dropped beyond the SLO's share of the requests offered: the step is past saturation."""
    offered = (r.requests or 0) + (r.dropped or 0)
    return offered > 0 and (r.errors + r.dropped) > SLO_MAX_BAD_SHARE * offered


def offload_verdict(inline, offload) -> str:
    """helps: a lower p99 by more than the margin at no lower throughput; hurts: a higher p99 or a lower throughput
    by more than the margin; else no clear difference. Past saturation on both sides the p99 is the queue's length
    when the run stopped, so there only the throughput counts."""
    if overloaded(inline) and overloaded(offload):
        if offload.ok > (1 + MIXED_MARGIN) * inline.ok:
            return "serves more, past saturation"
        if offload.ok < (1 - MIXED_MARGIN) * inline.ok:
            return "serves less, past saturation"
        return "no clear difference, past saturation"
    if offload.ok < (1 - MIXED_MARGIN) * inline.ok or offload.p99 > (1 + MIXED_MARGIN) * inline.p99:
        return "hurts"
    if offload.p99 < (1 - MIXED_MARGIN) * inline.p99 and offload.ok >= 0.99 * inline.ok:
        return "helps"
    return "no clear difference"


def view(runs: pd.DataFrame, win: pd.DataFrame, env: Environment) -> tuple[Table, list[str]] | None:
    """Article 002's I/O + CPU: each model with the rounds inline and offloaded, at each arrival rate."""
    steps = variant_medians(runs, NAME, ok=("ok_rps", "median"), p99=("p99_ms", "median"), errors=("errors", "sum"),
                            dropped=("dropped", "sum"), requests=("requests", "sum"), cpu=("app_cpu_pct", "median"),
                            per=("app_cpu_ms_per_req", "median"))
    if not steps:
        return None
    table_rows = []
    for step, model, med in steps:
        both = {"inline", "offload"} <= set(med.index)
        for variant, r in med.iterrows():
            table_rows.append([step, model, variant, r.ok, r.p99,
                               f"{int(r.errors)} + {int(r.dropped)} dropped", Fixed(r.cpu, 0), Fixed(r.per, 2),
                               offload_verdict(med.loc["inline"], r) if both and variant == "offload" else "-"])
    note = ("Each request: a 100 ms downstream call, then SHA-256 rounds over 4 KB on the model's own thread (inline; "
            "for reactive, the event loop) or on the app's bounded CPU pool (offload: one thread per core). "
            f"Offloading helps or hurts where the p99 or the throughput moves by over {percent(MIXED_MARGIN, 0)}; past "
            "saturation on both sides only the throughput counts. CPU: the app's, 100 = one core.")
    return Table("I/O mixed with CPU work (article 002): inline against offloaded to a bounded pool",
                 ["load", "model", "variant", "ok req/s", "p99 ms", "failed", "app CPU %", "CPU ms/req",
                  "offloading"], table_rows, note), []
