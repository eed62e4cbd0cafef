"""report.md, report.html (plotly, offline) and the summary tables, from results.json + environment.json."""
import html
import json
import os
import statistics
from collections import defaultdict

import plotly
import plotly.graph_objects as go
from plotly.subplots import make_subplots

MODEL_COLORS = {"virtual": "#1f77b4", "worker": "#d62728", "reactive": "#2ca02c"}
AGGREGATE_IDEAL_S = 0.6
# A model is only a latency winner if its error rate is no worse than the best model's + this margin.
ERROR_TOLERANCE = 0.001
# Differences below this are not called a win (identical runs here differ by much more than that).
TIE_MARGIN = 0.05
# If even the best model failed or dropped more than this share, latency percentiles are not comparable.
SATURATED = 0.01


def load(out):
    with open(os.path.join(out, "results.json")) as f:
        results = json.load(f)
    env = {}
    p = os.path.join(out, "environment.json")
    if os.path.isfile(p):
        with open(p) as f:
            env = json.load(f)
    warm = []
    p = os.path.join(out, "warmup.json")
    if os.path.isfile(p):
        with open(p) as f:
            warm = json.load(f)
    return results, env, warm


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return min(values), statistics.median(values), max(values)


def load_key(rec):
    return (0 if rec["load_model"] == "open" else 1, rec["load"])


def group(results):
    """(runtime, scenario) -> load key -> model -> list of records (repetitions)."""
    g = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    labels = {}
    for r in results:
        g[(r["runtime"], r["scenario"])][load_key(r)][r["model"]].append(r)
        labels[load_key(r)] = r["load_label"]
    return g, labels


def summarize(recs):
    """Median over repetitions of every figure, plus the spread of the main ones; totals for error counts."""
    s = {k: med([r.get(k) for r in recs]) for k in (
        "rps", "ok_rps", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "max_ms", "error_rate", "cpu_ms_per_request",
        "rss_peak_mb", "threads_peak", "cpu_pct_avg", "jdbc_awaiting_max", "worker_queue_max", "sql_queue_max",
        "cgroup_mem_peak_mb")}
    for k in ("errors", "timeouts", "dropped_iterations", "checks_failed", "requests"):
        s[k] = sum(r.get(k) or 0 for r in recs)
    s["thresholds_failed"] = sum(1 for r in recs if r.get("threshold_failed"))
    s["reps"] = len(recs)
    s["spread"] = {k: spread([r.get(k) for r in recs]) for k in ("rps", "p50_ms", "p99_ms", "error_rate")}
    return s


def pct(v):
    if v is None:
        return "-"
    return "0 %" if v == 0 else f"{100 * v:.2f} %" if v < 0.1 else f"{100 * v:.1f} %"


def ms(v):
    if v is None:
        return "-"
    return f"{v:.1f}" if v < 10 else f"{v:.0f}"


def num(v, d=0):
    return "-" if v is None else f"{v:,.{d}f}"


def overlaps(a, b):
    return a is not None and b is not None and not (a[2] < b[0] or b[2] < a[0])


def winners(by_model):
    """Best model by p99 (among those without extra errors) and by successful throughput, with margins."""
    sums = {m: summarize(recs) for m, recs in by_model.items()}
    out = {"sums": sums, "notes": []}
    # Failed share for ranking: failed requests plus iterations k6 could not even start (dropped).
    rates = {m: (s["errors"] + s["dropped_iterations"]) / max(1, s["requests"] + s["dropped_iterations"])
             for m, s in sums.items()}
    best_err = min(rates.values())
    eligible = [m for m in sums if rates[m] <= best_err + ERROR_TOLERANCE and sums[m]["p99_ms"] is not None]
    excluded = [m for m in sums if m not in eligible]
    for m in excluded:
        out["notes"].append(f"{m} not ranked on latency: {pct(rates[m])} failed or dropped vs {pct(best_err)}")
    if len(set(round(r, 4) for r in rates.values())) > 1 and not excluded:
        out["notes"].append("failed/dropped shares differ: " + ", ".join(f"{m} {pct(r)}" for m, r in rates.items()))
    for m, recs in by_model.items():
        stuck = sum(1 for r in recs if r.get("left_app_unresponsive"))
        if stuck:
            out["notes"].append(f"{m} left the app unresponsive after {stuck} run(s): it was restarted and re-warmed")
    ranked = sorted(eligible, key=lambda m: sums[m]["p99_ms"])
    if best_err > SATURATED:
        out["notes"].insert(0, f"saturated: every model failed or dropped ≥ {pct(best_err)} of its requests — "
                               f"no latency winner, compare throughput")
        ranked = []
    if ranked:
        best = ranked[0]
        lat = {"model": best, "p99_ms": sums[best]["p99_ms"]}
        if len(ranked) > 1:
            nxt = ranked[1]
            lat["next"] = nxt
            lat["margin"] = sums[nxt]["p99_ms"] / sums[best]["p99_ms"] - 1 if sums[best]["p99_ms"] else None
            lat["tie"] = (lat["margin"] is not None and lat["margin"] < TIE_MARGIN) or (
                sums[best]["reps"] > 1 and overlaps(sums[best]["spread"]["p99_ms"], sums[nxt]["spread"]["p99_ms"]))
        out["latency"] = lat
    tp = sorted(sums, key=lambda m: -(sums[m]["ok_rps"] or 0))
    if tp:
        best = tp[0]
        thr = {"model": best, "ok_rps": sums[best]["ok_rps"]}
        if len(tp) > 1:
            nxt = tp[1]
            thr["next"] = nxt
            thr["margin"] = (sums[best]["ok_rps"] / sums[nxt]["ok_rps"] - 1) if sums[nxt]["ok_rps"] else None
            thr["tie"] = (thr["margin"] is not None and thr["margin"] < TIE_MARGIN) or (
                sums[best]["reps"] > 1 and overlaps(sums[best]["spread"]["rps"], sums[nxt]["spread"]["rps"]))
        out["throughput"] = thr
    return out


