"""The report's scale-out sections, only in a run with a scale-out (--scenarios scale-out): a row per runtime (when its
second replica was ready and carried its share, what clients met meanwhile), each process's CPU and whether the
machine was the limit, and a chart per runtime of each replica's throughput and k6's p99 over the run."""
from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from benchlab.formatting import Fixed
from benchlab.report.layout import Section, Table
from benchlab.results import scale_out
from benchlab.results.environment import Environment, ScaleOutRecord

NOT_IN_THE_RUN = "not within the run"
LATE_BEFORE_SHARE = 0.01  # more late or failed than a p99 allows: the baseline itself missed the SLO
CPU_COLUMNS = {"k6": "k6", "haproxy": "HAProxy", "db": "database", "replica 1": "replica 1", "replica 2": "replica 2"}
REPLICA_COLORS = {"replica 1": "#1f77b4", "replica 2": "#ff7f0e"}


def label(r: ScaleOutRecord) -> str:
    return f"{r.runtime} ({r.model})"


def after_step(seconds: float | None) -> str:
    """Seconds after the step to three figures, no trailing zeros: '+9.6 s', '+40 s'; or that it did not happen."""
    return NOT_IN_THE_RUN if seconds is None else f"+{seconds:.3g} s"


def requests_text(part: scale_out.Requests | None) -> str:
    if part is None:
        return "-"
    return f"{part.failed:,} failed, {part.late:,} late of {part.requests:,}"


def limit_text(s: scale_out.ScaleOut) -> str:
    if s.limit is None:
        return f"not the machine (below {scale_out.MACHINE_LIMIT_PCT:g} %)"
    return f"the machine; {CPU_COLUMNS[s.limit]} used most of it"


def scale_out_table(items: list[scale_out.ScaleOut]) -> Table:
    """A row per runtime: the replica and its rates, when replica 2 was ready and carried its share, what clients
    met before the step, until the join and after it."""
    rows = []
    for s in items:
        r = s.record
        size = f"{r.cpus:g} CPU" + (f", {r.memory_mb} MB" if r.memory_mb is not None else "")
        rows.append([label(r), size, Fixed(r.capacity, 0),
                     f"{r.rate_before:g} -> {r.rate_after:g}", after_step(s.ready_after_s), after_step(s.serves_s),
                     after_step(s.share_s),
                     requests_text(s.before), requests_text(s.joining), requests_text(s.joined),
                     f"{s.windows_past_slo} of {s.windows_after}", s.worst_p99_ms])
    return Table("Scale-out: a second replica started cold under twice the load",
                 ["runtime (model)", "each replica", "capacity /s", "offered /s", "replica 2 ready",
                  "serves its share", "and within the SLO", "before the step", "from the step to the join",
                  "after the join",
                  "windows over the SLO", "worst p99 ms"], rows,
                 f"Seconds after the step; k6's requests in {scale_out.WINDOW_S} s windows by when they started, each "
                 "window in the part of the run it started in. Late: answered, over the SLO's p99; windows over the "
                 "SLO: from the step on, their p99 over it. Serves its share: from the first window on which, to the "
                 f"end, replica 2 served {scale_out.SHARE_FLOOR * 100:g} % of half the stepped rate; and within the "
                 "SLO: with every such window's p99 within it too.")


def cpu_table(items: list[scale_out.ScaleOut]) -> Table:
    rows = [[label(s.record), *(Fixed(s.record.cpu_pct.get(name), 0) for name in CPU_COLUMNS),
             Fixed(s.record.machine_cpu_pct, 0), limit_text(s)] for s in items]
    return Table("Scale-out CPU: each process and the machine",
                 ["runtime (model)", *(f"{name} CPU %" for name in CPU_COLUMNS.values()), "machine CPU %", "the limit"],
                 rows,
                 "Means over the run; 100 = one core, the machine's of all its cores. From "
                 f"{scale_out.MACHINE_LIMIT_PCT:g} % of all cores on the machine was the limit, not the replicas: its "
                 "largest consumer beside them is named.")


