"""The report: a view of the tidy results (results.csv, windows.csv, results.json). pandas groups, one jinja2
template renders the same tables as Markdown and as HTML, plotly draws the curves (plotly.js embedded once)."""
from __future__ import annotations

import math
import os
import jinja2
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.offline
from plotly.subplots import make_subplots

from benchlab.model import (CPU_PER_REQUEST_MIN_APP_CPU_PCT, MODELS, SLO_MAX_BAD_SHARE, Limit, LoadKind, app_busy,
                            step_label)
from benchlab.plan.search import Stop
from benchlab.report import footprint
from benchlab.report.layout import MODEL_COLORS, Section, Table, anchor, model_label, num
from benchlab.results import slo, stats, table, why
from benchlab.scenarios import SCENARIOS, ideal_latency_s
TEMPLATE_DIR = os.path.join(os.path.dirname(__file__), "templates")


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


def physical_limit(scenario: str, env: dict, caps: list[slo.Capacity]) -> tuple[float | None, str]:
    kind = SCENARIOS[scenario].limit
    if kind == Limit.POINT_SELECT:
        qps = (env.get("point_select") or {}).get("qps")
        return qps, "the database's point-select rate" + (f" ({qps:.0f}/s)" if qps else " (not measured)")
    top = max(max(c.steps) for c in caps if c.scenario == scenario)  # a model's skipped steps were offered too
    ideal = SCENARIOS[scenario].ideal_latency_s  # a variant may run another script; the limit is the scenario's
    return top, f"the highest offered rate ({top:g}/s" + (
        f"; the ideal answers every request in {ideal * 1000:.0f} ms)" if ideal else ")")


def capacity_table(runs: pd.DataFrame, env: dict) -> Table:
    caps = slo.capacities(runs)
    first = {}
    for c in caps:
        first.setdefault(c.scenario, c)
    rows = []
    cores = int(env.get("cores") or 1)
    for scenario in SCENARIOS:
        sc = [c for c in caps if c.scenario == scenario]
        if not sc:
            continue
        best = max(c.rate for c in sc)
        for c in sorted(sc, key=lambda c: -c.rate):
            limit, _ = physical_limit(scenario, env, caps)
            top = c.rate == max(c.steps)
            bound = search_bound(env, scenario, c.model)
            interval = f"{c.low:g} to {c.high:g}" + (f" ({bound})" if bound else " (ladder top: at least)" if top
                                                     else "")
            rows.append([scenario, c.model, f"{c.rate:g}/s" if c.rate else "none of the steps",
                         interval, num(c.rate / best, 2) if best else "-",
                         f"{num(c.rate / limit, 2)} ({num(c.low / limit, 2)} to {num(c.high / limit, 2)})"
                         if limit else "-", reason(runs, c, cores)])
    note = ("Capacity = the highest offered arrival rate at which the model held the SLO "
            f"({', '.join(f'{s}: p99 <= {SCENARIOS[s].slo_p99_ms:g} ms' for s in first)}; failed requests + "
            f"dropped iterations <= {SLO_MAX_BAD_SHARE:.1%} of those offered) at that step and every lower one; "
            "median over repetitions. Interval: from the lowest repetition's capacity to the next step above the "
            "highest one (the ladder's resolution). Limit: " + "; ".join(
                f"{s}: {physical_limit(s, env, caps)[1]}" for s in SCENARIOS if s in first) + ".")
    return Table("Capacity at the SLO", ["scenario", "model", "capacity", "interval (req/s)", "vs best",
                                        "vs physical limit", "why it stopped there"], rows, note)


