"""The report's steady-state views: each model's CPU per request on the warm app, each warm-up to steady state, the
steps measured again and the steps kept in spite of a disturbance."""
from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from benchlab.formatting import ONE_RUN, Fixed, num, one_run, ratio
from benchlab.model import MODEL_COLORS, LoadKind, step_label
from benchlab.report.layout import Table, model_color, model_order
from benchlab.results import slo
from benchlab.results.again import compiling, interference
from benchlab.results.cost import Cost, k6_above_app
from benchlab.results.environment import Environment


def interval(low: float, high: float, digits: int = 2) -> str:
    """'0.25 to 0.31', or 'no interval' where the runs cannot bound it."""
    return f"{low:.{digits}f} to {high:.{digits}f}" if high < math.inf else "no interval"


def cost_interval(c: Cost) -> str:
    """A cost's interval, or what stands for it where its runs do not bound it: '1 run', 'too few requests to tell'."""
    return c.unsettled or interval(c.low, c.high, 3)


def cost_with_interval(c: Cost) -> str:
    """'0.287 (0.250 to 0.324)', or '0.287, 1 run' and '0.287, too few requests to tell' where the runs do not bound
    it."""
    return f"{c.cpu_ms:.3f}" + (f", {c.unsettled}" if c.unsettled else f" ({interval(c.low, c.high, 3)})")


def versus_cheapest(c: Cost) -> str:
    """'1.21x (1.19 to 1.23)' against the cheapest, ', not told apart' within the floor; '1.05x, 1 run' from one pair;
    'too few requests to tell' where either cost is unsettled."""
    if c.ratio == 1 and c.ratio_low == 1:
        return "1 (cheapest)"
    if (unsettled := c.ratio_unsettled) is not None:
        return one_run(ratio(c.ratio)) if c.pairs == 1 else unsettled
    return ratio(c.ratio, c.ratio_low, c.ratio_high) + ("" if c.told_apart else ", not told apart")


def cost_table(costs: list[Cost]) -> Table:
    """Every model's cost at every cost rate; at the verdict's rate the A/A floor it is read against."""
    rows = [[c.scenario, f"{c.rate:g}/s", c.model, Fixed(c.cpu_ms, 3), cost_interval(c), versus_cheapest(c),
             floor_cell(c), Fixed(c.requests_per_core_s, 0), str(c.runs), Fixed(c.rss_mb, 0),
             Fixed(c.alloc_mb_per_s, 1), Fixed(c.k6_cpu_ms, 3)] for c in costs]
    return Table("Steady-state CPU per request", [
        "scenario", "rate", "model", "steady CPU per request (ms)", "95 % interval", "vs cheapest", "A/A floor",
        "req/s one core serves", "runs", "RSS MB", "allocation MB/s", "k6 CPU per request (ms)"], rows,
        "The app's CPU per successful request on the steady app, at rates below every model's knee, in short runs "
        "whose models take turns; intervals: Student's t over the runs and over their log ratios. "
        "A twin app of one model takes its turn at the highest rate; its stray from the shared app beyond its runs' "
        "scatter (x1.00 where its interval holds 1) is the A/A floor a ratio must clear. "
        "RSS and allocation: medians of the runs (RSS process-wide); k6's CPU: what generating the load cost.")


def cost_notes(env: Environment) -> list[str]:
    """Each block whose cost rates moved below the lowest capacity its search found, and why; each whose undecided
    verdicts got more runs."""
    return ([f"{moved}: past a knee a run measures a backlog, not a cost." for moved in env.get("cost_rates_moved", [])]
            + [f"{added}: each ratio's estimate lay beyond the A/A floor, its interval did not; read again once, "
               f"after them all." for added in env.get("verdict_runs_added", [])])


