"""bench/run --compare DIR_A DIR_B: per scenario, model and step, is B faster, slower or not detectably different
from A (mean latency per second, block bootstrap; from one run on a side, the difference alone), and the capacity at
the SLO of each."""
from __future__ import annotations

from benchlab.results import slo, stats, table


def render(dir_a: str, dir_b: str) -> str:
    runs_a, win_a, _ = table.read(dir_a)
    runs_b, win_b, _ = table.read(dir_b)
    lines = [f"A = {dir_a}", f"B = {dir_b}", ""]
    caps_a = {(c.scenario, c.model): c for c in slo.capacities(runs_a)}
    for c in slo.capacities(runs_b):
        a = caps_a.get((c.scenario, c.model))
        if a:
            lines.append(f"{c.scenario} {c.model}: capacity at SLO A {a.rate:g}/s ({a.low:g} to {a.high:g}), "
                         f"B {c.rate:g}/s ({c.low:g} to {c.high:g})")
    lines.append("")
    keys = ["scenario", "model", "load_model", "load"]
    for key, gb in runs_b.groupby(keys, sort=True):
        ga = runs_a.set_index(keys).loc[[key]] if key in runs_a.set_index(keys).index else None
        if ga is None:
            continue
        samples_a = [g.mean_ms.to_numpy() for t, g in win_a.groupby("tag") if t in set(ga.tag)]
        samples_b = [g.mean_ms.to_numpy() for t, g in win_b.groupby("tag") if t in set(gb.tag)]
        if not samples_a or not samples_b:
            continue
        d = stats.difference(samples_b, samples_a)
        scenario, model, kind, load = key
        step = f"{load:g}/s" if kind == "open" else f"{load:g} VUs"
        word = "not detectably different from" if not d.detectable else "slower than" if d.estimate > 0 \
            else "faster than"
        # from one run on a side the difference has no interval: the sentence says so, and no verdict precedes it
        lines.append(f"{scenario} {model} {step}: " + (f"B is {word} A — " if d.bounded else "")
                     + stats.verdict("B", "A", d, "mean latency", "ms"))
    return "\n".join(lines)