def verdicts(runs: pd.DataFrame, env: dict) -> list[str]:
    """One sentence per scenario measured at arrival rates: which model held the SLO to the highest rate, how far
    ahead of each other model (the range the two intervals allow, or "not told apart" where they overlap), and what
    stopped it; or that the rates offered did not tell the models apart."""
    caps = slo.capacities(runs)
    cores = int(env.get("cores") or 1)
    out = []
    for scenario in SCENARIOS:
        sc = sorted((c for c in caps if c.scenario == scenario), key=lambda c: -c.rate)
        if not sc:
            continue
        slo_text = f"p99 <= {SCENARIOS[scenario].slo_p99_ms:g} ms"
        search = f"a capacity search (--loads {scenario}=search:{max(sc[0].steps):g}) finds where each model breaks"
        if len(sc) > 1 and all(unbounded(c, env) for c in sc):
            out.append(f"{scenario}: every model held the SLO ({slo_text}) at every rate offered, up to "
                       f"{max(sc[0].steps):g}/s: these rates do not tell the models apart; {search}.")
            continue
        best = sc[0]
        if not best.rate:
            out.append(f"{scenario}: no model held the SLO ({slo_text}), not even at {min(best.steps):g}/s.")
            continue
        repetitions = int(runs[runs.scenario == scenario].repetition.max())
        others = [lead(best, c, env, repetitions) for c in sc[1:]]
        if unbounded(best, env):
            stopped = (search_bound(env, scenario, best.model) or
                       f"nothing: it held at the highest rate offered; {search}")
        else:
            stopped = reason(runs, best, cores)
        out.append(f"{scenario}: {best.model} held the SLO ({slo_text}) up to {interval_text(best, env)}"
                   + (f"; {'; '.join(others)}" if others else "") + f". What stopped it: {stopped}."
                   + (ONE_REPETITION if repetitions == 1 else ""))
    return out


ONE_REPETITION = (" One repetition: the intervals are the steps around each knee, not the variation from run to run "
                  "(the default preset repeats each search 3 times).")


def unbounded(c: slo.Capacity, env: dict) -> bool:
    """Whether no rate above the capacity was seen to break the SLO: the true capacity may be anything higher."""
    return c.rate == max(c.steps) or search_bound(env, c.scenario, c.model) is not None


def interval_text(c: slo.Capacity, env: dict) -> str:
    return f"{c.rate:g}/s at least" if unbounded(c, env) else f"{c.rate:g}/s, between {c.low:g} and {c.high:g}/s"


# One repetition gives no run-to-run variation; three quick runs on the 2-core lab machine found one model's
# aggregate capacity anywhere from 680 to 1,300/s. So from one repetition a lead is claimed only beyond this factor.
ONE_RUN_FACTOR = 2.0


def lead(best: slo.Capacity, other: slo.Capacity, env: dict, repetitions: int = 1) -> str:
    """How far the best model is ahead of another, as the range their intervals allow; from a single repetition
    only where the gap is wider than ONE_RUN_FACTOR."""
    best_high = math.inf if unbounded(best, env) else best.high
    other_high = math.inf if unbounded(other, env) else other.high
    if not other.rate:
        return f"{other.model} held at none of the rates"
    if other_high > best.low:
        return f"not told apart from {other.model} ({interval_text(other, env)})"
    if repetitions == 1 and best.low < ONE_RUN_FACTOR * other_high:
        return (f"not told apart from {other.model} by one repetition ({interval_text(other, env)}; closer than "
                f"x{ONE_RUN_FACTOR:g}, within the variation between runs seen here)")
    low = best.low / other_high - 1
    if low <= 0:  # the other model broke at the rate where the best one held: ahead, by how much not measured
        return f"ahead of {other.model} ({interval_text(other, env)}: it broke at {other_high:g}/s, which " \
               f"{best.model} held)"
    ahead = f"at least {low:.0%}" if math.isinf(best_high) else f"{low:.0%} to {best_high / other.low - 1:.0%}"
    return f"{ahead} ahead of {other.model} ({interval_text(other, env)})"


def capacity_chart(runs: pd.DataFrame, env: dict) -> list[str]:
    """Capacity at the SLO per model, as bars, one group per scenario, the interval as whiskers; a capacity no rate
    was seen to break above is labelled ">= N"."""
    caps = slo.capacities(runs)
    if not caps:
        return []
    fig = go.Figure()
    for model in model_order(c.model for c in caps):
        mine = [c for c in caps if c.model == model]
        fig.add_trace(go.Bar(x=[c.scenario for c in mine], y=[c.rate for c in mine], name=model,
                             text=[f"{'>= ' if unbounded(c, env) else ''}{c.rate:,.0f}" for c in mine],
                             textposition="inside", marker={"color": MODEL_COLORS.get(model.split()[0])},
                             error_y={"type": "data", "symmetric": False, "array": [c.high - c.rate for c in mine],
                                      "arrayminus": [c.rate - c.low for c in mine]},
                             hovertemplate="%{y:.0f}/s"))
    fig.update_layout(title="Capacity at the SLO per model (requests/s; whiskers: the interval; >=: no rate above it "
                            "broke the SLO)", barmode="group",
                      height=380, yaxis_title="requests/s", yaxis_tickformat="~g", margin={"t": 50})
    return [fig.to_html(full_html=False, include_plotlyjs=False)]