def findings(items: list[scale_out.ScaleOut]) -> list[str]:
    """A line per runtime whose replica 2 never carried its share, and per run the machine limited."""
    out = []
    for s in items:
        r = s.record
        if s.serves_s is None:
            out.append(f"{label(r)}: replica 2 never served its share in {r.seconds} s.")
        elif s.share_s is None:
            out.append(f"{label(r)}: replica 2 served its share from {after_step(s.serves_s)}, never within the SLO "
                       f"in {r.seconds} s.")
        if s.before.late + s.before.failed > LATE_BEFORE_SHARE * s.before.requests:
            why = "the search's short steps held more than 30 s do" if r.capacity is not None else \
                "the rate given is more than one replica holds"
            out.append(f"{label(r)}: replica 1 alone missed the SLO before the step ({s.before.late + s.before.failed:,}"
                       f" of {s.before.requests:,} late or failed): {why}.")
        if s.limit is not None:
            out.append(f"{label(r)}: the machine was the limit ({r.machine_cpu_pct:.0f} % of all cores, "
                       f"{CPU_COLUMNS[s.limit]} the largest consumer), not the replicas alone.")
    return out


def chart(s: scale_out.ScaleOut) -> str:
    """Each replica's 2xx per second and k6's p99 per window (right axis, log) over the run; the step and the join
    as vertical lines, the SLO and replica 2's share as horizontal ones."""
    r = s.record
    width = scale_out.window_width(r)
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    for name, served in r.served.items():
        fig.add_trace(go.Scatter(x=list(range(len(served))), y=served, mode="lines", name=f"{name} 2xx/s",
                                 line={"color": REPLICA_COLORS.get(name)}, hovertemplate="%{y:.0f}/s"))
    share = scale_out.SHARE_FLOOR * r.rate_after / len(scale_out.REPLICAS)
    fig.add_trace(go.Scatter(x=[r.step_s, r.seconds], y=[share, share], mode="lines",
                             name=f"{scale_out.SHARE_FLOOR * 100:g} % of a replica's share",
                             line={"dash": "dot", "color": REPLICA_COLORS["replica 2"]}))
    middles = [w["start_s"] + width / 2 for w in r.windows]
    fig.add_trace(go.Scatter(x=middles, y=[w["p99_ms"] for w in r.windows], mode="lines+markers",
                             name=f"p99 per {width} s", line={"color": "#555"}, hovertemplate="p99 %{y:.1f} ms"),
                  secondary_y=True)
    # The SLO as a trace, not an hline: on a log axis plotly places an hline's annotation at 10^y (charts.py).
    fig.add_trace(go.Scatter(x=[0, r.seconds], y=[r.slo_p99_ms, r.slo_p99_ms], mode="lines",
                             name=f"SLO p99 {r.slo_p99_ms:g} ms", line={"dash": "dot", "color": "#d62728"}),
                  secondary_y=True)
    fig.add_vline(x=r.step_s, line_dash="dash", annotation_text=f"step to {r.rate_after:g}/s")
    if r.ready_s is not None:
        fig.add_vline(x=r.ready_s, line_dash="dash", line_color="#ff7f0e", annotation_text="replica 2 ready",
                      annotation_position="bottom right")
    fig.update_yaxes(title_text="2xx per second", rangemode="tozero", tickformat="~g", secondary_y=False)
    fig.update_yaxes(title_text="p99 ms (log)", type="log", tickformat="~g", tickmode="auto", showgrid=False,
                     secondary_y=True)
    fig.update_layout(title=f"Scale-out, {label(r)}: each replica's 2xx per second and k6's p99 per {width} s",
                      xaxis_title="second of the run", height=420, margin={"t": 60})
    return fig.to_html(full_html=False, include_plotlyjs=False)


def sections(env: Environment) -> list[Section]:
    items = [scale_out.verdicts(r) for r in env.get("scale_outs") or []]
    if not items:
        return []
    table, cpu = scale_out_table(items), cpu_table(items)
    return [Section(table.title, table, findings(items), [chart(s) for s in items]), Section(cpu.title, cpu)]