def k6_notes(runs: pd.DataFrame) -> list[str]:
    """Per scenario, rate and model, the cost runs in which k6 paid more CPU per request than the app
    (cost.k6_above_app), with both figures over those runs."""
    found = k6_above_app(runs)
    cost_runs = runs[runs.load_model == LoadKind.COST].groupby(["scenario", "load", "model"]).size()
    out = []
    for scenario, rate, model in dict.fromkeys((f.scenario, f.rate, f.model) for f in found):
        mine = [f for f in found if (f.scenario, f.rate, f.model) == (scenario, rate, model)]
        out.append(f"{scenario}, {model} at {rate:g}/s: k6 spent more CPU per request than the app in {len(mine)} "
                   f"of {cost_runs[scenario, rate, model]} cost runs, k6 {span([f.k6_ms for f in mine])} ms against "
                   f"the app's {span([f.app_ms for f in mine])} ms.")
    return out


def span(values: list[float]) -> str:
    """'1.112 to 1.201', or '1.167' for one figure."""
    low, high = f"{min(values):.3f}", f"{max(values):.3f}"
    return low if low == high else f"{low} to {high}"


def floor_cell(c: Cost) -> str:
    """'x1.03 (virtual twin 1.06x, 1.03 to 1.09)' on the cheapest model's row of a rate with a twin, else '-'."""
    if c.floor is None or c.ratio != 1:
        return "-"
    f = c.floor
    return f"x{f.factor:.2f} ({f.model} twin {f.ratio:.2f}x, {interval(f.low, f.high) if f.runs > 1 else ONE_RUN})"


def cost_by_rate_table(costs: list[Cost]) -> Table | None:
    """Per scenario with several cost rates: a row per rate, each model's CPU per request in a column of its own."""
    frame = by_rate(costs)
    if frame is None:
        return None
    models = model_order(frame.model)
    rows = []
    for (scenario, rate), g in frame.groupby(["scenario", "rate"], sort=False):
        at = dict(zip(g.model, g.itertuples()))
        rows.append([scenario, f"{rate:g}/s", str(int(g.runs.max())),
                     *(cost_with_interval(at[m].cost) if m in at else "-" for m in models)])
    return Table("CPU per request against the rate", ["scenario", "rate", "runs", *models], rows,
                 "The app's CPU ms per successful request at each cost rate, with its 95 % interval. At a low rate a "
                 "request also pays for waking threads that a busy app keeps awake.")


def by_rate(costs: list[Cost]) -> pd.DataFrame | None:
    """The costs of the scenarios measured at several rates, a row per scenario, model and rate (None: none were)."""
    frame = pd.DataFrame([dict(scenario=c.scenario, model=c.model, rate=c.rate, cpu_ms=c.cpu_ms, low=c.low,
                               high=c.high, runs=c.runs, settled=c.unsettled is None, cost=c) for c in costs])
    if frame.empty:
        return None
    frame = frame[frame.groupby("scenario").rate.transform("nunique") > 1]
    # the scenarios in report order, each one's rates rising
    return None if frame.empty else frame.sort_values("rate", kind="stable").sort_values(
        "scenario", key=lambda s: s.map(list(dict.fromkeys(frame.scenario)).index), kind="stable")


def cost_by_rate_findings(costs: list[Cost]) -> list[str]:
    """Each model whose cost falls with the rate: its interval at the lowest rate above its interval at the
    highest, both settled."""
    frame = by_rate(costs)
    if frame is None:
        return []
    out = []
    for (scenario, model), g in frame.groupby(["scenario", "model"], sort=False):
        lowest, highest = g.loc[g.rate.idxmin()], g.loc[g.rate.idxmax()]
        if lowest.rate < highest.rate and lowest.settled and highest.settled and lowest.low > highest.high:
            out.append(f"{scenario}, {model}: the cost falls with the rate, {lowest.cpu_ms:.3f} ms at "
                       f"{lowest.rate:g}/s, {highest.cpu_ms:.3f} ms at {highest.rate:g}/s "
                       f"({lowest.cpu_ms / highest.cpu_ms:.2f}x).")
    return out


