"""Where runtimes are compared, the report's first screen: per scenario and runtime (a pod size being a runtime of its
own), one replica within its CPU budget (its best model's capacity at the SLO, its RSS under load, its first answer, its
time to steady), what a core and a GB of it serve, and the replicas, cores and GB a target load (--target-load) needs,
with the range its capacity allows. A GB is one of the pod's memory limit where it had one, else of its RSS. At the knee:
the best model's p99 and its quota's throttling. A month: core-hours, GB-hours and, at the prices given, its cost; the
cheapest pod named by cost, else by cores."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pandas as pd

from benchlab.formatting import Fixed, throttling
from benchlab.model import size_mb
from benchlab.report.answer import best_cell
from benchlab.report.capacity import capacity_text, knee_runs, lower_bound, repetitions, versus_best
from benchlab.report.footprint import cold_start_summaries, rss_under_load, time_to_steady
from benchlab.report.layout import Table
from benchlab.results import slo
from benchlab.results.environment import Environment
from benchlab.scenarios import SCENARIOS

HEADERS = ["scenario", "runtime", "pod", "best model", "capacity at the SLO", "p99 at the knee ms",
           "throttled at the knee", "RSS under load MB", "first answer", "time to steady", "per core", "per GB",
           "replicas", "cores", "GB", "core-hours a month", "GB-hours a month"]
COST = "USD a month"  # the last column, where prices were given (--price-core-hour, --price-gb-hour)
# The month of the cloud providers' price lists: 365 x 24 / 12 hours.
HOURS_PER_MONTH = 730
LABEL = re.compile(r"^(.*) \((.+)\)$")  # "virtual (native)": the model and its runtime, as render labels them


def replicas(target: float, c: slo.Capacity, env: Environment) -> tuple[int, int | None, int]:
    """Replicas for the target load: (fewest the interval allows, at the capacity, most); None in the middle where the
    capacity is a lower bound (then the fewest is 1: any higher rate may hold)."""
    most = math.ceil(target / c.rate)
    if lower_bound(c, env):
        return 1, None, most
    return math.ceil(target / c.high), most, math.ceil(target / c.low)


def spread(fewest: int, point: int | None, most: int, unit: float = 1.0, digits: int | None = None) -> str:
    """'12 (9 to 15)', '6.0 (4.5 to 7.5)' for cores, '1,095 (730 to 1,460)' with digits=0 for core-hours, or 'at
    most 8' where the capacity was not bounded."""
    text = (lambda n: f"{n * unit:,.{digits}f}") if digits is not None else (lambda n: f"{n * unit:g}") \
        if unit == 1.0 else (lambda n: f"{n * unit:.1f}")
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


@dataclass(frozen=True)
class Bill:
    """A pod's month at the target load: (fewest, at the capacity, most) replicas times its size, and the price of
    each hour of a core and of a GB (None: not given)."""
    replicas: tuple[int, int | None, int]
    cpus: float
    gb: float | None
    price_core_hour: float | None
    price_gb_hour: float | None

    @property
    def priced(self) -> bool:
        return self.price_core_hour is not None and self.price_gb_hour is not None and self.gb is not None

    def per_replica(self) -> float:
        """USD a month for one replica."""
        return HOURS_PER_MONTH * (self.cpus * self.price_core_hour + self.gb * self.price_gb_hour)

    def cells(self) -> list[str]:
        hours = [spread(*self.replicas, unit=HOURS_PER_MONTH * self.cpus, digits=0),
                 "-" if self.gb is None else spread(*self.replicas, unit=HOURS_PER_MONTH * self.gb, digits=0)]
        return hours + ([spread(*self.replicas, unit=self.per_replica(), digits=0) if self.priced else "-"]
                        if self.price_core_hour is not None else [])

    def key(self) -> tuple[bool, float]:
        """What the cheapest pod is chosen by: its monthly cost where priced, else its cores (at the capacity, or at
        most where the capacity is a lower bound)."""
        fewest, point, most = self.replicas
        n = most if point is None else point
        return (not self.priced, n * self.per_replica() if self.priced else n * self.cpus)


