"""Where runtimes are compared, the report's first screen: per scenario and runtime (a pod size being a runtime of its
own), one replica within its CPU budget (its best model's capacity at the SLO, its RSS under load, its first answer, its
time to steady), what a core and a GB of it serve, and the replicas, cores and GB a target load (--target-load) needs,
with the range its capacity allows. A GB is one of the pod's memory limit where it had one, else of its RSS."""
from __future__ import annotations

import math
import re

import pandas as pd

from benchlab.formatting import Fixed
from benchlab.model import size_mb
from benchlab.report.answer import best_cell
from benchlab.report.capacity import capacity_text, lower_bound, repetitions, versus_best
from benchlab.report.footprint import cold_start_summaries, rss_under_load, time_to_steady
from benchlab.report.layout import Table
from benchlab.results import slo
from benchlab.results.environment import Environment
from benchlab.scenarios import SCENARIOS

HEADERS = ["scenario", "runtime", "pod", "best model", "capacity at the SLO", "RSS under load MB", "first answer",
           "time to steady", "per core", "per GB", "replicas", "cores", "GB"]
LABEL = re.compile(r"^(.*) \((.+)\)$")  # "virtual (native)": the model and its runtime, as render labels them


def replicas(target: float, c: slo.Capacity, env: Environment) -> tuple[int, int | None, int]:
    """Replicas for the target load: (fewest the interval allows, at the capacity, most); None in the middle where the
    capacity is a lower bound (then the fewest is 1: any higher rate may hold)."""
    most = math.ceil(target / c.rate)
    if lower_bound(c, env):
        return 1, None, most
    return math.ceil(target / c.high), most, math.ceil(target / c.low)


def spread(fewest: int, point: int | None, most: int, unit: float = 1.0) -> str:
    """'12 (9 to 15)', '6.0 (4.5 to 7.5)' for cores, or 'at most 8' where the capacity was not bounded."""
    text = (lambda n: f"{n * unit:g}") if unit == 1.0 else (lambda n: f"{n * unit:.1f}")
    if point is None:
        return f"at most {text(most)}"
    return text(point) if fewest == most else f"{text(point)} ({text(fewest)} to {text(most)})"


def per_runtime(caps: list[slo.Capacity], scenario: str) -> dict[str, list[slo.Capacity]]:
    """Each runtime's capacities in a scenario, the highest first."""
    by_runtime: dict[str, list[slo.Capacity]] = {}
    for c in sorted((c for c in caps if c.scenario == scenario and LABEL.match(c.model)), key=lambda c: -c.rate):
        by_runtime.setdefault(LABEL.match(c.model).group(2), []).append(c)
    return by_runtime


def best_models(mine: list[slo.Capacity], env: Environment, reps: int) -> str:
    """The runtime's best model, with those the answer would not tell apart from it: 'worker, virtual (tied)'."""
    tied = [LABEL.match(c.model).group(1) for c in mine[1:] if versus_best(mine[0], c, env, reps) is None]
    return best_cell(LABEL.match(mine[0].model).group(1), tied)


def pod(env: Environment, runtime: str) -> tuple[float, float | None]:
    """The runtime's pod: (its CPUs, its memory limit in GB or None), from its recorded limits, else the run's budget
    (an older results.json, or a runtime without one: the whole machine)."""
    info = env.runtime_info.get(runtime)
    limits = (info.get("limits") if info else None) or {}
    memory = limits.get("memory")
    gb = size_mb(memory) / 1024 if memory else None
    return float(limits.get("cpus") or env.app_cpus or env.cores), gb


def decision_table(runs: pd.DataFrame, env: Environment, caps: list[slo.Capacity]) -> Table | None:
    """None unless two runtimes or more were measured."""
    if runs.runtime.nunique() < 2:
        return None
    target = env.target_load
    rows, limited = [], False
    for scenario in SCENARIOS:
        for runtime, mine in per_runtime(caps, scenario).items():
            c = mine[0]
            info = env.runtime_info.get(runtime)
            first = cold_start_summaries(info.cold_starts)["first_request_s"].get("median") if info else None
            steady = time_to_steady(((info.warmup_curve or {}).get("ok_per_s") or []) if info else [])
            rss = rss_under_load(runs, runtime)
            cpus, limit_gb = pod(env, runtime)
            limited = limited or limit_gb is not None
            row = [scenario, runtime, f"{cpus:g} CPU" + (f", {limit_gb * 1024:.0f} MB" if limit_gb else ""),
                   best_models(mine, env, repetitions(runs, scenario)), capacity_text(c, env), Fixed(rss, 0),
                   "-" if first is None else f"{first:.2f} s",
                   "-" if steady.seconds is None else f"{steady.seconds} s"]
            if not c.rate:  # as the answer says it: no model, and the lowest rate none of them held
                rows.append(row[:3] + ["none", f"none held {min(c.steps):g}/s"] + row[5:] + ["-"] * 5)
                continue
            n = replicas(target, c, env)
            gb = limit_gb or (rss / 1024 if rss else None)
            rows.append(row + [f"{c.rate / cpus:,.0f}/s", "-" if gb is None else f"{c.rate / gb:,.0f}/s", spread(*n),
                               spread(*n, unit=cpus), "-" if gb is None else spread(*n, unit=gb)])
    if not rows:
        return None
    return Table(f"Runtimes for {target:,.0f} requests/s", HEADERS, rows, " ".join([
        "One replica: the app within its pod, its best model and those tied with it; capacity as in the answer below.",
        "First answer: the median cold start; time to steady: to 90 % of a fresh replica's steady throughput.",
        f"Replicas for {target:,.0f}/s at the scenario's SLO (--target-load), with the range the capacity's interval "
        "allows.",
        "GB: the pods' memory limits (--app-memory)." if limited else
        "GB: the replicas' RSS under load, as no memory limit was set."] + ([
            "Pod sizes compared: each pod's CPU per request at one rate, without the A/A twin; the models' cost "
            "verdicts and their rates are a run of one size's."] if env.pod_sizes else [])))