def verdict(w, key, unit):
    d = w.get(key)
    if not d:
        return "-"
    if "next" not in d:
        return f"**{d['model']}** (the only one without extra failures)"
    margin = d.get("margin")
    m = "" if margin is None else f"{100 * margin:.0f} %"
    if d.get("tie"):
        return f"≈ tie: {d['model']} / {d['next']} ({m} apart)"
    return f"**{d['model']}**, {m} {unit} {d['next']}"


def ideal_throughput(scenario, kind, load, env):
    if scenario == "aggregate":
        return load if kind == "open" else load / AGGREGATE_IDEAL_S
    ps = (env.get("point_select") or {}).get("qps")
    if kind == "open":
        return min(load, ps) if ps else load
    return ps


def physical_note(scenario, env):
    if scenario == "aggregate":
        return ("Physical limit: each request needs ≥ 600 ms (100 ms, then 300 ms ‖ 500 ms downstream). Open model: "
                "the offered rate is reachable only if latency stays ≈ 600 ms; closed model: VUs / 0.6 s.")
    ps = env.get("point_select") or {}
    if ps.get("qps"):
        return (f"Physical limit: the database's own point-select rate, measured in this run with "
                f"{ps['threads']} JDBC connections for {ps['seconds']:.0f} s while the app was idle: "
                f"**{ps['qps']:,.0f} queries/s** (client and database on the same cores, so an upper bound "
                f"that ignores HTTP and JWT work).")
    return "Physical limit: the database's point-select rate was not measured."


# --- runtimes (only when more than one ran) -----------------------------------------------------------------------

def runtimes_in(results):
    seen = []
    for r in results:
        if r.get("runtime") not in seen:
            seen.append(r.get("runtime"))
    return seen


def runtime_rows(results, env):
    """One row per runtime: start-up, idle and peak memory (peaks over all its measured runs)."""
    info = env.get("runtime_info") or {}
    rows = []
    for rt in runtimes_in(results):
        recs = [r for r in results if r.get("runtime") == rt]
        i = info.get(rt, {})
        lim = i.get("limits") or {}
        limits = ", ".join(f"{k} {v}" for k, v in lim.items() if v) or "none"
        jvm = " · ".join(str(x) for x in (i.get("jvm_gc"), f"max heap {i['jvm_max_heap_mb']} MB"
                                          if i.get("jvm_max_heap_mb") else None) if x) or ""
        rows.append(dict(
            runtime=rt, limits=limits, jvm=jvm, first_request_s=i.get("first_request_s"),
            quarkus_started_s=i.get("quarkus_started_s"), idle_rss_mb=i.get("idle_rss_mb"),
            idle_cgroup_mem_mb=i.get("idle_cgroup_mem_mb"),
            rss_peak_mb=max((r["rss_peak_mb"] for r in recs if r.get("rss_peak_mb") is not None), default=None),
            cgroup_mem_peak_mb=max((r["cgroup_mem_peak_mb"] for r in recs if r.get("cgroup_mem_peak_mb") is not None),
                                   default=None),
            image_build_s=i.get("image_build_s"), image=i.get("image")))
    return rows


def runtime_matrix(results):
    """scenario -> load key -> [(runtime, model, summary)], runtimes in run order, models in the usual order."""
    rts = runtimes_in(results)
    g, labels = group(results)
    out = defaultdict(lambda: defaultdict(list))
    for sc in dict.fromkeys(r["scenario"] for r in results):
        for rt in rts:
            by_load = g.get((rt, sc), {})
            for lk in by_load:
                for m in model_order(by_load[lk]):
                    out[sc][lk].append((rt, m, summarize(by_load[lk][m])))
    return out, labels


