"""The report: a view of the tidy results (results.csv, windows.csv, results.json). pandas groups, one jinja2
template renders the same tables as Markdown and as HTML, plotly draws the curves (plotly.js embedded once)."""
from __future__ import annotations

import os

import jinja2
import numpy as np
import pandas as pd
import plotly.offline

from benchlab.formatting import Code, Fixed, Percent, num, percent
from benchlab.model import CPU_PER_REQUEST_MIN_APP_CPU_PCT, LoadKind, RuntimeSpec, app_busy, step_label
from benchlab.report import breakdown, footprint, memory, scale_out, steady
from benchlab.report.answer import answer_table
from benchlab.report.decision import decision_table
from benchlab.report.capacity import capacity_table, flat_knees
from benchlab.report.charts import at_the_knee, capacity_chart, curves, resources_at_the_knee, warmup_curves
from benchlab.report.layout import Section, Table, anchor, model_label
from benchlab.report.soak import Soaks
from benchlab.report.views import VIEWS
from benchlab.results import cost, profile, slo, stats, table, why
from benchlab.results.environment import Environment, Facts
from benchlab.results.table import median_rows
from benchlab.scenarios import SCENARIOS, ideal_latency_s

TEMPLATE_DIR = os.path.join(os.path.dirname(__file__), "templates")


def differences_table(runs: pd.DataFrame, win: pd.DataFrame) -> Table:
    """At every step, each model against the one with the lowest mean latency, from the per-second windows."""
    rows = []
    by_tag = {tag: g["mean_ms"].to_numpy() for tag, g in win.groupby("tag")}
    # a sweep of app configurations compares the models under each one, not the configurations with each other (its
    # own table does that)
    apart = runs.scenario.map(lambda s: SCENARIOS[s].compare_within_variant)
    within = runs.variant.where(apart, "").fillna("")
    measured = runs.load_model != LoadKind.PROFILE  # a profiled run's latency carries the profiler's
    for (scenario, kind, load, variant), g in runs[measured].groupby(["scenario", "load_model", "load", within[measured]],
                                                                     sort=True):
        samples = {m: [by_tag[t] for t in gm.tag if t in by_tag] for m, gm in g.groupby("model")}
        samples = {m: s for m, s in samples.items() if s}
        if len(samples) < 2:
            continue
        means = {m: np.mean([x.mean() for x in s]) for m, s in samples.items()}
        best = min(means, key=means.get)
        label = step_label(kind, load) + (f", {variant}" if variant else "")
        for m in sorted(samples, key=means.get):
            if m == best:
                continue
            rows.append([scenario, label, m, best, means[m], means[best],
                         stats.share_text(stats.difference(samples[m], samples[best])),
                         bad_count(g[g.model == m]), bad_count(g[g.model == best])])
    return Table("Differences, with their uncertainty", ["scenario", "step", "model", "fastest", "mean ms",
                                                         "fastest mean ms", "difference (95 % CI)",
                                                         "failed + dropped", "fastest failed + dropped"], rows,
                 "Mean latency per second of each run, resampled in blocks of 5 s within each run, then the runs "
                 "drawn again (moving-block bootstrap, 2000 resamples). The difference is (model - fastest) / "
                 "fastest; where its interval covers zero there is no detectable difference. From one repetition "
                 "on a side, no interval (\"1 run\"): the seconds of one run vary less than runs do.")


def bad_count(rows: pd.DataFrame) -> str:
    """Failed requests + the iterations k6 could not start: past saturation a model drops more than it fails, and a
    latency compared without them flatters it."""
    return f"{int(rows.errors.sum())} + {int(rows.dropped.sum())}"


def ideal_share(r) -> Percent | None:
    """Closed model: successful throughput against VUs / the ideal latency, every user served at it (where known)."""
    ideal_s = ideal_latency_s(r.scenario, r.variant or "")
    if r.load_model != LoadKind.CLOSED or ideal_s is None:
        return None
    return Percent(r.ok_rps / (r.load / ideal_s))


# A closed-model step whose throughput stays within this share of the ideal is taken as at the ideal.
NEAR_IDEAL_SHARE = 0.97