def cost_by_rate_charts(costs: list[Cost]) -> list[str]:
    """Per scenario: CPU per request against the rate, a line per model with its intervals."""
    frame = by_rate(costs)
    if frame is None:
        return []
    figs = []
    for scenario, mine in frame.groupby("scenario", sort=False):
        fig = go.Figure()
        for model, g in mine.groupby("model", sort=False):
            g = g.sort_values("rate")
            above = (g.high - g.cpu_ms).where(g.settled)  # no bar where the table gives no interval; a finite axis
            fig.add_trace(go.Scatter(x=g.rate, y=g.cpu_ms, mode="lines+markers", name=model,
                                     line={"color": model_color(model)},
                                     error_y={"type": "data", "symmetric": False, "array": above,
                                              "arrayminus": (g.cpu_ms - g.low).where(above.notna())},
                                     hovertemplate="%{x:g}/s: %{y:.3f} ms per request"))
        fig.update_xaxes(title_text="arrival rate (requests/s)", type="log", tickvals=sorted(mine.rate.unique()),
                         tickformat="~g")
        fig.update_yaxes(title_text="app CPU per request (ms)", rangemode="tozero")
        fig.update_layout(title=f"{scenario}: CPU per request against the rate", height=420)
        figs.append(fig.to_html(full_html=False, include_plotlyjs=False))
    return figs


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
                 "Each model warms up until, over three 2 s windows, the JIT compiles under 50 ms/s and neither CPU "
                 "per request nor p99 falls by over 10 % (or a tenth of the SLO), or --warmup runs out. "
                 "The last three columns are its last window."
                 + (" A twin is first primed on the models it never runs, each for at most the cap of fixed loads."
                    if any(w.label.endswith("primed") for w in env.warmups) else "")
                 + (" The CPU budget is lifted while it warms up; every measured step runs within it." if lifted
                    else ""))


def warmup_charts(env: Environment) -> list[str]:
    """Per scenario: the app's CPU per request and p99 over each warm-up, one line per model (and runtime)."""
    figs = []
    first = [w for w in env.warmups if w.label == "warmup" and w.windows]
    for scenario in dict.fromkeys(w.scenario for w in first):
        mine = [w for w in first if w.scenario == scenario]
        fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.12, subplot_titles=(
            "app CPU per request (ms, log)", "p99 latency (ms, log)"))
        loads = {w.load for w in mine}
        for w in mine:
            name = w.model + (f" ({w.variant})" if w.variant else "") + (
                f" ({w.runtime})" if len({x.runtime for x in mine}) > 1 else "") + (
                f" at {w.load}" if len(loads) > 1 else "")
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
        at = f" at {mine[0].load}" if len(loads) == 1 else ""
        fig.update_layout(title=f"{scenario}: each model's warm-up{at} until steady", height=520,
                          margin={"t": 80})
        figs.append(fig.to_html(full_html=False, include_plotlyjs=False))
    return figs


def steps_measured(all_runs: pd.DataFrame) -> list[list]:
    """Each step's measurements in order (a step is a run's tag; attempt 2 and later measured it again)."""
    attempt = all_runs.attempt.fillna(1)
    return [[r for _, r in g.assign(attempt=attempt[g.index]).sort_values("attempt").iterrows()]
            for _, g in all_runs.groupby("tag", sort=False)]


def steps_table(title: str, rows: list[list], note: str) -> Table | None:
    """A table of steps and their measurements: a third column only where a step had a third measurement."""
    if not rows:
        return None
    width = max(len(r) for r in rows)
    rows = [r[:-1] + ["-"] * (width - len(r)) + r[-1:] for r in rows]
    return Table(title, ["step", "why", *(ORDINALS[n].lower() for n in range(1, width - 2)), "which counts"], rows,
                 note)


