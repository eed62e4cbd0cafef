"""The report's steady-state views: what a request costs each model on the warm app (its verdict on the first screen,
and the table behind it), how long each warm-up took to steady state (a table and its curves), every step that was
measured again, with why and what each measurement found, and the steps whose figures stand with a disturbance in
them."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from benchlab.formatting import Fixed, num
from benchlab.model import MODEL_COLORS, MODELS, LoadKind, step_label
from benchlab.report.layout import Table
from benchlab.results import slo
from benchlab.results.again import disturbance
from benchlab.results.cost import ONE_APP_FACTOR, Cost
from benchlab.results.environment import Environment


def interval(low: float, high: float, digits: int = 2) -> str:
    return f"{low:.{digits}f} to {high:.{digits}f}"


def cost_verdicts(costs: list[Cost]) -> list[str]:
    """Per scenario: the cheapest model's CPU per request, each other model's as a multiple of it (or no detectable
    difference), and what one core could serve at the cheapest cost. The others in the models' own order, not by cost:
    two models within the variation between apps may swap places from one run to the next, and the verdict should not."""
    out = []
    for scenario in dict.fromkeys(c.scenario for c in costs):
        mine = [c for c in costs if c.scenario == scenario]
        cheapest, others = mine[0], sorted(mine[1:], key=lambda c: (MODELS.index(c.model.split()[0]), c.model))
        parts = [f"{c.model} {versus(c)}" for c in others]
        out.append(f"{scenario}, steady CPU per request at {cheapest.rate:g}/s: {cheapest.model} "
                   f"{cheapest.cpu_ms:.3f} ms ({interval(cheapest.low, cheapest.high, 3)})"
                   + (f"; {'; '.join(parts)}" if parts else "")
                   + f"; at that cost one core serves at most about {cheapest.requests_per_core_s:,.0f} requests/s"
                   + (f" (k6 spent {cheapest.k6_cpu_ms:.2f} ms per request generating them)"
                      if cheapest.k6_cpu_ms else "") + ".")
    return out


def versus(c: Cost) -> str:
    """A model's cost against the cheapest one's, as the verdict says it."""
    ratio = f"{c.ratio:.2f}x, {interval(c.ratio_low, c.ratio_high)}"
    if c.told_apart:
        return f"{c.ratio:.2f}x ({interval(c.ratio_low, c.ratio_high)})"
    if c.detectable:
        return f"not told apart by one app ({ratio}: within x{ONE_APP_FACTOR:g}, the variation between apps seen here)"
    return f"no detectable difference ({ratio})"


def cost_table(costs: list[Cost]) -> Table:
    rows = [[c.scenario, f"{c.rate:g}/s", c.model, Fixed(c.cpu_ms, 3), interval(c.low, c.high, 3),
             "1 (cheapest)" if c.ratio == 1 and c.ratio_low == 1 else
             f"{c.ratio:.2f} ({interval(c.ratio_low, c.ratio_high)})" + ("" if c.told_apart else ", not told apart"),
             str(c.runs), Fixed(c.rss_mb, 0), Fixed(c.alloc_mb_per_s, 1), Fixed(c.k6_cpu_ms, 3)] for c in costs]
    return Table("Steady-state CPU per request", [
        "scenario", "rate", "model", "steady CPU per request (ms)", "95 % interval", "vs cheapest", "runs",
        "RSS MB", "allocation MB/s", "k6 CPU per request (ms)"], rows,
        "The app process's CPU per successful request at a common arrival rate below every model's saturation, "
        "measured on the steady app (after its warm-up) in short runs whose models take turns; the interval: "
        "Student's t over the runs; the ratio's: over the log ratios of the runs of one repetition, which ran one "
        "after the other (a few runs give wide intervals: \"no detectable difference\" means that). They share one "
        f"app: a ratio is told apart only beyond x{ONE_APP_FACTOR:g}, the variation between apps (runs of the same "
        "command) seen here. At a lower rate more of the app's background work (timers, "
        "the sampler's scrapes) falls on each request, alike for every model. RSS and allocation rate: medians of the "
        "runs (RSS is process-wide; the allocation rate is counted at young collections: blank where a run had "
        "none). k6's CPU per request is what the load generator paid for the same requests.")


def warmup_table(env: Environment) -> Table | None:
    if not env.warmups:
        return None
    rows = []
    for w in env.warmups:
        last = w.windows[-1] if w.windows else None
        rows.append([w.runtime, w.scenario + (f" ({w.variant})" if w.variant else ""), w.model, w.load, w.label,
                     Fixed(w.seconds, 0), str(w.requests), "yes" if w.steady else "no: the cap came first",
                     Fixed(last.jit_ms_per_s, 0) if last else None,
                     Fixed(last.app_cpu_ms_per_req, 3) if last else None, Fixed(last.p99_ms, 1) if last else None])
    lifted = any(w.budget_lifted for w in env.warmups)
    return Table("Warm-up until steady", ["runtime", "scenario", "model", "load", "warm-up", "seconds", "requests",
                                          "steady", "JIT ms/s", "app CPU ms/req", "p99 ms"], rows,
                 "Each model on each app, before its block's first measurement: k6 at the load shown until, over three "
                 "2 s windows, the JIT compiled less than 50 ms per second and neither the app's CPU per request nor "
                 "p99 fell by more than 10 % (a p99 falling by less than a tenth of the SLO's bound counts as "
                 "steady), or --warmup seconds passed. The last three columns: its last window. "
                 + ("The app's CPU budget was lifted while it warmed up (the JIT compiles at the machine's speed); "
                    "every measured step ran within it." if lifted else ""))


def warmup_charts(env: Environment) -> list[str]:
    """Per scenario: the app's CPU per request and p99 over each warm-up, one line per model (and runtime)."""
    figs = []
    first = [w for w in env.warmups if w.label == "warmup" and w.windows]
    for scenario in dict.fromkeys(w.scenario for w in first):
        mine = [w for w in first if w.scenario == scenario]
        fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.12, subplot_titles=(
            "app CPU per request (ms, log)", "p99 latency (ms, log)"))
        for w in mine:
            name = w.model + (f" ({w.variant})" if w.variant else "") + (
                f" ({w.runtime})" if len({x.runtime for x in mine}) > 1 else "")
            color = MODEL_COLORS.get(w.model)
            t = [x.end_s for x in w.windows]
            fig.add_trace(go.Scatter(x=t, y=[x.app_cpu_ms_per_req for x in w.windows], mode="lines+markers",
                                     name=name, legendgroup=name, line={"color": color},
                                     hovertemplate="%{y:.3f} ms per request"), row=1, col=1)
            fig.add_trace(go.Scatter(x=t, y=[x.p99_ms for x in w.windows], mode="lines+markers", name=name,
                                     legendgroup=name, showlegend=False, line={"color": color},
                                     hovertemplate="p99 %{y:.1f} ms"), row=2, col=1)
        fig.update_yaxes(type="log", tickformat="~g")
        fig.update_xaxes(title_text="seconds of warm-up", row=2, col=1)
        fig.update_layout(title=f"{scenario}: each model's warm-up at {mine[0].load} until steady", height=520,
                          margin={"t": 80})
        figs.append(fig.to_html(full_html=False, include_plotlyjs=False))
    return figs