def shortfalls(med: pd.DataFrame, cores: int) -> Table | None:
    """Closed-model steps with a known ideal latency where a model served less than NEAR_IDEAL_SHARE of VUs / ideal:
    by how much, the busiest sampled resource, and whether the ideal rate fits the machine at the CPU per request."""
    rows = []
    for _, r in med.iterrows():
        ideal_s = ideal_latency_s(r.scenario, r.variant or "")
        if r.load_model != LoadKind.CLOSED or ideal_s is None:
            continue
        ideal = r.load / ideal_s
        if r.ok_rps >= NEAR_IDEAL_SHARE * ideal:
            continue
        budget = why.cpu_budget(r.to_dict(), cores, ideal) if app_busy(r.get("app_cpu_pct"), r.get("app_cpus")) \
            else ""
        rows.append([r.scenario, f"{r.load:g} VUs", r.model, r.ok_rps, ideal, Percent(r.ok_rps / ideal), r.p50_ms,
                     r.p99_ms, bad_count(pd.DataFrame([r])),
                     why.explain(r.to_dict(), cores, SCENARIOS[r.scenario].worker_branches_nest), budget or "-"])
    if not rows:
        return None
    return Table("Short of the ideal", ["scenario", "load", "model", "ok req/s", "ideal req/s", "of ideal", "p50 ms",
                                        "p99 ms", "failed + dropped", "busiest resource", "CPU the ideal needs"],
                 rows, f"Closed-model steps that served less than {percent(NEAR_IDEAL_SHARE, 0)} of VUs / the ideal "
                 "latency. The last columns: the sampled resource that was busiest, and whether the ideal rate fits "
                 "the machine at the CPU per request the app, k6, the downstream and the database used.")


def runs_table(med: pd.DataFrame) -> Table:
    rows = []
    for _, r in med.iterrows():
        busy = app_busy(r.app_cpu_pct, r.get("app_cpus"))
        offered = r.requests + r.dropped
        rows.append([r.scenario, step_label(r.load_model, r.load), r.model,
                     str(int(r.repetition)), r.ok_rps, ideal_share(r), r.p50_ms, r.p99_ms,
                     f"{int(r.errors)} ({int(r.status_0)}/{int(r.status_4xx)}/{int(r.status_5xx)})",
                     f"{int(r.dropped)}", Percent((r.errors + r.dropped) / offered, 2) if offered else None,
                     *(Fixed(v, 0) for v in (r.app_cpu_pct, r.k6_cpu_pct, r.db_cpu_pct, r.downstream_cpu_pct,
                                            r.host_cpu_pct)),
                     Fixed(r.app_cpu_ms_per_req, 2) if busy else None,
                     *(Fixed(v, 0) for v in (r.worker_queue_max, r.worker_threads_max, r.jdbc_awaiting_max,
                                            r.sql_queue_max, r.downstream_waiting_max, r.metrics_missed_pct,
                                            r.pinned)),
                     Fixed(r.gc_share_pct, 1), Fixed(r.rss_peak_mb, 0), Fixed(r.threads_peak, 0)])
    return Table("Every step", ["scenario", "load", "model", "reps", "ok req/s", "of ideal", "p50 ms", "p99 ms",
                                "failed (none/4xx/5xx)", "dropped", "bad share", "app CPU %", "k6 CPU %", "DB CPU %",
                                "downstream CPU %", "machine CPU %", "app CPU ms/req", "worker queue max",
                                "worker threads max", "JDBC awaiting max", "reactive queue max",
                                "REST client waiting max", "sampler missed %", "pinned", "GC %", "RSS MB", "threads"], rows,
                 "Medians over repetitions, counts summed, queues and threads the highest sample; ok req/s over "
                 "the measured window, p50 and p99 over every request, failed ones included. CPU %: 100 = one core "
                 f"(machine: all cores); app CPU ms/req only where the app used over {CPU_PER_REQUEST_MIN_APP_CPU_PCT:.0f}"
                 " % of a core. RSS and threads are process-wide, and pinned counts JFR's every pin (- not recorded).")


