"""Which resource saturated first, from the samples of the run where the SLO first broke: each rule scores one column
against the level at which its resource counts as saturated, and the highest score >= 1 is the answer. The levels
and why: bench/README.md, "Reading the report"."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Level(Enum):
    """How a rule's threshold is computed where it is not a fixed number."""
    WAIT = "wait"  # anything waiting
    APP = "app"  # 90 % of the app's CPU budget (the run's app_cpus), every core without one
    RIG = "rig"  # 90 % of the rig's CPUs (the run's rig_cpus, --app-cpuset), every core without a split
    APP_SET = "app set"  # 90 % of the app's CPUs, which the database shares (app_set_cpus), every core without a split


@dataclass(frozen=True)
class Rule:
    column: str
    level: Level | float  # a fixed number: the value at which the resource counts as saturated
    resource: str
    sentence: str  # formatted with the value
    brief: str  # the same in a few words, for the answer's table
    ceiling: str = ""  # the rig's, where the resource is not the app's: a knee set there is a lower bound (ceiling())


RULES = (
    Rule("worker_queue_max", Level.WAIT, "worker-pool queue",
         "worker-pool starvation: up to {v:.0f} tasks queued",
         "worker pool starved: {v:.0f} queued"),
    Rule("metrics_missed_pct", 50, "event-loop delay",
         "event-loop delay: /lab/saturation, served on the event loop, missed 1.5 s in {v:.0f} % of the samples "
         "while the app's CPU was not saturated",
         "event loop blocked: {v:.0f} % of samples unanswered"),
    Rule("jdbc_awaiting_max", Level.WAIT, "JDBC pool wait",
         "JDBC pool wait: up to {v:.0f} requests waiting for a connection", "JDBC pool: {v:.0f} waiting"),
    Rule("sql_queue_max", Level.WAIT, "reactive pool queue",
         "reactive pool queue: up to {v:.0f} queries waiting for a connection", "reactive pool: {v:.0f} waiting"),
    Rule("downstream_waiting_max", Level.WAIT, "REST client pool wait",
         "REST client pool wait: up to {v:.0f} downstream calls waiting for a connection (see "
         "quarkus.rest-client.downstream.connection-pool-size)", "REST client pool: {v:.0f} waiting"),
    Rule("k6_cpu_pct", Level.RIG, "k6 CPU", "the load generator was the limit: k6 used {v:.0f} % CPU",
         "k6 was the limit: {v:.0f} % CPU", ceiling="k6's ceiling"),
    Rule("db_cpu_pct", Level.APP_SET, "DB CPU", "database CPU: {v:.0f} %", "database CPU {v:.0f} %"),
    Rule("downstream_cpu_pct", Level.RIG, "downstream CPU", "the downstream service's CPU: {v:.0f} %",
         "downstream CPU {v:.0f} %"),
    Rule("app_cpu_pct", Level.APP, "app CPU", "app CPU: {v:.0f} %", "app CPU {v:.0f} %"),
    Rule("rig_cpu_pct", 85, "rig CPU", "the rig's CPUs (k6, the downstream service, the bench) were nearly full: "
         "{v:.0f} %",
         "rig CPU {v:.0f} %", ceiling="the rig's ceiling"),
    Rule("app_set_cpu_pct", 85, "the app's CPUs", "the app's CPUs, which the database shares, were nearly full: "
         "{v:.0f} %", "app and database CPUs {v:.0f} %"),
    Rule("host_cpu_pct", 85, "machine CPU", "the machine's CPUs were nearly full: {v:.0f} % of all cores",
         "machine CPU {v:.0f} % of all cores", ceiling="the machine's ceiling"),
    Rule("gc_share_pct", 5, "GC", "GC: {v:.1f} % of the run in pauses", "GC pauses {v:.1f} % of the run"),
    # An app below its budget whose quota still ran out: its threads spent a period's quota early, then waited for
    # the next period (up to half of 100 ms within 0.5 CPU, the jwt-mysql SLO). Only below the CPU rule's level.
    Rule("throttled_pct", 10, "the quota's period", "the quota's period: {v:.0f} % of periods throttled",
         "quota's period: {v:.0f} % throttled"),
)


def app_budget(row: dict) -> float | None:
    """The CPU budget the run's app ran within, in CPUs (None: the whole machine)."""
    budget = row.get("app_cpus")
    return budget if budget is not None and budget == budget else None


def app_cpu_saturated(row: dict, cores: int) -> bool:
    """The app's CPU at the CPU rule's level: 90 % of its budget, every core without one."""
    return (row.get("app_cpu_pct") or 0) >= 90.0 * (app_budget(row) or cores)


def threshold(rule: Rule, cores: int, row: dict) -> float:
    if rule.level is Level.WAIT:
        return 0.5  # counts are integers: one waiter is a wait
    if rule.level is Level.APP:
        return 90.0 * (app_budget(row) or cores)
    if rule.level in (Level.RIG, Level.APP_SET):
        cpus = row.get("rig_cpus" if rule.level is Level.RIG else "app_set_cpus")
        return 90.0 * (cpus if cpus is not None and cpus == cpus else cores)
    return float(rule.level)


def scores(row: dict, cores: int) -> list[tuple[float, Rule, float]]:
    """(score, rule, value) of every sampled rule, score = value / level, highest first."""
    out = []
    for rule in RULES:
        v = row.get(rule.column)
        if v is None or v != v:  # missing or NaN: not sampled (e.g. --target without access to the process)
            continue
        if rule.column == "metrics_missed_pct" and app_cpu_saturated(row, cores):
            continue  # a CPU-bound app misses scrapes too; that is the CPU rule's case
        if rule.column == "throttled_pct" and (not app_budget(row) or app_cpu_saturated(row, cores)):
            continue  # a quota spent is throttled in every period: the CPU rule's case too
        out.append((v / threshold(rule, cores, row), rule, float(v)))
    return sorted(out, key=lambda h: -h[0])