def ratio(v, ref):
    if v is None or not ref:
        return "-"
    return f"{v / ref:.2f}×"


RUNTIME_NOTES = [
    "Each runtime had its own app process or container, started, smoke-tested, warmed up and measured one after "
    "the other: runtimes are **not** interleaved (models are, within each runtime), so a runtime may have had a "
    "better or worse minute of the shared machine. Database, downstream service and k6 stay the same processes.",
    "Time to first request: from the start command (`java …` / `podman run`, container creation included) to the "
    "first 200 on a real endpoint (`/<model>/users/me` with a token, else the aggregate), polled every 50 ms. The "
    "users are seeded by the downstream service before any app starts, so no runtime's start includes seeding.",
    "Idle: 2 s after the smoke test (one request per endpoint and model), before the warm-up. Peak: the highest 2 s "
    "sample during the measured runs. RSS = the app's main process (for a container, the JVM seen from the host); "
    "container memory = its cgroup's usage minus inactive file cache (the working set `podman stats` shows).",
    "CPU ms per request: the process's utime+stime for jvm/native, the container cgroup's CPU time for containers.",
    "`--cpus`/`--memory` apply to the container runtimes only; the jvm and native processes run unlimited on the "
    "whole machine. The JVM sizes itself from its limits (GC choice, heap, thread pools): see the JVM column.",
]


# --- markdown ---------------------------------------------------------------------------------------------------

def write_markdown(out, results, env, warm, groups, labels):
    L = []
    L.append("# Quarkus Concurrency Lab: virtual vs worker vs reactive\n")
    if not env.get("complete", True):
        L.append("> **Incomplete run** — interrupted or failed; figures cover only the runs listed.\n")
    L.append(f"`{env.get('command_line', 'bench/run')}` — {env.get('started', '')}, preset {env.get('preset')}, "
             f"warm-up {num(env.get('warmup_s_per_scenario_model'))} s per scenario × model, "
             f"{num(env.get('duration_s'))} s per run, {env.get('repeat')} repetition(s) interleaved.\n")
    L.append("## Who wins where\n")
    L.append("Median over repetitions. Latency winner: lowest p99 among the models whose share of failed requests "
             "and dropped iterations is not higher than the best one's (+0.1 pt); throughput: successful requests/s. “≈ tie” when the margin is "
             "inside the min–max spread across repetitions or below 5 %. With one repetition there is no spread: treat single-run margins below ~30 % as noise.\n")
    L.append("| runtime | scenario | load | best p99 | best throughput | errors / timeouts / dropped: virtual · worker · reactive | warnings |")
    L.append("|---|---|---|---|---|---|---|")
    for (rt, sc), by_load in groups.items():
        for lk in sorted(by_load):
            w = winners(by_load[lk])
            errs = " · ".join(f"{w['sums'][m]['errors']} / {w['sums'][m]['timeouts']} / "
                              f"{w['sums'][m]['dropped_iterations']}" if m in w["sums"] else "-"
                              for m in ("virtual", "worker", "reactive"))
            L.append(f"| {rt} | {sc} | {labels[lk]} | {verdict(w, 'latency', 'lower than')} | "
                     f"{verdict(w, 'throughput', 'more than')} | {errs} | {'; '.join(w['notes']) or ''} |")
    L.append("")
    for (rt, sc), by_load in groups.items():
        L.append(f"## {sc} ({rt})\n")
        L.append(physical_note(sc, env) + "\n")
        L.append("Latency in ms over **all** requests (failed ones included, so errors cannot make a model look "
                 "faster); errors, timeouts and dropped iterations stand beside every row.\n")
        L.append("| load | model | req/s (min–max) | ideal req/s | p50 | p90 | p99 (min–max) | max | errors | error rate | "
                 "timeouts | dropped | checks failed | CPU ms/req | RSS MB | threads |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for lk in sorted(by_load):
            for m, recs in sorted(by_load[lk].items(), key=lambda kv: list(MODEL_COLORS).index(kv[0])):
                s = summarize(recs)
                r0 = recs[0]
                ideal = ideal_throughput(sc, r0["load_model"], r0["load"], env)
                sp_r, sp_p = s["spread"]["rps"], s["spread"]["p99_ms"]
                L.append(f"| {labels[lk]} | {m} | {num(s['rps'], 1)} ({num(sp_r[0], 1)}–{num(sp_r[2], 1)}) | "
                         f"{num(ideal, 0)} | {ms(s['p50_ms'])} | {ms(s['p90_ms'])} | {ms(s['p99_ms'])} "
                         f"({ms(sp_p[0] if sp_p else None)}–{ms(sp_p[2] if sp_p else None)}) | {ms(s['max_ms'])} | "
                         f"{s['errors']} | {pct(s['error_rate'])} | {s['timeouts']} | {s['dropped_iterations']} | "
                         f"{s['checks_failed']} | {num(s['cpu_ms_per_request'], 2)} | {num(s['rss_peak_mb'])} | "
                         f"{num(s['threads_peak'])} |")
        L.append("")
    if len(runtimes_in(results)) > 1:
        L += runtimes_markdown(results, env)
    L.append("## Environment\n")
    for k in ("cpu_model", "cores", "memory_gib", "load_average_at_start", "os", "jdk", "gc", "quarkus", "k6",
              "git_commit", "database", "jdbc_pool_max", "reactive_pool_max", "rest_client_pool", "users", "jwt",
              "warmup_s_per_scenario_model", "duration_s", "repeat", "timeout_s", "loads", "runtime_commands",
              "runtime_info", "container_limits",
              "point_select", "wall_seconds", "command_line"):
        if k in env:
            L.append(f"- **{k}**: `{json.dumps(env[k]) if isinstance(env[k], (dict, list)) else env[k]}`")
    if env.get("failures"):
        L.append("\n### Problems during the run\n")
        L += [f"- {f}" for f in env["failures"]]
    L.append("\n## Caveats\n")
    L.append("- Load generator, app, downstream service and database share the same cores: absolute numbers move "
             "from run to run (±30 % seen here). Compare models within one run; look at the min–max spread.")
    L.append("- Open-model runs (rate/s) show queueing as latency and dropped iterations; closed-model runs "
             "(VUs) slow down with the server and hide queueing (coordinated omission) — read them as "
             "throughput-at-concurrency.")
    if warm:
        L.append(f"- Warm-up: {len(warm)} k6 runs of {num(env.get('warmup_s_per_scenario_model'))} s "
                 f"(every model on every scenario) before the first measurement; see warmup.json.")
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(L) + "\n")


