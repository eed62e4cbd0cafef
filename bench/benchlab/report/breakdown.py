"""Where each model's CPU and allocations go per request (--profile), as a table and a stacked bar chart per scenario,
and this build's CPU per request against another build's (--builds)."""
from __future__ import annotations

import math

import plotly.graph_objects as go

from benchlab.formatting import Fixed, Percent
from benchlab.report.layout import Table
from benchlab.results.cost import Cost, Gain
from benchlab.results.profile import COMPONENTS, Breakdown


def label(b: Breakdown, several_runtimes: bool) -> str:
    """A profiled model as the cost table labels it: "virtual", or "virtual (jvm)" where runtimes are compared."""
    return f"{b.model} ({b.runtime})" if several_runtimes else b.model


def cpu_per_request(b: Breakdown, name: str, costs: list[Cost]) -> float | None:
    """The model's steady CPU ms per request at the profiled rate: the cost runs' (no profiler in them)."""
    return next((c.cpu_ms for c in costs if (c.scenario, c.model, c.rate) == (b.scenario, name, b.rate)), None)


def rows_of(found: list[Breakdown], costs: list[Cost], several: bool):
    """(scenario, label, CPU breakdown, its CPU ms per request, allocation breakdown) per scenario and model."""
    cpu = {(b.scenario, label(b, several)): b for b in found if b.event == "cpu"}
    alloc = {(b.scenario, label(b, several)): b for b in found if b.event == "alloc"}
    for scenario, name in dict.fromkeys([*cpu, *alloc]):
        b = cpu.get((scenario, name))
        yield scenario, name, b, cpu_per_request(b, name, costs) if b else None, alloc.get((scenario, name))


def breakdown_table(found: list[Breakdown], costs: list[Cost], several: bool) -> Table | None:
    if not found:
        return None
    rows = []
    for scenario, name, cpu, ms, alloc in rows_of(found, costs, several):
        for component in COMPONENTS:
            share = cpu.share(component) if cpu else None
            rows.append([scenario, name, component, Fixed(ms * share, 3) if ms and share is not None else None,
                         Percent(share) if share is not None else None,
                         Fixed(alloc.per_request(component) / 1024, 2) if alloc else None])
        rows.append([scenario, name, "all", Fixed(ms, 3) if ms else None, Percent(1.0) if cpu else None,
                     Fixed(sum(alloc.per_request(c) for c in COMPONENTS) / 1024, 2) if alloc else None])
    return Table("Where each request's CPU goes", ["scenario", "model", "component", "CPU ms per request",
                                                  "share of CPU", "KB allocated per request"], rows,
                 "One profiled run per model at the cost rate (async-profiler: CPU every 1 ms, allocations every 256 "
                 "KB); each stack goes to the component of its innermost frame that names one. CPU ms per request: "
                 "the share times the cost runs' CPU per request, which ran without the profiler. Allocations: the "
                 "sampled bytes over the requests served while recording.")


def breakdown_charts(found: list[Breakdown], costs: list[Cost], several: bool) -> list[str]:
    """Per scenario: each model's CPU per request as one bar, stacked by component."""
    figs = []
    by_scenario: dict[str, list] = {}
    for scenario, name, cpu, ms, _ in rows_of(found, costs, several):
        if cpu and ms:
            by_scenario.setdefault(scenario, []).append((name, cpu, ms))
    for scenario, bars in by_scenario.items():
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
             f"{g.ratio - 1:+.1%}", f"{g.low - 1:+.1%} to {g.high - 1:+.1%}" if math.isfinite(g.high) else "-",
             ", ".join(f"{r - 1:+.1%}" for r in g.per_app), str(g.failed)] for g in gains]
    return Table(f"This build ({gains[0].after}) against other builds: CPU per request",
                 ["scenario", "rate", "model", "other build", "its ms", "this build's ms", "change",
                  "95 % interval", "change per pair of apps", "failed"], rows,
                 "The cost runs of the builds, which took turns a block each (an app start and a warm-up per block). "
                 "The interval pairs the k-th cost run of either build in a repetition; the change per pair of apps "
                 "shows the variation between apps, which that interval leaves out.")
