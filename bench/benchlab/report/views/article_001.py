"""Article 001's section: per JDK x driver cell how often the virtual model pinned a carrier, where, whether the
JVM's own trace agrees, and what the virtual model served against the worker model (the control: only virtual
threads pin) at the same load."""
from __future__ import annotations

import pandas as pd

from benchlab.formatting import Fixed, num
from benchlab.model import CPU_PER_REQUEST_MIN_APP_CPU_PCT, MODELS, VIRTUAL, WORKER, LoadKind, app_busy
from benchlab.report.layout import Table
from benchlab.results import stats
from benchlab.results.environment import Environment
from benchlab.scenarios.article_001 import NAME

CONTROL = WORKER  # pins only virtual threads; worker runs the same blocking code on platform threads


def per_thousand(pins, requests) -> float | None:
    return None if pins is None or pd.isna(pins) or not requests else 1000 * pins / requests


def pins_of(g: pd.DataFrame) -> tuple[float | None, str | None]:
    """Pins per 1,000 requests over a group's runs, and where the run with the most pins pinned most."""
    if g.pinned.isna().all():
        return None, None
    worst = g.loc[g.pinned.fillna(0).idxmax()]
    return per_thousand(g.pinned.sum(), g.requests.sum()), worst.pinned_where if worst.pinned else None


def witness(pins: float | None, trace) -> str:
    """What the JVM's pinned-thread trace (JDK 21-23) says of the JFR count: the count is stated as confirmed only
    where the two agree."""
    if pins is None:
        return "pins not recorded"
    if trace is None or pd.isna(trace):
        return "no second witness (the JVM's pinned-thread trace exists on JDK 21-23 only)"
    if bool(trace) == (pins > 0):
        return "the JVM's pinned-thread trace agrees" if pins else "the JVM's pinned-thread trace saw none either"
    return ("the JVM's pinned-thread trace disagrees (it printed " + ("a pinned stack" if trace else "none")
            + "): not confirmed")


def ok_per_second(runs: pd.DataFrame, win: pd.DataFrame) -> list:
    return [g.ok.to_numpy() for _, g in win[win.tag.isin(runs.tag)].groupby("tag")]


def served(a: pd.DataFrame, b: pd.DataFrame, win: pd.DataFrame) -> str | None:
    """a's successful requests per second against b's, from the per-second windows (block bootstrap)."""
    samples_a, samples_b = ok_per_second(a, win), ok_per_second(b, win)
    if not samples_a or not samples_b:
        return None
    d = stats.difference(samples_a, samples_b)
    share, low, high = d.as_percent()
    interval = f"95 % CI {stats.percent(low, '+')} % to {stats.percent(high, '+')} %"
    return (f"{stats.percent(share, '+')} % successful requests/s ({interval})" if d.detectable
            else f"no detectable difference in successful requests/s ({interval})")


def against_control(at: pd.DataFrame, win: pd.DataFrame) -> str | None:
    """Virtual against the worker model at one load, p99 beside it."""
    text = served(at[at.model == VIRTUAL], at[at.model == CONTROL], win)
    if text is None:
        return None
    p99 = at.groupby("model").p99_ms.median()
    return (f"at {at.load.iloc[0]:g} connections {text}, p99 {num(p99.get('virtual'))} against "
            f"{num(p99.get(CONTROL))} ms")


def driver_effect(runtime: str, rows: pd.DataFrame, win: pd.DataFrame) -> str | None:
    """On one JDK, each model with the later driver against the earlier one at each load: where only the virtual model
    gains, what it gains is what the pins cost it."""
    variants = [v for v in dict.fromkeys(rows.sort_values("variant", key=lambda c: c.map(driver_order)).variant)]
    if len(variants) != 2:
        return None
    earlier, later = variants
    parts = []
    for model in (VIRTUAL, CONTROL):
        for load, at in rows[rows.model == model].groupby("load", sort=True):
            text = served(at[at.variant == later], at[at.variant == earlier], win)
            if text:
                parts.append(f"{model} at {load:g} connections {text}")
    return f"{runtime}, {later} against {earlier}: " + "; ".join(parts) + "." if parts else None


def driver_order(variant: str) -> tuple:
    """connector-j-8.3.0 before connector-j-9.5.0 (and 10.x after both): by the version's numbers."""
    return tuple(int(n) for n in variant.rsplit("-", 1)[-1].split(".") if n.isdigit())


def view(runs: pd.DataFrame, win: pd.DataFrame, env: Environment) -> tuple[Table, list[str]] | None:
    rows = runs[(runs.scenario == NAME) & (runs.load_model == LoadKind.CLOSED)]
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for (runtime, variant), cell in rows.groupby(["runtime", "variant"], sort=True):
        for (load, _, model), g in cell.assign(order=cell.model.map(MODELS.index)).groupby(["load", "order", "model"]):
            pins, where = pins_of(g)
            table_rows.append([runtime, variant, f"{load:g}", model, str(g.repetition.nunique()), g.ok_rps.median(),
                               g.p50_ms.median(), g.p99_ms.median(),
                               f"{int(g.errors.sum())} + {int(g.dropped.sum())} dropped",
                               Fixed(g.app_cpu_ms_per_req.median(), 3) if app_busy(g.app_cpu_pct.median()) else "-",
                               "0" if pins == 0 else pins, where or "-"])
        virtual = cell[cell.model == VIRTUAL]
        if virtual.empty:
            continue
        pins, where = pins_of(virtual)
        trace = virtual.pinned_trace.dropna()
        pinned = ("pins not recorded" if pins is None else "the virtual model did not pin" if pins == 0 else
                  f"the virtual model pinned {num(pins)} times per 1,000 requests"
                  + (f", mostly in {where}" if where else ""))
        costs = [c for _, at in cell.groupby("load", sort=True) if (c := against_control(at, win))]
        sentences.append(f"{runtime}, {variant}: {pinned}; {witness(pins, trace.any() if len(trace) else None)}. "
                         f"Virtual against {CONTROL}: " + ("; ".join(costs) if costs else "not measured") + ".")
    for runtime, on_jdk in rows.groupby("runtime", sort=True):
        if effect := driver_effect(runtime, on_jdk, win):
            sentences.append(effect)
    note = ("Closed model: each connection a k6 VU that sends its next request when the last one is answered. Pins: "
            "JFR's jdk.VirtualThreadPinned, every pin however short, counted in the run's k6 window, per 1,000 "
            "requests; pinned in: the first frame outside the JDK of the run's commonest pin. The counts are checked "
            "against the JVM's own pinned-thread trace where the JDK has one (21 to 23). Failed + dropped beside the "
            f"latencies; CPU ms/req: the app's CPU per request where it averaged >= {CPU_PER_REQUEST_MIN_APP_CPU_PCT:.0f}"
            " % CPU. Worker and reactive are the controls: only virtual threads pin. Differences in successful "
            "requests/s: per-second windows resampled in blocks within each run and the runs drawn again (95 % "
            "interval); with one repetition the interval covers the variation within that run only.")
    return Table("JDK x MySQL driver (article 001): pinned carriers and what they cost",
                 ["runtime", "driver", "connections", "model", "reps", "ok req/s", "p50 ms", "p99 ms", "failed",
                  "CPU ms/req", "pins per 1,000 req", "pinned in"], table_rows, note), sentences