def saturated(row: dict, cores: int) -> list[tuple[float, Rule, float]]:
    """(score, rule, value) of every rule over its level, highest score first."""
    return [hit for hit in scores(row, cores) if hit[0] >= 1]


def ceiling(row: dict, cores: int) -> str | None:
    """The rig's ceiling a run met, "k6's ceiling" or "the machine's ceiling", where the first resource over its level
    was k6's CPU or the machine's: a knee set there is the rig's, and the model's capacity lies at or above it. None
    where the first was the app's own (its budget, GC, a pool, a queue), or none was over its level."""
    hits = saturated(row, cores)
    return (hits[0][1].ceiling or None) if hits else None


def explain(row: dict, cores: int, branches_nest: bool = False) -> str:
    """One sentence for a run, e.g. the first step where a model broke its SLO. branches_nest: the scenario's worker
    model holds a worker thread while it waits for branches that need worker threads too (Scenario.worker_branches_nest),
    which the sentence then names as the reason for a full worker-pool queue."""
    hits = saturated(row, cores)
    if not hits:
        nearest = next((h for h in scores(row, cores) if h[0] > 0), None)
        if nearest is None:
            return "no sampled resource crossed its level (latency grew without a full queue or CPU; see every step)"
        score, rule, _ = nearest
        return (f"nothing crossed its level; nearest: {rule.resource}, {int(score * 100)} % of it"
                + (cpu_users(row, cores) if rule.column == "host_cpu_pct" else ""))
    _, rule, v = hits[0]
    text = rule.sentence.format(v=v)
    if rule.level is Level.APP and app_budget(row):
        text += f" of one core, {v / app_budget(row):.0f} % of its {app_budget(row):g} CPU budget"
    if rule.column == "throttled_pct":
        text += (f", {row.get('throttled_ms_per_s') or 0:.0f} ms/s, with the app's CPU at "
                 f"{(row.get('app_cpu_pct') or 0) / app_budget(row):.0f} % of its {app_budget(row):g} CPU budget")
    if rule.column == "worker_queue_max" and branches_nest:
        text += " (aggregations wait for branches that need worker threads too)"
    if rule.column in ("host_cpu_pct", "rig_cpu_pct", "app_set_cpu_pct"):
        text += cpu_users(row, cores)
    if len(hits) > 1:
        text += "; also " + ", ".join(h[1].resource for h in hits[1:])
    return text


def brief(row: dict, cores: int) -> str:
    """explain() in a few words: the first resource over its level and its figure, or the nearest one."""
    hits = saturated(row, cores)
    if not hits:
        nearest = next((h for h in scores(row, cores) if h[0] > 0), None)
        return f"nothing over its level; nearest: {nearest[1].resource}, {int(nearest[0] * 100)} %" if nearest \
            else "nothing over its level"
    _, rule, v = hits[0]
    if rule.level is Level.APP and app_budget(row):
        return f"app CPU {v / app_budget(row):.0f} % of its budget"
    return rule.brief.format(v=v)


PROCESSES = (("app_cpu_pct", "the app"), ("db_cpu_pct", "the database"), ("k6_cpu_pct", "k6"),
             ("downstream_cpu_pct", "the downstream service"))


def cpu_users(row: dict, cores: int) -> str:
    """' (in % of one core: the database 135, k6 20, the app 18)': who used the machine, largest first, and how
    much of it went to processes the bench does not watch."""
    used = [(row[c], name) for c, name in PROCESSES if row.get(c) is not None and row[c] == row[c] and row[c] >= 1]
    if not used:
        return ""
    text = " (in % of one core: " + ", ".join(f"{name} {v:.0f}" for v, name in sorted(used, reverse=True))
    others = row.get("other_cpu_pct")  # sampled apart from the bench's own process since results.json version 3
    if others is None or others != others:
        others = row["host_cpu_pct"] * cores - sum(v for v, _ in used)
    if others >= 20:
        text += f"; other processes about {others:.0f}"
    steal = row.get("steal_cpu_pct")
    if steal is not None and steal == steal and steal >= 20:
        text += f"; the hypervisor's steal about {steal:.0f}"
    return text + ")"


def cpu_budget(row: dict, cores: int, rate: float) -> str:
    """'per request the app used 0.45 ms of CPU, k6 0.42 ms, the downstream service 0.19 ms (1.06 ms in all): 1,667
    requests/s would need 1.77 of the 2 cores (88 %)': whether a rate fits in the machine at the CPU per request the
    run measured, for the processes that share it. Empty when the run served nothing or none was sampled."""
    served = row.get("ok_rps") or 0
    used = [(row[c] * 10 / served, name) for c, name in PROCESSES
            if served > 0 and row.get(c) is not None and row[c] == row[c] and row[c] >= 1]
    if not used:
        return ""
    total = sum(ms for ms, _ in used)
    needed = total * rate / 1000
    return ("per request " + ", ".join(f"{name} used {ms:.2f} ms of CPU" if i == 0 else f"{name} {ms:.2f} ms"
                                       for i, (ms, name) in enumerate(used))
            + f" ({total:.2f} ms in all): {rate:,.0f} requests/s would need {needed:.2f} of the {cores} cores "
              f"({needed / cores:.0%})")
