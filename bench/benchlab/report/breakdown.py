"""Where each model's CPU and allocations go per request (--profile), as a table and a stacked bar chart per scenario,
and this build's CPU per request against another build's (--builds)."""
from __future__ import annotations

import math

import plotly.graph_objects as go

from benchlab.formatting import ONE_RUN, Fixed
from benchlab.report.layout import Table
from benchlab.results.cost import Cost, Gain
from benchlab.results.profile import COMPONENTS, Breakdown


def label(b: Breakdown, several_runtimes: bool) -> str:
    """A profiled model as the cost table labels it: "virtual", or "virtual (jvm)" where runtimes are compared."""
    return f"{b.model} ({b.runtime})" if several_runtimes else b.model


def cpu_per_request(b: Breakdown, name: str, costs: list[Cost]) -> float | None:
    """The model's steady CPU ms per request at the profiled rate: the cost runs' (no profiler in them)."""
    return next((c.cpu_ms for c in costs if (c.scenario, c.model, c.rate) == (b.scenario, name, b.rate)), None)


def by_model(found: list[Breakdown], several: bool) -> dict[str, dict[str, dict[str, Breakdown]]]:
    """scenario -> model label -> event -> its profiled run."""
    out: dict = {}
    for b in found:
        out.setdefault(b.scenario, {}).setdefault(label(b, several), {})[b.event] = b
    return out


def breakdown_table(found: list[Breakdown], costs: list[Cost], several: bool) -> Table | None:
    """Per scenario a row per component, per model its CPU ms and KB allocated per request."""
    if not found:
        return None
    scenarios = by_model(found, several)
    names = list(dict.fromkeys(name for models in scenarios.values() for name in models))
    rows = []
    for scenario, models in scenarios.items():
        for component in (*COMPONENTS, "all"):
            row = [scenario, component]
            for name in names:
                cpu, alloc = models.get(name, {}).get("cpu"), models.get(name, {}).get("alloc")
                ms = cpu_per_request(cpu, name, costs) if cpu else None
                share = 1.0 if component == "all" else cpu.share(component) if cpu else None
                kb = (sum(alloc.per_request(c) for c in COMPONENTS) if component == "all"
                      else alloc.per_request(component)) / 1024 if alloc else None
                row += [Fixed(ms * share, 3) if ms and share is not None else None, Fixed(kb, 1)]
            rows.append(row)
    return Table("Where each request's CPU goes", ["scenario", "component", *[
        f"{name} {what}" for name in names for what in ("CPU ms", "KB allocated")]], rows,
                 "One profiled run per model at the cost rate (async-profiler: CPU every 1 ms, allocations every 256 "
                 "KB); a stack goes to the component of its innermost frame that names one. CPU ms: the profile's share "
                 "times the cost runs' CPU per request, which ran without the profiler. KB allocated: the sampled bytes "
                 "over the requests served while recording.")


def breakdown_charts(found: list[Breakdown], costs: list[Cost], several: bool) -> list[str]:
    """Per scenario: each model's CPU per request as one bar, stacked by component."""
    figs = []
    for scenario, models in by_model(found, several).items():
        bars = [(name, events["cpu"], ms) for name, events in models.items()
                if "cpu" in events and (ms := cpu_per_request(events["cpu"], name, costs))]
        if not bars:
            continue
        fig = go.Figure()
        for component in COMPONENTS:
            fig.add_trace(go.Bar(name=component, y=[name for name, _, _ in bars], orientation="h",
                                 x=[ms * cpu.share(component) for _, cpu, ms in bars],
                                 hovertemplate=component + ": %{x:.3f} ms"))
        fig.update_layout(barmode="stack", title=f"{scenario}: CPU per request by component (ms)",
                          height=160 + 60 * len(bars), margin={"t": 60}, xaxis_title="ms of CPU per request")
        figs.append(fig.to_html(full_html=False, include_plotlyjs=False))
    return figs


def gains_table(gains: list[Gain]) -> Table | None:
    if not gains:
        return None
    rows = [[g.scenario, f"{g.rate:g}/s", g.model, g.before, Fixed(g.before_ms, 3), Fixed(g.after_ms, 3),
             f"{g.ratio - 1:+.1%}", ONE_RUN if g.pairs == 1 else f"{g.low - 1:+.1%} to {g.high - 1:+.1%}" if math.isfinite(g.high) else "-",
             ", ".join(f"{r - 1:+.1%}" for r in g.per_app), str(g.failed)] for g in gains]
    return Table(f"This build ({gains[0].after}) against other builds: CPU per request",
                 ["scenario", "rate", "model", "other build", "its ms", "this build's ms", "change",
                  "95 % interval", "change per pair of apps", "failed"], rows,
                 "The cost runs of the builds, which took turns a block each (an app start and a warm-up per block). "
                 "The interval pairs the k-th cost run of either build in a repetition; the change per pair of apps "
                 "shows the variation between apps, which that interval leaves out.")