SEARCH_BOUNDS = {  # why a capacity search stopped without a rate that broke the SLO just above one that held
    Stop.CEILING: "at least: the database's point-select rate was reached",
    Stop.LOAD_GENERATOR: "at least: k6 was the limit",
    Stop.BUDGET: "at least: the search ran out of steps",
    Stop.NOTHING_HELD: "none held down to an eighth of the search's start",
}


def search_bound(env: dict, scenario: str, model: str) -> str | None:
    """What limits a searched capacity other than the app, if any repetition's search stopped at such a limit."""
    stops = {Stop(s["stop"]) for s in env.get("searches", []) if (s["scenario"], s["model"]) == (scenario, model)}
    return "; ".join(SEARCH_BOUNDS[stop] for stop in Stop if stop in stops and stop in SEARCH_BOUNDS) or None


def reason(runs: pd.DataFrame, c: slo.Capacity, cores: int) -> str:
    """The 'why' at the first step the model did not hold: peaks over its repetitions at that step."""
    above = [s for s in c.steps if s > c.rate]
    if not above:
        return f"held the SLO up to the highest step ({max(c.steps):g}/s)"
    at = runs[(runs.scenario == c.scenario) & (runs.model == c.model) & (runs.load_model == LoadKind.OPEN)
              & (runs.load == above[0])]
    row = dict(at.max(numeric_only=True).to_dict(), scenario=c.scenario)
    breach = f"at {above[0]:g}/s: p99 {num(at.p99_ms.median())} ms, {int(at.errors.sum())} failed, " \
             f"{int(at.dropped.sum())} dropped of {int(at.requests.sum() + at.dropped.sum())}"
    return f"{breach}; {why.explain(row, cores)}"


def comparison_sentences(runs: pd.DataFrame, win: pd.DataFrame) -> list[str]:
    """At every step, each model against the one with the lowest mean latency, from the per-second windows."""
    out = []
    by_tag = {tag: g["mean_ms"].to_numpy() for tag, g in win.groupby("tag")}
    # a sweep of app configurations compares the models under each one, not the configurations with each other (its
    # own table does that)
    apart = runs.scenario.map(lambda s: SCENARIOS[s].compare_within_variant)
    within = runs.variant.where(apart, "").fillna("")
    for (scenario, kind, load, variant), g in runs.groupby(["scenario", "load_model", "load", within], sort=True):
        samples = {m: [by_tag[t] for t in gm.tag if t in by_tag] for m, gm in g.groupby("model")}
        samples = {m: s for m, s in samples.items() if s}
        if len(samples) < 2:
            continue
        means = {m: np.mean([x.mean() for x in s]) for m, s in samples.items()}
        best = min(means, key=means.get)
        label = step_label(kind, load) + (f", {variant}" if variant else "")
        for m in sorted(samples, key=means.get):
            if m == best:
                continue
            d = stats.difference(samples[m], samples[best])
            out.append(f"{scenario} at {label}: " + stats.verdict(m, best, d, "mean latency", "ms")
                       + f"; {m} had {bad_count(g[g.model == m], 'failed requests')}, "
                       f"{best} {bad_count(g[g.model == best])}")
    return out


def bad_count(rows: pd.DataFrame, noun: str = "") -> str:
    """Failed requests, and the iterations k6 could not start beside them where there were any: past saturation a
    model drops more than it fails, and a latency compared without them flatters it."""
    failed, dropped = int(rows.errors.sum()), int(rows.dropped.sum())
    return f"{failed}{' ' + noun if noun else ''}" + (f" and {dropped} dropped iterations" if dropped else "")


