"""The report's soak sections, only in a run with a soak (--scenarios soak): a row per model after the answer (held
how long, the SLO and the leak suspects: pass or fail), each series' drift with its interval, the native memory that
grew, and each series over time."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from benchlab.formatting import Fixed, num
from benchlab.report.layout import Section, Table, model_color, model_order
from benchlab.results import slo, soak
from benchlab.results.environment import Environment, SoakRecord
from benchlab.results.stats import percent

NMT_AREAS = 4  # the areas whose committed memory grew most, per model


def label(r: SoakRecord, several_runtimes: bool) -> str:
    """A soaked model as the soak's tables write it: "virtual", "virtual (aggregate)", "worker (native)"."""
    return r.model + "".join(f" ({x})" for x in (r.variant, r.runtime if several_runtimes else "") if x)


def change_text(d: soak.Drift) -> str:
    """'+12 % (+8 to +15 %)', or from zero '+3.1 (+1.2 to +5.0)'; 'none detectable (...)' where it covers zero."""
    share = d.share
    if share is None:
        text, interval = f"{d.change:+.3g}", f"({d.low:+.3g} to {d.high:+.3g})"
    else:
        text, interval = f"{percent(share[0], '+')} %", f"({percent(share[1], '+')} to {percent(share[2], '+')} %)"
    return f"{text} {interval}" if d.detectable else f"none detectable {interval}"


def verdict(d: soak.Drift) -> str:
    if d.suspect:
        return "leak suspect: grows"
    return "grows, below the suspect level" if d.detectable and d.change > 0 else \
        "falls" if d.detectable else "no detectable drift"


class Soaks:
    """Each soak of a run: its record, its row in results.csv, its seconds and their drift."""

    def __init__(self, runs: pd.DataFrame, win: pd.DataFrame, env: Environment):
        records = env.get("soaks") or []
        self.several = len({r.runtime for r in records}) > 1
        self.items = []
        rows = runs.set_index("tag") if records else None
        for r in records:
            if r.tag not in rows.index:
                continue
            frame = soak.seconds(r, win)
            self.items.append((r, rows.loc[r.tag], frame, soak.drift(frame)))

    def answer_table(self) -> Table | None:
        """A row per model: held how long at which rate, the SLO over the whole soak, the leak suspects."""
        if not self.items:
            return None
        rows = []
        for r, row, _, drifts in self.items:
            suspects = soak.suspects(drifts)
            held = slo.holds_slo(row)
            grown = max((d for d in drifts if d.detectable and d.change > 0 and d.share),
                        key=lambda d: d.share[0], default=None)
            rows.append([label(r, self.several), f"{r.minutes:g} min at {r.rate:g}/s",
                         f"{num(row.p99_ms)} ms; {int(row.errors):,} failed, {int(row.dropped):,} dropped of "
                         f"{int(row.requests) + int(row.dropped):,}",
                         "pass" if held else "fail",
                         "; ".join(f"{d.series.label} {change_text(d)}" for d in suspects) or "none",
                         "pass" if not suspects else "fail",
                         f"{grown.series.label} {change_text(grown)}" if grown else "none detectable"])
        return Table("The soak", ["model", "held", "p99; failed, dropped", "SLO", "leak suspects", "no leak",
                                  "largest growth"], rows,
                     "Drift: the last tenth of the soak against the first, per second, 95 % interval (moving-block "
                     f"bootstrap). A leak suspect grew beyond the noise and by over {soak.SUSPECT_GROWTH * 100:g} % at "
                     "the interval's low end. SLO: the whole soak's p99 and failures.")

    def drift_table(self) -> Table:
        rows = [[label(r, self.several), d.series.label + (f" ({d.series.unit})" if d.series.unit else ""),
                 d.first, d.last, change_text(d), verdict(d)]
                for r, _, _, drifts in self.items for d in drifts]
        return Table("Soak drift: each series from the first tenth to the last",
                     ["model", "series", "first tenth", "last tenth", "change (95 % CI)", "verdict"], rows,
                     "Means over the first and the last tenth of the soak's seconds. Heap after young GCs: the heap in "
                     "use at its lowest in each 5 s. A series the app does not export (a native executable's old "
                     "generation) has no row.")

    def nmt_table(self) -> Table:
        rows = []
        for r, _, _, _ in self.items:
            if not r.nmt:
                rows.append([label(r, self.several), "-", "-", "-", r.nmt_note or "not tracked"])
                continue
            total = r.nmt.get("Total")
            grew = [(area, v) for area, v in r.nmt.items() if area != "Total" and v[1] > 0]
            areas = sorted(grew, key=lambda item: -item[1][1])
            for area, (committed, change) in ([("Total", total)] if total else []) + areas[:NMT_AREAS]:
                rows.append([label(r, self.several), area, Fixed(committed, 1), f"{change:+.1f}", ""])
        return Table("Soak native memory: NMT's areas from the start to the end",
                     ["model", "area", "committed MB at the end", "change MB", "note"], rows,
                     f"Native Memory Tracking's summary (the JVM's, or an executable's built with NMT and jcmd), from "
                     f"the soak's start to its end: the total and the {NMT_AREAS} areas that grew most, of those that grew.")

    def charts(self) -> list[str]:
        """Each series over the soak, 10 s means, a line per model."""
        shown = [s for s in soak.SERIES
                 if any(s.column in f and f[s.column].notna().any() for _, _, f, _ in self.items)]
        if not shown:
            return []
        cols = 2
        fig = make_subplots(rows=-(-len(shown) // cols), cols=cols, shared_xaxes=True,
                            subplot_titles=[s.label + (f" ({s.unit})" if s.unit else "") for s in shown])
        order = model_order(label(r, self.several) for r, _, _, _ in self.items)
        for r, _, frame, _ in sorted(self.items, key=lambda item: order.index(label(item[0], self.several))):
            name = label(r, self.several)
            tens = soak.every_ten_seconds(frame)
            for i, s in enumerate(shown):
                if s.column not in tens:
                    continue
                fig.add_trace(go.Scatter(x=tens["t"] / 60, y=tens[s.column], mode="lines", name=name,
                                         legendgroup=name, showlegend=i == 0,
                                         line={"color": model_color(name)}),
                              row=i // cols + 1, col=i % cols + 1)
        fig.update_yaxes(rangemode="tozero")  # growth read against the whole: a flat series drawn flat
        fig.update_layout(title="Soak: each series over time (10 s means; x: minutes into the soak)",
                          height=220 * -(-len(shown) // cols), margin={"t": 70})
        return [fig.to_html(full_html=False, include_plotlyjs=False)]

    def sections(self) -> list[Section]:
        if not self.items:
            return []
        findings = [f"{label(r, self.several)}: {d.series.label} grew {change_text(d)} over "
                    f"{r.minutes:g} min, a leak suspect." for r, _, _, drifts in self.items
                    for d in soak.suspects(drifts)]
        drift = self.drift_table()
        return [Section(drift.title, drift, findings, self.charts()),
                Section(self.nmt_table().title, self.nmt_table(), folded=True)]