def measured_again(all_runs: pd.DataFrame, max_interference: float) -> Table | None:
    """Every step measured a second (or third) time: why, what each measurement found, which one counts."""
    rows = []
    for ms in steps_measured(all_runs):
        if len(ms) < 2:
            continue
        whys = [why_again(later, earlier, max_interference) for earlier, later in zip(ms, ms[1:])]
        rows.append([step_name(ms[-1]), "; then ".join(whys), *(outcome(m) for m in ms), ORDINALS[len(ms)].lower()])
    return steps_table("Steps measured again", rows, AGAIN_NOTE)


def disturbed_but_kept(all_runs: pd.DataFrame, max_interference: float) -> Table | None:
    """The steps whose figures stand although something disturbed them: a step that held the SLO in spite of other
    processes, the hypervisor's steal or the JIT (measure_again leaves a pass as it is), and a last measurement
    disturbed in its turn (results/again.py: at most MAX_ATTEMPTS)."""
    rows = []
    for ms in steps_measured(all_runs):
        last = ms[-1]
        if (why := disturbed(last, max_interference)) is None:
            continue
        if len(ms) > 1:
            rows.append([step_name(last), f"{why}, in the {ORDINALS[len(ms)].lower()} too",
                         *(outcome(m) for m in ms), ORDINALS[len(ms)].lower()])
        elif last.load_model != LoadKind.COST and slo.holds_slo(last):
            rows.append([step_name(last), f"held despite: {why}", outcome(last), "first: a pass stands"])
    return steps_table("Steps kept in spite of a disturbance", rows, KEPT_NOTE)


AGAIN_NOTE = ("A step is measured again where its first measurement cannot be trusted: a busy machine or the JIT "
              "behind a breach or a cost run, or a breach close enough to chance. A search step that breaks again "
              "beside the same disturbance is measured a third time. The last measurement counts; the others stay "
              "in results.csv, marked superseded.")
KEPT_NOTE = ("These figures stand with a disturbance in them. A step that held while the machine was busy is not "
             "measured again: the disturbance can only have hurt it. A step's last measurement stands even if it "
             "was disturbed too.")
ORDINALS = {1: "First", 2: "Second", 3: "Third"}


def disturbed(row, max_interference: float) -> str | None:
    """What disturbed a measurement, if anything (results/again.py's rules): 'machine busy' or 'JIT compiling'."""
    if interference(row, max_interference):
        return f"machine busy (over {max_interference:g} % of a core)"
    return "JIT compiling" if compiling(row) else None


def why_again(later, earlier, max_interference: float) -> str:
    """Why a step was measured again: a breach to confirm, or what disturbed the measurement before."""
    if str(later.remeasured).startswith("to confirm"):
        return "to confirm a breach"
    return disturbed(earlier, max_interference) or str(later.remeasured)


def step_name(row) -> str:
    return f"{row.scenario} {row.model} at {step_label(row.load_model, row.load)}" + (
        f", repetition {int(row.repetition)}" if row.repetition > 1 and row.load_model != LoadKind.COST else "")


def outcome(row) -> str:
    """What a measurement found: a cost run is read for its CPU per request, a step for its SLO; its disturbance."""
    found = (f"{num(row.app_cpu_ms_per_req, 3)} ms/req" if row.load_model == LoadKind.COST else
             "held" if slo.holds_slo(row) else "broke")
    lost = "".join(f", {int(v)} {what}" for what, v in (("failed", row.errors), ("dropped", row.dropped)) if v)
    busy = [f"{name} {v:.0f} %" for name, v in (("others", row.get("other_cpu_pct")),
                                                  ("steal", row.get("steal_cpu_pct"))) if pd.notna(v) and v >= 1]
    busy += [f"JIT {row.jit_ms_per_s:.0f} ms/s"] if compiling(row) else []
    return f"{found}, p99 {num(row.p99_ms)} ms{lost}" + (f"; {', '.join(busy)}" if busy else "")