def ideal_share(r) -> str:
    """Closed model: successful throughput against VUs / the ideal latency, every user served at it (where known)."""
    ideal_s = ideal_latency_s(r.scenario, r.variant or "")
    if r.load_model != LoadKind.CLOSED or ideal_s is None:
        return "-"
    return f"{r.ok_rps / (r.load / ideal_s):.1%}"


# A closed-model step whose throughput stays within this share of the ideal is taken as at the ideal.
NEAR_IDEAL_SHARE = 0.97


def shortfalls(med: pd.DataFrame, cores: int) -> list[str]:
    """Closed-model steps with a known ideal latency where a model served less than NEAR_IDEAL_SHARE of VUs / ideal:
    by how much, which sampled resource was busiest there (the REST client's pool, the app's or the machine's CPU, a
    queue), and whether the ideal rate would fit in the machine at the CPU per request measured."""
    out = []
    for _, r in med.iterrows():
        ideal_s = ideal_latency_s(r.scenario, r.variant or "")
        if r.load_model != LoadKind.CLOSED or ideal_s is None:
            continue
        ideal = r.load / ideal_s
        if r.ok_rps >= NEAR_IDEAL_SHARE * ideal:
            continue
        out.append(f"{r.scenario} at {r.load:g} VUs: {r.model} served {r.ok_rps:,.0f} of the ideal {ideal:,.0f} "
                   f"requests/s ({r.ok_rps / ideal:.1%}), p50 {num(r.p50_ms)} ms, p99 {num(r.p99_ms)} ms, "
                   f"{bad_count(pd.DataFrame([r]), 'failed')}; {why.explain(r.to_dict(), cores)}"
                   + (f"; {budget}" if app_busy(r.get("app_cpu_pct"))
                      and (budget := why.cpu_budget(r.to_dict(), cores, ideal)) else ""))
    return out


def runs_table(med: pd.DataFrame) -> Table:
    rows = []
    for _, r in med.iterrows():
        busy = app_busy(r.app_cpu_pct)
        offered = r.requests + r.dropped
        rows.append([r.scenario, step_label(r.load_model, r.load), r.model,
                     str(int(r.repetition)), num(r.ok_rps), ideal_share(r), num(r.p50_ms), num(r.p99_ms),
                     f"{int(r.errors)} ({int(r.status_0)}/{int(r.status_4xx)}/{int(r.status_5xx)})",
                     f"{int(r.dropped)}", f"{(r.errors + r.dropped) / offered:.2%}" if offered else "-",
                     num(r.app_cpu_pct, 0), num(r.k6_cpu_pct, 0), num(r.db_cpu_pct, 0),
                     num(r.downstream_cpu_pct, 0), num(r.host_cpu_pct, 0),
                     num(r.app_cpu_ms_per_req, 2) if busy else "-",
                     num(r.worker_queue_max, 0), num(r.worker_threads_max, 0), num(r.jdbc_awaiting_max, 0),
                     num(r.sql_queue_max, 0), num(r.downstream_waiting_max, 0), num(r.metrics_missed_pct, 0),
                     num(r.pinned, 0), num(r.gc_share_pct, 1),
                     num(r.rss_peak_mb, 0), num(r.threads_peak, 0)])
    return Table("Every step", ["scenario", "load", "model", "reps", "ok req/s", "of ideal", "p50 ms", "p99 ms",
                                "failed (none/4xx/5xx)", "dropped", "bad share", "app CPU %", "k6 CPU %", "DB CPU %",
                                "downstream CPU %", "machine CPU %", "app CPU ms/req", "worker queue max",
                                "worker threads max", "JDBC awaiting max", "reactive queue max",
                                "REST client waiting max", "sampler missed %", "pinned", "GC %", "RSS MB", "threads"], rows,
                 "Medians over repetitions; counts summed; queues: the highest sample. ok req/s = successful requests "
                 "/ the measured window (first to last second with a finished request); of ideal (closed model, "
                 "uncached aggregation only): against VUs / 0.6 s. p50/p99 over every finished "
                 "request, failed ones included. CPU % = average over the run, 100 = one core (machine CPU: all "
                 "cores together = 100). App CPU ms/req only "
                 f"where the app averaged >= {CPU_PER_REQUEST_MIN_APP_CPU_PCT:.0f} % CPU (below that, background "
                 "work dominates). Queues and threads: the highest sample of /lab/saturation, read every second on the "
                 "event loop (sampler missed %: samples it did not answer within 1.5 s). Pinned: JFR "
                 "jdk.VirtualThreadPinned events (every pin, however short), summed over repetitions; - where not "
                 "recorded. RSS and threads are process-wide: every model runs in the same app process, so "
                 "they depend on what ran before, not on the model.")