def cheapest(bills: dict[str, Bill], target: float, scenario: str) -> str | None:
    """'The cheapest for 5,000/s in jwt-mysql: native-cpu0.5, 1,234 USD a month.' (by cost where priced, else by
    cores); None without a runtime that held a rate."""
    if not bills:
        return None
    runtime, bill = min(bills.items(), key=lambda item: item[1].key())
    unpriced, value = bill.key()
    return f"The cheapest for {target:,.0f}/s in {scenario}: {runtime}, " + (
        f"{value:g} cores." if unpriced else f"{value:,.0f} {COST}.")


def decision_table(runs: pd.DataFrame, env: Environment, caps: list[slo.Capacity]) -> Table | None:
    """None unless two runtimes or more were measured."""
    if runs.runtime.nunique() < 2:
        return None
    target, priced = env.target_load, env.price_core_hour is not None
    knees = knee_runs(runs, caps)
    rows, limited, cheapest_named = [], False, []
    for scenario in SCENARIOS:
        bills = {}
        for runtime, mine in per_runtime(caps, scenario).items():
            c = mine[0]
            info = env.runtime_info.get(runtime)
            first = cold_start_summaries(info.cold_starts)["first_request_s"].get("median") if info else None
            steady = time_to_steady(((info.warmup_curve or {}).get("ok_per_s") or []) if info else [])
            rss = rss_under_load(runs, runtime)
            cpus, limit_gb = pod(env, runtime)
            limited = limited or limit_gb is not None
            knee = knees.get((scenario, c.model))
            row = [scenario, runtime, f"{cpus:g} CPU" + (f", {limit_gb * 1024:.0f} MB" if limit_gb else ""),
                   best_models(mine, env, repetitions(runs, scenario)), capacity_text(c, env),
                   Fixed(None if knee is None else knee.get("p99_ms"), 1),
                   "-" if knee is None else throttling(knee.get("throttled_pct"), knee.get("throttled_ms_per_s")),
                   Fixed(rss, 0), "-" if first is None else f"{first:.2f} s",
                   "-" if steady.seconds is None else f"{steady.seconds} s"]
            if not c.rate:  # as the answer says it: no model, and the lowest rate none of them held
                rows.append(row[:3] + ["none", f"none held {min(c.steps):g}/s"] + row[5:]
                            + ["-"] * (7 + priced))
                continue
            n = replicas(target, c, env)
            gb = limit_gb or (rss / 1024 if rss else None)
            bills[runtime] = Bill(n, cpus, gb, env.price_core_hour, env.price_gb_hour)
            rows.append(row + [f"{c.rate / cpus:,.0f}/s", "-" if gb is None else f"{c.rate / gb:,.0f}/s", spread(*n),
                               spread(*n, unit=cpus), "-" if gb is None else spread(*n, unit=gb)]
                        + bills[runtime].cells())
        if (named := cheapest(bills, target, scenario)) is not None:
            cheapest_named.append(named)
    if not rows:
        return None
    return Table(f"Runtimes for {target:,.0f} requests/s", HEADERS + ([COST] if priced else []), rows, " ".join([
        "One replica: the app within its pod, its best model and those tied with it; capacity as in the answer below.",
        "First answer: the median cold start; time to steady: to 90 % of a fresh replica's steady throughput.",
        f"Replicas for {target:,.0f}/s at the scenario's SLO (--target-load), with the range the capacity's interval "
        "allows.",
        "GB: the pods' memory limits (--app-memory)." if limited else
        "GB: the replicas' RSS under load, as no memory limit was set.",
        "At the knee: the best model's p99 and its CPU quota's throttling, the share of periods that ended in a wait "
        "and the ms waited per second.",
        f"A month: {HOURS_PER_MONTH} hours" + (f", at {env.price_core_hour:g} USD a core-hour and "
                                                f"{env.price_gb_hour:g} USD a GB-hour." if priced else
                                                "; --price-core-hour and --price-gb-hour give its cost.")]
        + cheapest_named + ([
            "Pod sizes compared: each pod's capacity over its searches, each on a fresh app, the pods taking turns. "
            "Each pod's CPU per request at one rate, without the A/A twin; the models' cost verdicts and their rates "
            "are a run of one size's."] if env.pod_sizes else [])
        + [f"Searched once more: {added}." for added in env.get("searches_added", [])]))