def runtimes_markdown(results, env):
    L = ["## Runtimes\n"]
    L += [f"- {n}" for n in RUNTIME_NOTES]
    L.append("")
    L.append("| runtime | limits | JVM (ergonomics) | first request s | Quarkus started in s | idle RSS MB | "
             "idle container MB | peak RSS MB | peak container MB | image build s |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in runtime_rows(results, env):
        L.append(f"| {r['runtime']} | {r['limits']} | {r['jvm'] or '-'} | {num(r['first_request_s'], 2)} | "
                 f"{num(r['quarkus_started_s'], 2)} | {num(r['idle_rss_mb'])} | {num(r['idle_cgroup_mem_mb'])} | "
                 f"{num(r['rss_peak_mb'])} | {num(r['cgroup_mem_peak_mb'])} | {num(r['image_build_s'], 1)} |")
    L.append("")
    matrix, labels = runtime_matrix(results)
    first_rt = runtimes_in(results)[0]
    for sc, by_load in matrix.items():
        for lk in sorted(by_load):
            L.append(f"### {sc}, {labels[lk]}: runtime × model\n")
            ref = {m: s for rt, m, s in by_load[lk] if rt == first_rt}
            L.append(f"| runtime | model | req/s | ok req/s | p50 | p99 | p99 vs {first_rt} | errors | error rate | "
                     f"timeouts | dropped | CPU ms/req | CPU ms/req vs {first_rt} | peak RSS MB | peak container MB |")
            L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
            for rt, m, s in by_load[lk]:
                r0 = ref.get(m) or {}
                L.append(f"| {rt} | {m} | {num(s['rps'], 1)} | {num(s['ok_rps'], 1)} | {ms(s['p50_ms'])} | "
                         f"{ms(s['p99_ms'])} | {ratio(s['p99_ms'], r0.get('p99_ms')) if rt != first_rt else ''} | "
                         f"{s['errors']} | {pct(s['error_rate'])} | {s['timeouts']} | {s['dropped_iterations']} | "
                         f"{num(s['cpu_ms_per_request'], 2)} | "
                         f"{ratio(s['cpu_ms_per_request'], r0.get('cpu_ms_per_request')) if rt != first_rt else ''} | "
                         f"{num(s['rss_peak_mb'])} | {num(s['cgroup_mem_peak_mb'])} |")
            L.append("")
    return L


# --- html ---------------------------------------------------------------------------------------------------------

def model_order(models):
    return sorted(models, key=lambda m: list(MODEL_COLORS).index(m) if m in MODEL_COLORS else 99)


def fig_html(fig, first):
    return plotly.io.to_html(fig, full_html=False, include_plotlyjs=bool(first), config={"displaylogo": False})


def charts_for(rt, sc, by_load, labels, env):
    keys = sorted(by_load)
    xs = [labels[k] for k in keys]
    models = model_order({m for k in keys for m in by_load[k]})
    figs = []

    # 1. throughput vs load, one panel per load model, with the physical limit
    kinds = [k for k in ("open", "closed") if any(key[0] == (0 if k == "open" else 1) for key in keys)]
    titles = {"open": "open model: offered rate (req/s)", "closed": "closed model: VUs"}
    f = make_subplots(rows=1, cols=len(kinds), subplot_titles=[titles[k] for k in kinds])
    for ci, kind in enumerate(kinds, start=1):
        kkeys = [k for k in keys if k[0] == (0 if kind == "open" else 1)]
        kx = [labels[k] for k in kkeys]
        for m in models:
            ys, lo, hi, txt = [], [], [], []
            for k in kkeys:
                s = summarize(by_load[k][m]) if m in by_load[k] else None
                ok = 1 - ((s["error_rate"] or 0) if s else 0)
                sp = s["spread"]["rps"] if s else None
                ys.append(s["ok_rps"] if s else None)
                lo.append(max(0, s["ok_rps"] - sp[0] * ok) if s and sp else 0)
                hi.append(max(0, sp[2] * ok - s["ok_rps"]) if s and sp else 0)
                txt.append(f"errors {s['errors']} ({pct(s['error_rate'])}), timeouts {s['timeouts']}, dropped "
                           f"{s['dropped_iterations']}" if s else "")
            f.add_trace(go.Scatter(x=kx, y=ys, name=m, mode="lines+markers", line=dict(color=MODEL_COLORS.get(m)),
                                   error_y=dict(type="data", symmetric=False, array=hi, arrayminus=lo),
                                   hovertext=txt, legendgroup=m, showlegend=ci == 1,
                                   hovertemplate="%{x}: %{y:.1f} ok req/s<br>%{hovertext}<extra>" + m + "</extra>"),
                        row=1, col=ci)
        ideal = []
        for k in kkeys:
            r0 = next(iter(by_load[k].values()))[0]
            ideal.append(ideal_throughput(sc, r0["load_model"], r0["load"], env))
        if any(v is not None for v in ideal):
            if sc == "aggregate":
                name = "physical limit: offered rate at 600 ms" if kind == "open" else "physical limit: VUs / 0.6 s"
            else:
                name = "limit: offered rate (≤ DB point-select rate)" if kind == "open" else "limit: DB point-select rate"
            f.add_trace(go.Scatter(x=kx, y=ideal, name=name, mode="lines+markers",
                                   line=dict(color="black", dash="dash"), marker=dict(symbol="x", size=10)),
                        row=1, col=ci)
    f.update_layout(title=f"{sc} ({rt}): successful throughput (req/s) vs load — median, bars = min–max; "
                          f"dashed = physical limit", height=420, margin=dict(t=80, b=40))
    f.update_yaxes(rangemode="tozero")
    figs.append(f)

    # 2. percentiles per load, errors written on every bar
    stats = [("p50_ms", "p50"), ("p90_ms", "p90"), ("p99_ms", "p99"), ("max_ms", "max")]
    f = make_subplots(rows=1, cols=4, subplot_titles=[t for _, t in stats], shared_yaxes=False)
    for ci, (key, title) in enumerate(stats, start=1):
        for m in models:
            ys, txt, hover = [], [], []
            for k in keys:
                s = summarize(by_load[k][m]) if m in by_load[k] else None
                ys.append(s[key] if s else None)
                txt.append(f"e{s['errors']}" + (f" t{s['timeouts']}" if s and s["timeouts"] else "")
                           + (f" d{s['dropped_iterations']}" if s and s["dropped_iterations"] else "") if s else "")
                hover.append(f"errors {s['errors']} ({pct(s['error_rate'])}), timeouts {s['timeouts']}, "
                             f"dropped {s['dropped_iterations']}" if s else "")
            f.add_trace(go.Bar(x=xs, y=ys, name=m, marker_color=MODEL_COLORS.get(m), text=txt,
                               textposition="outside", textfont=dict(size=9), hovertext=hover,
                               hovertemplate="%{x}: %{y:.1f} ms<br>%{hovertext}<extra>" + m + " " + title + "</extra>",
                               showlegend=ci == 1, legendgroup=m), row=1, col=ci)
        f.update_yaxes(type="log", row=1, col=ci)
    if sc == "aggregate":
        for ci in range(1, 5):
            f.add_hline(y=600, line_dash="dash", line_color="black", row=1, col=ci)
    f.update_layout(barmode="group", height=440, margin=dict(t=80, b=40),
                    title=f"{sc} ({rt}): latency percentiles in ms, log scale (all requests; label: e = errors, "
                          f"t = timeouts, d = dropped iterations)" + (" — dashed: 600 ms ideal" if sc == "aggregate" else ""))
    figs.append(f)

    # 3. resources
    res = [("cpu_ms_per_request", "app CPU ms per request"), ("rss_peak_mb", "RSS peak, MB"),
           ("threads_peak", "threads peak (OS)"), ("cpu_pct_avg", "app CPU %, average")]
    f = make_subplots(rows=1, cols=4, subplot_titles=[t for _, t in res])
    for ci, (key, title) in enumerate(res, start=1):
        for m in models:
            ys = [summarize(by_load[k][m])[key] if m in by_load[k] else None for k in keys]
            f.add_trace(go.Bar(x=xs, y=ys, name=m, marker_color=MODEL_COLORS.get(m), showlegend=ci == 1,
                               legendgroup=m), row=1, col=ci)
    f.update_layout(barmode="group", height=380, title=f"{sc} ({rt}): resources of the app process",
                    margin=dict(t=80, b=40))
    figs.append(f)
    return figs


def sum_table_html(groups, labels):
    rows = []
    for (rt, sc), by_load in groups.items():
        for lk in sorted(by_load):
            w = winners(by_load[lk])
            cells = []
            if not w.get("latency"):
                w["latency"] = None
            for key, unit in (("latency", "lower p99 than"), ("throughput", "more ok req/s than")):
                d = w.get(key)
                if not d:
                    cells.append("-")
                    continue
                model = html.escape(d["model"])
                color = MODEL_COLORS.get(d["model"], "#333")
                if "next" not in d:
                    cells.append(f"<b style='color:{color}'>{model}</b> <small>(the only one without extra "
                                 f"failures)</small>")
                elif d.get("tie"):
                    cells.append(f"≈ tie <b style='color:{color}'>{model}</b> / {html.escape(d['next'])} "
                                 f"<small>({100 * (d.get('margin') or 0):.0f} % apart)</small>")
                else:
                    cells.append(f"<b style='color:{color}'>{model}</b> <small>{100 * (d.get('margin') or 0):.0f} % "
                                 f"{unit} {html.escape(d['next'])}</small>")
            s = w["sums"]
            err = "<br>".join(
                f"<span style='color:{MODEL_COLORS.get(m)}'>{m}</span>: p99 {ms(s[m]['p99_ms'])} ms, "
                f"{num(s[m]['ok_rps'], 0)} ok/s, <b>{s[m]['errors']}</b> err ({pct(s[m]['error_rate'])}), "
                f"{s[m]['timeouts']} t/o, {s[m]['dropped_iterations']} dropped"
                for m in model_order(s))
            warn = "<br>".join("⚠ " + html.escape(n) for n in w["notes"])
            rows.append(f"<tr><td>{rt}</td><td>{sc}</td><td>{html.escape(labels[lk])}</td><td>{cells[0]}</td>"
                        f"<td>{cells[1]}</td><td class='small'>{err}</td><td class='warn'>{warn}</td></tr>")
    return ("<table><tr><th>runtime</th><th>scenario</th><th>load</th><th>best p99</th><th>best throughput</th>"
            "<th>every model (median): p99, ok req/s, errors, timeouts, dropped</th><th>warnings</th></tr>"
            + "".join(rows) + "</table>")


def detail_table_html(sc, by_load, labels, env):
    head = ("<tr><th>load</th><th>model</th><th>req/s<br><small>min–max</small></th><th>ideal</th><th>p50</th>"
            "<th>p90</th><th>p99<br><small>min–max</small></th><th>max</th><th>errors</th><th>error rate</th>"
            "<th>timeouts</th><th>dropped</th><th>checks failed</th><th>CPU ms/req</th><th>RSS MB</th>"
            "<th>threads</th><th>JDBC waiting max</th><th>worker queue max</th></tr>")
    rows = []
    for lk in sorted(by_load):
        for m in model_order(by_load[lk]):
            s = summarize(by_load[lk][m])
            r0 = by_load[lk][m][0]
            ideal = ideal_throughput(sc, r0["load_model"], r0["load"], env)
            sp_r, sp_p = s["spread"]["rps"], s["spread"]["p99_ms"]
            bad = " class='bad'" if s["errors"] or s["dropped_iterations"] or s["checks_failed"] else ""
            rows.append(
                f"<tr{bad}><td>{html.escape(labels[lk])}</td><td style='color:{MODEL_COLORS.get(m)}'><b>{m}</b></td>"
                f"<td>{num(s['rps'], 1)}<br><small>{num(sp_r[0], 1)}–{num(sp_r[2], 1)}</small></td><td>{num(ideal)}</td>"
                f"<td>{ms(s['p50_ms'])}</td><td>{ms(s['p90_ms'])}</td>"
                f"<td>{ms(s['p99_ms'])}<br><small>{ms(sp_p[0] if sp_p else None)}–{ms(sp_p[2] if sp_p else None)}</small></td>"
                f"<td>{ms(s['max_ms'])}</td><td><b>{s['errors']}</b></td><td>{pct(s['error_rate'])}</td>"
                f"<td>{s['timeouts']}</td><td>{s['dropped_iterations']}</td><td>{s['checks_failed']}</td>"
                f"<td>{num(s['cpu_ms_per_request'], 2)}</td><td>{num(s['rss_peak_mb'])}</td>"
                f"<td>{num(s['threads_peak'])}</td><td>{num(s['jdbc_awaiting_max'])}</td>"
                f"<td>{num(s['worker_queue_max'])}</td></tr>")
    return "<table>" + head + "".join(rows) + "</table>"


RUNTIME_COLORS = ["#444444", "#ff7f0e", "#9467bd", "#8c564b"]


def runtimes_html(results, env, first):
    rts = runtimes_in(results)
    parts = ["<h2>Runtimes</h2><ul class='meta'>"]
    parts += [f"<li>{md_inline(n).replace('`', '')}</li>" for n in RUNTIME_NOTES]
    parts.append("</ul><table><tr><th>runtime</th><th>limits</th><th>JVM (ergonomics)</th><th>first request s</th>"
                 "<th>Quarkus started in s</th><th>idle RSS MB</th><th>idle container MB</th><th>peak RSS MB</th>"
                 "<th>peak container MB</th><th>image build s</th></tr>")
    for r in runtime_rows(results, env):
        parts.append(f"<tr><td><b>{html.escape(r['runtime'])}</b></td><td>{html.escape(r['limits'])}</td>"
                     f"<td class='small'>{html.escape(r['jvm'] or '-')}</td><td><b>{num(r['first_request_s'], 2)}</b></td>"
                     f"<td>{num(r['quarkus_started_s'], 2)}</td><td>{num(r['idle_rss_mb'])}</td>"
                     f"<td>{num(r['idle_cgroup_mem_mb'])}</td><td>{num(r['rss_peak_mb'])}</td>"
                     f"<td>{num(r['cgroup_mem_peak_mb'])}</td><td>{num(r['image_build_s'], 1)}</td></tr>")
    parts.append("</table>")
    matrix, labels = runtime_matrix(results)
    first_rt = rts[0]
    for sc, by_load in matrix.items():
        # one chart per scenario: ok req/s and p99 per load × model, one bar colour per runtime
        f = make_subplots(rows=1, cols=3, subplot_titles=["successful req/s", "p99 latency, ms (log)",
                                                          "app CPU ms per request"])
        for ri, rt in enumerate(rts):
            xs, ok, p99, cpu = [], [], [], []
            for lk in sorted(by_load):
                for rrt, m, s in by_load[lk]:
                    if rrt == rt:
                        xs.append(f"{labels[lk]} · {m}")
                        ok.append(s["ok_rps"])
                        p99.append(s["p99_ms"])
                        cpu.append(s["cpu_ms_per_request"])
            color = RUNTIME_COLORS[ri % len(RUNTIME_COLORS)]
            for ci, ys in enumerate((ok, p99, cpu), start=1):
                f.add_trace(go.Bar(x=xs, y=ys, name=rt, marker_color=color, legendgroup=rt, showlegend=ci == 1),
                            row=1, col=ci)
        f.update_yaxes(type="log", row=1, col=2)
        f.update_layout(barmode="group", height=420, margin=dict(t=80, b=40),
                        title=f"{sc}: runtimes side by side (median over repetitions)")
        parts.append(f"<h3>{html.escape(sc)}</h3>")
        parts.append(fig_html(f, first))
        first = False
        for lk in sorted(by_load):
            ref = {m: s for rt, m, s in by_load[lk] if rt == first_rt}
            parts.append(f"<p><b>{html.escape(sc)}, {html.escape(labels[lk])}</b></p><table><tr><th>runtime</th>"
                         f"<th>model</th><th>req/s</th><th>ok req/s</th><th>p50</th><th>p99</th>"
                         f"<th>p99 vs {html.escape(first_rt)}</th><th>errors</th><th>error rate</th><th>timeouts</th>"
                         f"<th>dropped</th><th>CPU ms/req</th><th>CPU vs {html.escape(first_rt)}</th>"
                         f"<th>peak RSS MB</th><th>peak container MB</th></tr>")
            for rt, m, s in by_load[lk]:
                r0 = ref.get(m) or {}
                bad = " class='bad'" if s["errors"] or s["dropped_iterations"] or s["checks_failed"] else ""
                parts.append(
                    f"<tr{bad}><td>{html.escape(rt)}</td><td style='color:{MODEL_COLORS.get(m)}'><b>{m}</b></td>"
                    f"<td>{num(s['rps'], 1)}</td><td>{num(s['ok_rps'], 1)}</td><td>{ms(s['p50_ms'])}</td>"
                    f"<td>{ms(s['p99_ms'])}</td><td>{ratio(s['p99_ms'], r0.get('p99_ms')) if rt != first_rt else ''}</td>"
                    f"<td><b>{s['errors']}</b></td><td>{pct(s['error_rate'])}</td><td>{s['timeouts']}</td>"
                    f"<td>{s['dropped_iterations']}</td><td>{num(s['cpu_ms_per_request'], 2)}</td>"
                    f"<td>{ratio(s['cpu_ms_per_request'], r0.get('cpu_ms_per_request')) if rt != first_rt else ''}</td>"
                    f"<td>{num(s['rss_peak_mb'])}</td><td>{num(s['cgroup_mem_peak_mb'])}</td></tr>")
            parts.append("</table>")
    return "\n".join(parts)


def md_inline(text):
    return html.escape(text).replace("**", "")


CSS = """body{font-family:system-ui,sans-serif;margin:16px 24px;color:#222;max-width:1400px}
table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;
text-align:right;vertical-align:top}th{background:#f0f0f0}td:nth-child(-n+2){text-align:left}
.small{font-size:12px;text-align:left}.warn{color:#b35900;text-align:left;font-size:12px}tr.bad td{background:#fff4f0}
h1{font-size:22px;margin-bottom:4px}h2{margin-top:28px;border-bottom:1px solid #ddd}.meta{color:#555;font-size:13px}
.banner{background:#ffe9e0;border:1px solid #f0a080;padding:6px 10px;margin:6px 0}"""


def write_html(out, results, env, warm, groups, labels):
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Concurrency Lab benchmark</title>"
             f"<style>{CSS}</style></head><body>"]
    parts.append("<h1>Quarkus Concurrency Lab: virtual vs worker vs reactive</h1>")
    parts.append(f"<div class='meta'>{html.escape(env.get('started', ''))} · preset {html.escape(str(env.get('preset')))}"
                 f" · {env.get('cores')} cores ({html.escape(str(env.get('cpu_model')))}) · {html.escape(str(env.get('jdk')))}"
                 f" · Quarkus {html.escape(str(env.get('quarkus')))} · warm-up {num(env.get('warmup_s_per_scenario_model'))} s "
                 f"per scenario × model · {num(env.get('duration_s'))} s per run × {env.get('repeat')} repetition(s), "
                 f"interleaved · <code>{html.escape(env.get('command_line', ''))}</code></div>")
    if not env.get("complete", True):
        parts.append("<div class='banner'><b>Incomplete run</b>: interrupted or failed; only the runs below exist.</div>")
    if env.get("failures"):
        parts.append("<div class='banner'><b>Problems:</b> " + "; ".join(html.escape(f) for f in env["failures"][:20])
                     + "</div>")
    parts.append("<h2>Who wins where</h2>")
    parts.append("<p class='meta'>Medians over repetitions. A model is ranked on latency only if its share of failed requests and dropped "
                 "iterations is not higher than the best model's (+0.1 pt) — errors never buy a latency win. Throughput = successful "
                 "requests/s in the load window. “≈ tie” = margin below 5 % or inside the min–max spread of the repetitions (with one repetition there is no spread: margins below ~30 % may be noise).</p>")
    parts.append(sum_table_html(groups, labels))
    first = True
    for (rt, sc), by_load in groups.items():
        parts.append(f"<h2>{html.escape(sc)} ({html.escape(rt)})</h2><p class='meta'>{md_inline(physical_note(sc, env))}"
                     f" Latencies include failed requests (no survivor bias).</p>")
        for fig in charts_for(rt, sc, by_load, labels, env):
            parts.append(fig_html(fig, first))
            first = False
        parts.append(detail_table_html(sc, by_load, labels, env))
    if len(runtimes_in(results)) > 1:
        parts.append(runtimes_html(results, env, first))
        first = False
    parts.append("<h2>Environment</h2><table>")
    for k, v in env.items():
        if k in ("failures",):
            continue
        parts.append(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td class='small'>"
                     f"{html.escape(json.dumps(v) if isinstance(v, (dict, list)) else str(v))}</td></tr>")
    parts.append("</table><p class='meta'>Raw data: results.json (one record per run), samples/*.csv (2 s samples of "
                 "the app), k6/*.json (k6 summaries), warmup.json, logs/. Shared 2-core machine: compare within one "
                 "run, not across runs.</p></body></html>")
    with open(os.path.join(out, "report.html"), "w") as f:
        f.write("\n".join(parts))


def write_report(out):
    results, env, warm = load(out)
    groups, labels = group(results)
    write_markdown(out, results, env, warm, groups, labels)
    write_html(out, results, env, warm, groups, labels)