def knee_runs(runs: pd.DataFrame, caps: list[slo.Capacity]) -> dict[tuple[str, str], pd.Series]:
    """Per scenario and model, the run at its capacity (its knee): the first repetition that offered that rate."""
    out = {}
    for c in caps:
        at = runs[(runs.scenario == c.scenario) & (runs.model == c.model) & (runs.load_model == LoadKind.OPEN)
                  & (runs.load == c.rate)]
        if c.rate and not at.empty:
            out[c.scenario, c.model] = at.sort_values("repetition").iloc[0]
    return out


def model_order(models) -> list[str]:
    return sorted(set(models), key=lambda m: (MODELS.index(m.split()[0]), m))


def curves(runs: pd.DataFrame) -> list[str]:
    """p99 against the offered arrival rate per scenario, one line per model (the achieved rate in the hover), its knee
    (the step at its capacity) marked, the SLO as a line. A scenario measured at one offered rate has no curve: its p99
    per model as bars, the SLO beside them."""
    figs = []
    med = median_rows(runs[runs.load_model == LoadKind.OPEN])
    caps = {(c.scenario, c.model): c for c in slo.capacities(runs)}
    for scenario, g in med.groupby("scenario"):
        slo_ms = SCENARIOS[scenario].slo_p99_ms
        models = model_order(g.model)
        fig = go.Figure()
        if g.load.nunique() == 1:
            rate = g.load.iloc[0]
            for model in models:
                gm = g[g.model == model]
                fig.add_trace(go.Bar(x=[model], y=gm.p99_ms, name=model,
                                     marker={"color": MODEL_COLORS.get(model.split()[0])},
                                     hovertemplate="p99 %{y:.1f} ms"))
            fig.add_trace(go.Scatter(x=models, y=[slo_ms] * len(models), mode="lines", name=f"SLO p99 {slo_ms:g} ms",
                                     line={"dash": "dot", "color": "#555"}))
            fig.update_layout(title=f"{scenario} at {rate:g}/s offered: p99 latency per model", height=380,
                              yaxis_title="p99 ms", yaxis_tickformat="~g", margin={"t": 50})
        else:
            for model in models:
                gm = g[g.model == model].sort_values("load")
                color = MODEL_COLORS.get(model.split()[0])
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


def at_the_knee(runs: pd.DataFrame, win: pd.DataFrame) -> list[str]:
    """Per scenario searched or laddered, the run at each model's knee second by second, as Gatling and k6's
    dashboard draw a run: p50 and p99 latency, and successful requests per second."""
    knees = knee_runs(runs, slo.capacities(runs))
    figs = []
    for scenario in dict.fromkeys(s for s, _ in knees):
        fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.12, subplot_titles=(
            "latency per second: p99 solid, p50 dotted (ms, log)", "successful requests per second"))
        for model in model_order(m for s, m in knees if s == scenario):
            run = knees[scenario, model]
            w = win[win.tag == run.tag]
            w = w[(w.t > w.t.min()) & (w.t < w.t.max())]  # whole seconds: k6 starts and stops within the others
            color = MODEL_COLORS.get(model.split()[0])
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