def limits_table(env: Environment) -> Table:
    rows = [[k, str(v)] for k, v in env.limits.items()]
    rows.append(["process figures", "RSS and threads are process-wide: one app process serves every model"])
    return Table("Limits in force", ["limit", "value"], rows, "A limit hides queueing: a request refused at once "
                 "(503) or cut at a deadline (504) counts as failed, never as fast. A scenario's app configurations "
                 "override some of these, as its own table says.")


def settings_table(env: Environment) -> Table:
    """Every setting results.json recorded, in the order Environment declares them (its facts with setting=True); a
    mapping's entries a row each, commands as code."""
    return Table("Settings and machine", ["setting", "value"],
                 [row for name, value in env.settings() for row in setting_rows(setting_name(name), value)])


def setting_rows(name: str, value) -> list[list]:
    if isinstance(value, Facts):  # a runtime's facts, as results.json recorded them
        value = value.to_json(recorded=True)
    if isinstance(value, dict) and value:
        return [row for k, v in value.items() for row in setting_rows(f"{name}: {setting_name(k)}", v)]
    return [[name, Code(value) if "command" in name and isinstance(value, str) else setting_text(value)]]


UNIT_SUFFIXES = {"_s": " (s)", "_gib": " (GiB)", "_mb": " (MB)"}


def setting_name(key) -> str:
    """A results.json key as a label: 'warmup_s' -> 'warmup (s)', 'cpu_model' -> 'cpu model'."""
    key = str(key)
    for suffix, unit in UNIT_SUFFIXES.items():
        if key.endswith(suffix):
            return key[:-len(suffix)].replace("_", " ") + unit
    return key.replace("_", " ")