def measured_again(all_runs: pd.DataFrame) -> list[str]:
    """Every step measured a second time: why, and what each measurement found."""
    out = []
    again = all_runs[all_runs.attempt.fillna(1) > 1]
    for _, second in again.iterrows():
        first = all_runs[(all_runs.tag == second.tag) & (all_runs.attempt.fillna(1) == second.attempt - 1)]
        before = first.iloc[0] if not first.empty else None
        n = int(second.attempt)
        out.append(f"{step_name(second)}: measured {'again' if n == 2 else 'a third time'} "
                   f"{'' if second.remeasured.startswith('to ') else 'because '}{second.remeasured}. "
                   + (f"{ORDINALS[n - 1]}: {outcome(before)}. " if before is not None else "")
                   + f"{ORDINALS[n]}: {outcome(second)}; "
                   + ("measured once more (below)." if second.get("superseded") == True  # noqa: E712 - NaN: no
                      else f"the {ORDINALS[n].lower()} measurement is the step's."))
    return out


ORDINALS = {1: "First", 2: "Second", 3: "Third"}


def disturbed_but_kept(final_runs: pd.DataFrame, max_interference: float) -> list[str]:
    """The steps whose figures stand although something disturbed them: a step that held the SLO in spite of other
    processes, the hypervisor's steal or the JIT (measure_again leaves a pass as it is), and a last measurement
    disturbed in its turn (results/again.py: at most MAX_ATTEMPTS). final_runs: each step's last measurement."""
    out = []
    for _, row in final_runs.iterrows():
        why = disturbance(row, max_interference)
        if why is None:
            continue
        where = step_name(row)
        if (attempt := row.get("attempt") or 1) > 1:
            out.append(f"{where}: its {ORDINALS[int(attempt)].lower()} measurement was disturbed too ({why}); "
                       f"{verdict(row)}. It stands, with that in it: the measurements of a step stop there.")
        elif row.load_model != LoadKind.COST and slo.holds_slo(row):
            out.append(f"{where}: held the SLO although {why}; {figures(row)}. Not measured again: the disturbance "
                       "can only have hurt the step.")
    return out


def step_name(row) -> str:
    return f"{row.scenario} {row.model} at {step_label(row.load_model, row.load)} (repetition {int(row.repetition)})"


def figures(row) -> str:
    return f"p99 {num(row.p99_ms)} ms, {int(row.errors)} failed, {int(row.dropped)} dropped"


def verdict(row) -> str:
    """What a measurement found: a cost run is read for its CPU per request, a step for its SLO."""
    if row.load_model == LoadKind.COST:
        return f"{num(row.app_cpu_ms_per_req, 3)} ms of CPU per request, {figures(row)}"
    return f"{'held the SLO' if slo.holds_slo(row) else 'broke the SLO'}, {figures(row)}"


def outcome(row) -> str:
    return (verdict(row)
            + (f", other processes {num(row.other_cpu_pct)} % of a core" if pd.notna(row.get("other_cpu_pct")) else "")
            + (f", the hypervisor's steal {num(row.steal_cpu_pct)} %" if (row.get("steal_cpu_pct") or 0) >= 1 else ""))