def resources_at_the_knee(runs: pd.DataFrame) -> list[str]:
    """What each model's knee cost: the app's CPU per request, its peak RSS and threads, as bars per scenario."""
    knees = knee_runs(runs, slo.capacities(runs))
    if not knees:
        return []
    figures = (("app_cpu_ms_per_req", "app CPU ms per request"), ("rss_peak_mb", "app RSS peak, MB"),
               ("threads_peak", "app threads, peak"))
    fig = make_subplots(rows=1, cols=len(figures), subplot_titles=[title for _, title in figures])
    for model in model_order(m for _, m in knees):
        mine = [(s, r) for (s, m), r in knees.items() if m == model]
        for col, (column, _) in enumerate(figures, start=1):
            values = [r[column] if column != "app_cpu_ms_per_req" or app_busy(r.app_cpu_pct) else None
                      for _, r in mine]
            fig.add_trace(go.Bar(x=[s for s, _ in mine], y=values, name=model, legendgroup=model,
                                 showlegend=col == 1, marker={"color": MODEL_COLORS.get(model.split()[0])},
                                 hovertemplate="%{y:.3~g}"), row=1, col=col)
    fig.update_yaxes(tickformat="~g", rangemode="tozero")
    fig.update_layout(title="At each model's knee: CPU per request, memory and threads (RSS and threads are "
                            "process-wide: one app process serves every model)", barmode="group", height=380,
                      margin={"t": 80})
    return [fig.to_html(full_html=False, include_plotlyjs=False)]


def warmup_curves(env: dict) -> list[str]:
    """Successful requests per second after a fresh start, one line per runtime: how fast each reaches its level."""
    measured = {name: i["warmup_curve"] for name, i in (env.get("runtime_info") or {}).items()
                if i.get("warmup_curve")}
    if not measured:
        return []
    fig = go.Figure()
    for name, curve in measured.items():
        fig.add_trace(go.Scatter(x=list(range(len(curve["ok_per_s"]))), y=curve["ok_per_s"], mode="lines", name=name))
    fig.update_layout(title=f"warm-up after a fresh start: {next(iter(measured.values()))['load']}", height=380,
                      xaxis_title="second of load", yaxis_title="successful requests/s", margin={"t": 50})
    return [fig.to_html(full_html=False, include_plotlyjs=False)]


def limits_table(env: dict) -> Table:
    rows = [[k, str(v)] for k, v in (env.get("limits") or {}).items()]
    rows.append(["process figures", "RSS and threads are process-wide: one app process serves every model"])
    return Table("Limits in force", ["limit", "value"], rows, "A limit hides queueing behind it: a request refused "
                 "at once (503) or cut at a deadline (504) counts as failed, never as fast. The app as configured; a "
                 "scenario's app configurations (pool sizes, executors, its deadline) override some of these, as "
                 "the scenario's own table says.")


def settings_table(env: dict) -> Table:
    keys = ("command_line", "preset", "planned_seconds", "planned_seconds_at_most", "load_seconds", "restarts", "skipped", "wall_seconds", "duration_s", "warmup_s", "repeat", "loads",
            "users", "timeout_s", "jwt", "database", "target", "pinning", "cores", "cpu_model", "memory_gib", "jdk",
            "mysql_driver", "gc", "quarkus", "k6", "git_commit", "load_average_at_start", "open_files_limit", "cold_starts", "warmup_curve_s",
            "planned_start_up_seconds", "runtime_info", "flamegraphs", "failures")
    return Table("Settings and machine", ["setting", "value"],
                 [[setting_name(k), setting_text(env.get(k))] for k in keys if k in env])


UNIT_SUFFIXES = {"_s": " (s)", "_gib": " (GiB)", "_mb": " (MB)"}


def setting_name(key) -> str:
    """A results.json key as a label: 'warmup_s' -> 'warmup (s)', 'cpu_model' -> 'cpu model'."""
    key = str(key)
    for suffix, unit in UNIT_SUFFIXES.items():
        if key.endswith(suffix):
            return key[:-len(suffix)].replace("_", " ") + unit
    return key.replace("_", " ")


