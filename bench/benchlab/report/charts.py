"""The report's plotly charts: capacity per model, p99 against the offered rate with each knee marked, resources at
the knee, the warm-up after a fresh start."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from benchlab.model import LoadKind, app_busy
from benchlab.report.capacity import knee_runs, lower_bound
from benchlab.report.layout import model_color, model_order
from benchlab.results import slo
from benchlab.results.environment import Environment
from benchlab.results.table import median_rows


def capacity_chart(caps: list[slo.Capacity], env: Environment) -> list[str]:
    """Capacity at the SLO per model, as bars, one group per scenario, the interval as whiskers; a lower bound (no
    rate was seen to break above it, or k6 or the machine broke the next step) is labelled ">= N"."""
    if not caps:
        return []
    fig = go.Figure()
    for model in model_order(c.model for c in caps):
        mine = [c for c in caps if c.model == model]
        fig.add_trace(go.Bar(x=[c.scenario for c in mine], y=[c.rate for c in mine], name=model,
                             text=[f"{'>= ' if lower_bound(c, env) else ''}{c.rate:,.0f}" for c in mine],
                             hovertext=[c.ceiling or "" for c in mine],
                             textposition="inside", marker={"color": model_color(model)},
                             error_y={"type": "data", "symmetric": False, "array": [c.high - c.rate for c in mine],
                                      "arrayminus": [c.rate - c.low for c in mine]},
                             hovertemplate="%{y:.0f}/s %{hovertext}"))
    fig.update_layout(title="Capacity at the SLO per model (requests/s; whiskers: the interval; >=: a lower bound, "
                            "no rate above it broke the SLO or the rig's ceiling did)", barmode="group",
                      height=380, yaxis_title="requests/s", yaxis_tickformat="~g", margin={"t": 50})
    return [fig.to_html(full_html=False, include_plotlyjs=False)]

def curves(runs: pd.DataFrame, capacities: list[slo.Capacity]) -> list[str]:
    """p99 against the offered arrival rate per scenario, one line per model (the achieved rate in the hover), its knee
    (the step at its capacity) marked, the SLO as a line. A scenario measured at one offered rate has no curve: its p99
    per model as bars, the SLO beside them."""
    figs = []
    med = median_rows(runs[runs.load_model == LoadKind.OPEN])
    caps = {(c.scenario, c.model): c for c in capacities}
    for scenario, g in med.groupby("scenario"):
        slo_ms = slo.scenario_bound_ms(runs, scenario)
        models = model_order(g.model)
        fig = go.Figure()
        if g.load.nunique() == 1:
            rate = g.load.iloc[0]
            for model in models:
                gm = g[g.model == model]
                fig.add_trace(go.Bar(x=[model], y=gm.p99_ms, name=model,
                                     marker={"color": model_color(model)},
                                     hovertemplate="p99 %{y:.1f} ms"))
            fig.add_trace(go.Scatter(x=models, y=[slo_ms] * len(models), mode="lines", name=f"SLO p99 {slo_ms:g} ms",
                                     line={"dash": "dot", "color": "#555"}))
            fig.update_layout(title=f"{scenario} at {rate:g}/s offered: p99 latency per model", height=380,
                              yaxis_title="p99 ms", yaxis_tickformat="~g", margin={"t": 50})
        else:
            for model in models:
                gm = g[g.model == model].sort_values("load")
                color = model_color(model)
                fig.add_trace(go.Scatter(x=gm.load, y=gm.p99_ms, mode="lines+markers", name=model, legendgroup=model,
                                         line={"color": color},
                                         text=[f"{v:,.0f} ok/s" for v in gm.ok_rps], hovertemplate="offered "
                                         "%{x:.0f}/s: %{text}, p99 %{y:.1f} ms"))
                knee = gm[gm.load == caps[scenario, model].rate] if (scenario, model) in caps else gm.iloc[:0]
                fig.add_trace(go.Scatter(x=knee.load, y=knee.p99_ms, mode="markers", name=f"{model} knee",
                                         legendgroup=model, showlegend=False, hovertemplate="knee: %{x:.0f}/s",
                                         marker={"symbol": "diamond-open", "size": 16, "line": {"width": 2},
                                                 "color": color}))
            # The SLO as a trace, not an annotated hline: on a log axis plotly places an hline's annotation at 10^y.
            fig.add_trace(go.Scatter(x=[g.load.min(), g.load.max()], y=[slo_ms, slo_ms], mode="lines",
                                     name=f"SLO p99 {slo_ms:g} ms", line={"dash": "dot", "color": "#555"}))
            fig.update_layout(title=f"{scenario}: p99 latency against the offered rate (diamond: each model's "
                                    f"knee, the highest rate that held the SLO)", height=420,
                              xaxis_title="offered requests/s (open model)", yaxis_title="p99 ms (log)",
                              yaxis_type="log", yaxis_tickformat="~g", margin={"t": 50})
        figs.append(fig.to_html(full_html=False, include_plotlyjs=False))
    return figs

def resources_at_the_knee(runs: pd.DataFrame, caps: list[slo.Capacity]) -> list[str]:
    """What each model's knee cost: the app's CPU per request, its peak RSS and threads, as bars, a row per scenario,
    each on its own scale (the mixed scenario's CPU per request is fifty times jwt-mysql's)."""
    knees = knee_runs(runs, caps)
    if not knees:
        return []
    figures = (("app_cpu_ms_per_req", "app CPU ms per request"), ("rss_peak_mb", "app RSS peak, MB"),
               ("threads_peak", "app threads, peak"))
    scenarios = list(dict.fromkeys(s for s, _ in knees))
    fig = make_subplots(rows=len(scenarios), cols=len(figures), vertical_spacing=0.5 / len(scenarios),
                        subplot_titles=[f"{s}: {title}" for s in scenarios for _, title in figures])
    for row, scenario in enumerate(scenarios, start=1):
        for model in model_order(m for s, m in knees if s == scenario):
            r = knees[scenario, model]
            for col, (column, _) in enumerate(figures, start=1):
                shown = column != "app_cpu_ms_per_req" or app_busy(r.app_cpu_pct, r.get("app_cpus"))
                fig.add_trace(go.Bar(x=[model], y=[r[column] if shown else None], name=model, legendgroup=model,
                                     showlegend=row == 1 and col == 1, marker={"color": model_color(model)},
                                     hovertemplate="%{y:.3~g}"), row=row, col=col)
    fig.update_yaxes(tickformat="~g", rangemode="tozero")
    fig.update_layout(title="At each model's knee: CPU per request, memory and threads (RSS and threads are "
                            "process-wide: one app process serves every model)", height=80 + 260 * len(scenarios),
                      margin={"t": 80})
    return [fig.to_html(full_html=False, include_plotlyjs=False)]

def warmup_curves(env: Environment) -> list[str]:
    """Successful requests per second after a fresh start, one line per runtime: how fast each reaches its level."""
    measured = {name: i.warmup_curve for name, i in env.runtime_info.items() if i.warmup_curve}
    if not measured:
        return []
    fig = go.Figure()
    for name, curve in measured.items():
        fig.add_trace(go.Scatter(x=list(range(len(curve["ok_per_s"]))), y=curve["ok_per_s"], mode="lines", name=name))
    fig.update_layout(title=f"warm-up after a fresh start: {next(iter(measured.values()))['load']}", height=380,
                      xaxis_title="second of load", yaxis_title="successful requests/s", margin={"t": 50})
    return [fig.to_html(full_html=False, include_plotlyjs=False)]


def at_the_knee(runs: pd.DataFrame, win: pd.DataFrame, caps: list[slo.Capacity]) -> list[str]:
    """Per scenario searched or laddered, the run at each model's knee second by second, as Gatling and k6's
    dashboard draw a run: p50 and p99 latency, and successful requests per second."""
    knees = knee_runs(runs, caps)
    figs = []
    for scenario in dict.fromkeys(s for s, _ in knees):
        fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.12, subplot_titles=(
            "latency per second: p99 solid, p50 dotted (ms, log)", "successful requests per second"))
        for model in model_order(m for s, m in knees if s == scenario):
            run = knees[scenario, model]
            w = win[win.tag == run.tag]
            w = w[(w.t > w.t.min()) & (w.t < w.t.max())]  # whole seconds: k6 starts and stops within the others
            color = model_color(model)
            name = f"{model} at {run.load:g}/s"
            fig.add_trace(go.Scatter(x=w.t, y=w.p99_ms, mode="lines", name=name, legendgroup=model,
                                     line={"color": color}, hovertemplate="p99 %{y:.1f} ms"), row=1, col=1)
            if w.p50_ms.notna().any():
                fig.add_trace(go.Scatter(x=w.t, y=w.p50_ms, mode="lines", name=f"{name} p50", legendgroup=model,
                                         showlegend=False, line={"color": color, "dash": "dot"},
                                         hovertemplate="p50 %{y:.1f} ms"), row=1, col=1)
            fig.add_trace(go.Scatter(x=w.t, y=w.ok, mode="lines", name=f"{name} ok/s", legendgroup=model,
                                     showlegend=False, line={"color": color}, hovertemplate="%{y:.0f} ok/s"),
                          row=2, col=1)
        fig.update_yaxes(type="log", tickformat="~g", row=1, col=1)
        fig.update_yaxes(tickformat="~g", rangemode="tozero", row=2, col=1)
        fig.update_xaxes(title_text="second of the run", row=2, col=1)
        fig.update_layout(title=f"{scenario}: each model's run at its knee, second by second", height=520,
                          margin={"t": 80})
        figs.append(fig.to_html(full_html=False, include_plotlyjs=False))
    return figs