def setting_text(value) -> str:
    """A setting as a person reads it: mappings as 'key: value; ...', lists joined, numbers as the tables write
    them, nothing as '-'."""
    if isinstance(value, Facts):  # a runtime's facts, as results.json recorded them
        value = value.to_json(recorded=True)
    if value is None or value == [] or value == {}:
        return "-"
    if isinstance(value, dict):
        return "; ".join(f"{setting_name(k)}: {setting_text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(f"({setting_text(v)})" if isinstance(v, dict) else setting_text(v) for v in value)
    if isinstance(value, float):
        return num(value)
    return str(value)


def summary(env: Environment) -> str:
    """The command and its planned and actual time."""
    at_most = env.planned_seconds_at_most
    took = "(not finished)" if env.load_seconds is None else f"{env.load_seconds} s"
    wall = "(still running)" if env.wall_seconds is None else f"{env.wall_seconds} s"
    return (f"Command: {env.command_line}. Load phase: planned {env.planned_seconds} s"
            + (f" (at most {at_most} s)" if at_most and at_most != env.planned_seconds else "")
            + f", took {took}; {wall} in all with start-up.")


def sections(all_runs: pd.DataFrame, win: pd.DataFrame, env: Environment,
             profiles: list[profile.Breakdown] = ()) -> list[Section]:
    """The report in reading order: the answers (runtimes, models, memory, the soak), the scale-out, the steady cost
    and where it goes (profiles, --profile), the capacity, the steps measured again or kept in spite of a disturbance,
    the warm-ups, start-up, each article's experiment, the soak, memory, the closed-model shortfalls, then the detail,
    folded. all_runs: every measurement, also those superseded."""
    again = steady.measured_again(all_runs, env.max_interference)
    kept = steady.disturbed_but_kept(all_runs, env.max_interference)
    runs = table.final(all_runs)
    searched = runs.memory_search == True  # noqa: E712 - a memory search's steps: its own sections read them
    mem_runs, runs = runs[searched], runs[~searched].copy()
    # a scale-out's search sets its rate: one model on replicas of their own size, compared with no other model
    runs = runs[~runs.scenario.isin([s for s, scenario in SCENARIOS.items() if scenario.scale_out_cpus])].copy()
    views = {s: view for s in SCENARIOS if s in VIEWS and (view := VIEWS[s].view(runs, win, env))}
    soaks = Soaks(runs, win, env)
    gains = [g for build in (env.get("builds") or {})
             for g in cost.gains(runs, build, RuntimeSpec.recorded(build).base, env.cost_repeat)]
    # a model under a scenario's app configuration is compared as a model of its own: "worker (article-small)"
    runs["model"] = runs.apply(model_label, axis=1)
    if runs.runtime.nunique() > 1:
        # each runtime's models are compared as models of their own: "virtual (container-jvm)"
        runs["model"] = runs.model + " (" + runs.runtime + ")"
    caps = slo.capacities(runs, env.cores)  # once per report, after the labelling: every view of capacity reads these
    costs = cost.costs(runs)
    out = []
    if (decided := decision_table(runs, env, caps)) is not None:
        out.append(Section(decided.title, decided, answer=True))
    if (answer := answer_table(runs, env, caps, costs)) is not None:
        out.append(Section("The answer", answer, charts=capacity_chart(caps, env), answer=True))
    if (memory_answer := memory.answer_table(env)) is not None:
        out.append(Section(memory_answer.title, memory_answer, answer=True))
    if (soaked := soaks.answer_table()) is not None:
        out.append(Section(soaked.title, soaked, answer=True))
    out += scale_out.sections(env)  # its own answer: what a new replica meets, right after the models'
    if costs:
        out.append(Section("Steady-state CPU per request", steady.cost_table(costs),
                           steady.cost_notes(env) + steady.k6_notes(runs)))
    if (by_rate := steady.cost_by_rate_table(costs)) is not None:
        out.append(Section(by_rate.title, by_rate, steady.cost_by_rate_findings(costs),
                           steady.cost_by_rate_charts(costs)))
    if (gained := breakdown.gains_table(gains)) is not None:
        out.append(Section(gained.title, gained))
    several = runs.runtime.nunique() > 1
    if (broken_down := breakdown.breakdown_table(list(profiles), costs, several)) is not None:
        out.append(Section(broken_down.title, broken_down,
                           charts=breakdown.breakdown_charts(list(profiles), costs, several)))
    if (runs.load_model == LoadKind.OPEN).any():
        out.append(Section("Capacity at the SLO", capacity_table(runs, env, caps, costs), flat_knees(all_runs, caps),
                           charts=curves(runs, caps) + at_the_knee(runs, win, caps)
                           + resources_at_the_knee(runs, caps)))
    out += [Section(tb.title, tb) for tb in (again, kept) if tb is not None]
    if (warm := steady.warmup_table(env)) is not None:
        out.append(Section(warm.title, warm, charts=steady.warmup_charts(env)))
    start_up = footprint.footprint_table(env, runs)
    if start_up:  # start-up and footprint beside the capacity: the two headline comparisons of runtimes
        out.append(Section(start_up.title, start_up, charts=warmup_curves(env)))
    for name, (view_table, findings) in views.items():
        charts = getattr(VIEWS[name], "charts", None)
        out.append(Section(view_table.title, view_table, findings, charts(runs, win) if charts else []))
    out += soaks.sections()
    out += memory.sections(mem_runs, runs, env, caps)
    med = median_rows(runs) if not runs.empty else None
    if med is not None and (short := shortfalls(med, env.cores)) is not None:
        out.append(Section(short.title, short))
    tables = ([differences_table(runs, win)] if not win.empty else []) + (
        [runs_table(med)] if med is not None else []) + [limits_table(env), settings_table(env)]
    out += [Section(tb.title, tb, folded=True) for tb in tables]
    return out


def render(out: str) -> dict[str, str]:
    runs, win, env = table.read(out)
    runs["variant"] = runs.variant.astype(object).fillna("")  # all empty: read back as a column of NaN
    context = dict(sections=sections(runs, win, env, profile.breakdowns(table.final(runs), out)),
                   summary=summary(env), warning=None if env.complete else
                   f"WARNING: this benchmark did not complete ({'; '.join(env.failures) or 'interrupted or failed'}); "
                   f"the tables hold what was measured.")
    templates = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATE_DIR), autoescape=False,
                                   trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    templates.filters["anchor"] = anchor
    template = templates.get_template("report.j2")
    return {"md": template.render(fmt="md", **context),
            "html": template.render(fmt="html", plotlyjs=plotly.offline.get_plotlyjs(), **context)}


def write_report(out: str) -> None:
    rendered = render(out)
    for ext, text in rendered.items():
        with open(os.path.join(out, f"report.{ext}"), "w") as f:
            f.write(text)