def setting_text(value) -> str:
    """A setting as a person reads it: mappings as 'key: value; ...', lists joined, numbers as the tables write
    them, nothing as '-'."""
    if value is None or value == [] or value == {}:
        return "-"
    if isinstance(value, dict):
        return "; ".join(f"{setting_name(k)}: {setting_text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(f"({setting_text(v)})" if isinstance(v, dict) else setting_text(v) for v in value)
    if isinstance(value, float):
        return num(value)
    return str(value)


DIFFERENCES_INTRO = ("Mean latency per second of each run, resampled in blocks of 5 consecutive seconds within each "
                     "run, then the runs drawn again (moving-block bootstrap, 2000 resamples; with one repetition the "
                     "interval covers the variation within the run only); the 95 % interval of the difference "
                     "against the fastest model at that step. 'X is N % higher than Y' means (X - Y) / Y = N %. When the interval "
                     "covers zero there is no detectable difference.")
SHORTFALLS_INTRO = ("Closed-model steps where a model served less than {share} of the ideal throughput (VUs / the "
                    "ideal latency), with the sampled resource that was busiest there and, where the app was busy, "
                    "whether the ideal rate fits in the machine at the CPU per request the processes on it used (the "
                    "app, k6, the downstream service, the database).")


def summary(env: dict) -> str:
    """The command, the planned and actual time, and where k6 ran against the app."""
    at_most = env.get("planned_seconds_at_most")
    return (f"Command: {env.get('command_line')}. Load phase (warm-ups and runs): planned {env.get('planned_seconds')} s"
            + (f" (at most {at_most} s)" if at_most and at_most != env.get("planned_seconds") else "")
            + f", took {env.get('load_seconds', '(not finished)')} s; wall time "
            f"{env.get('wall_seconds', '(still running)')} s with start-up (build, database, tokens, app). "
            f"{env.get('pinning')}.")


def sections(runs: pd.DataFrame, win: pd.DataFrame, env: dict) -> list[Section]:
    """The report in reading order: the answer, the capacity and where each model breaks, start-up, each article's
    experiment (its finding, then its table), the closed-model shortfalls, then the detail, folded."""
    cores = int(env.get("cores") or 1)
    views = {s: view for s, scenario in SCENARIOS.items() if scenario.view and (view := scenario.view(runs, win, env))}
    # a model under a scenario's app configuration is compared as a model of its own: "worker (article-small)"
    runs["model"] = runs.apply(model_label, axis=1)
    if runs.runtime.nunique() > 1:
        # each runtime's models are compared as models of their own: "virtual (container-jvm)"
        runs["model"] = runs.model + " (" + runs.runtime + ")"
    out = []
    if (runs.load_model == LoadKind.OPEN).any():
        out.append(Section("The answer", findings=verdicts(runs, env), charts=capacity_chart(runs, env), kind="verdicts"))
        out.append(Section("Capacity at the SLO", capacity_table(runs, env),
                           charts=curves(runs) + at_the_knee(runs, win) + resources_at_the_knee(runs)))
    start_up = footprint.footprint_table(env, runs)
    if start_up:  # start-up and footprint beside the capacity: the two headline comparisons of runtimes
        out.append(Section(start_up.title, start_up, charts=warmup_curves(env)))
    for name, (view_table, findings) in views.items():
        charts = SCENARIOS[name].charts
        out.append(Section(view_table.title, view_table, findings, charts(runs, win) if charts else []))
    med = median_rows(runs) if not runs.empty else None
    if med is not None and (short := shortfalls(med, cores)):
        out.append(Section("Short of the ideal", findings=short,
                           intro=SHORTFALLS_INTRO.format(share=f"{NEAR_IDEAL_SHARE:.0%}")))
    out.append(Section("Differences, with their uncertainty", findings=comparison_sentences(runs, win)
                       if not win.empty else [], intro=DIFFERENCES_INTRO, folded=True))
    for tb in ([runs_table(med)] if med is not None else []) + [limits_table(env), settings_table(env)]:
        out.append(Section(tb.title, tb, folded=True))
    return out


def render(out: str) -> dict[str, str]:
    runs, win, env = table.read(out)
    runs["variant"] = runs.variant.fillna("")
    context = dict(sections=sections(runs, win, env), summary=summary(env), warning=None if env.get("complete") else
                   f"WARNING: this benchmark did not complete ({'; '.join(env.get('failures') or []) or 'interrupted or failed'}); "
                   f"the tables hold what was measured.")
    templates = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATE_DIR), autoescape=False,
                                   trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    templates.filters["anchor"] = anchor
    template = templates.get_template("report.j2")
    return {"md": template.render(fmt="md", **context),
            "html": template.render(fmt="html", plotlyjs=plotly.offline.get_plotlyjs(), **context)}


def write_report(out: str) -> None:
    rendered = render(out)
    for ext, text in rendered.items():
        with open(os.path.join(out, f"report.{ext}"), "w") as f:
            f.write(text)
