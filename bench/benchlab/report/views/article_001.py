"""Article 001's section: per JDK x driver cell how often the virtual model pinned a carrier, where, whether the
JVM's own trace agrees, and what the virtual model served against the worker model, the control."""
from __future__ import annotations

import pandas as pd

from benchlab.formatting import Fixed, num
from benchlab.model import MODELS, VIRTUAL, WORKER, LoadKind, app_busy
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


def served(a: pd.DataFrame, b: pd.DataFrame, win: pd.DataFrame) -> str:
    """a's successful requests per second against b's, from the per-second windows (block bootstrap)."""
    samples_a, samples_b = ok_per_second(a, win), ok_per_second(b, win)
    if not samples_a or not samples_b:
        return "-"
    return stats.share_text(stats.difference(samples_a, samples_b))


def driver_order(variant: str) -> tuple:
    """connector-j-8.3.0 before connector-j-9.5.0 (and 10.x after both): by the version's numbers."""
    return tuple(int(n) for n in variant.rsplit("-", 1)[-1].split(".") if n.isdigit())


def view(runs: pd.DataFrame, win: pd.DataFrame, env: Environment) -> tuple[Table, list[str]] | None:
    rows = runs[(runs.scenario == NAME) & (runs.load_model == LoadKind.CLOSED)]
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for (runtime, variant), cell in rows.groupby(["runtime", "variant"], sort=True):
        drivers = sorted(rows[rows.runtime == runtime].variant.unique(), key=driver_order)
        earlier = drivers[0] if len(drivers) == 2 and variant == drivers[1] else None
        for (load, _, model), g in cell.assign(order=cell.model.map(MODELS.index)).groupby(["load", "order", "model"]):
            pins, where = pins_of(g)
            at = cell[cell.load == load]
            on_earlier = rows[(rows.runtime == runtime) & (rows.variant == earlier) & (rows.model == model)
                              & (rows.load == load)]
            table_rows.append([runtime, variant, f"{load:g}", model, str(g.repetition.nunique()), g.ok_rps.median(),
                               g.p50_ms.median(), g.p99_ms.median(),
                               f"{int(g.errors.sum())} + {int(g.dropped.sum())} dropped",
                               Fixed(g.app_cpu_ms_per_req.median(), 3) if app_busy(g.app_cpu_pct.median()) else "-",
                               "0" if pins == 0 else pins, where or "-",
                               served(g, at[at.model == CONTROL], win) if model == VIRTUAL else "-",
                               served(g, on_earlier, win) if earlier and model in (VIRTUAL, CONTROL) else "-"])
        virtual = cell[cell.model == VIRTUAL]
        if virtual.empty:
            continue
        pins, where = pins_of(virtual)
        trace = virtual.pinned_trace.dropna()
        pinned = ("pins not recorded" if pins is None else "the virtual model did not pin" if pins == 0 else
                  f"the virtual model pinned {num(pins)} times per 1,000 requests"
                  + (f", mostly in {where}" if where else ""))
        sentences.append(f"{runtime}, {variant}: {pinned}; {witness(pins, trace.any() if len(trace) else None)}.")
    note = ("Closed model, one k6 VU per connection; worker and reactive are the controls, since only virtual threads "
            "pin. Pins: JFR's jdk.VirtualThreadPinned per 1,000 requests, checked against the JVM's own trace on "
            "JDK 21 to 23; pinned in: the first frame outside the JDK. Differences in successful requests/s, with "
            "95 % intervals from per-second windows resampled in blocks, none from one run (the virtual model "
            "against the worker model, and each against the earlier driver).")
    return Table("JDK x MySQL driver (article 001): pinned carriers and what they cost",
                 ["runtime", "driver", "connections", "model", "reps", "ok req/s", "p50 ms", "p99 ms", "failed",
                  "CPU ms/req", "pins per 1,000 req", "pinned in", "virtual vs worker",
                  "vs the earlier driver"], table_rows, note), sentences
