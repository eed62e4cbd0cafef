"""The articles' sweeps as views of the tidy table: article 000's executor sizes (scenario "executors") and cache,
article 003's connection-pool sizes (scenario "pool-sweep"), article 004's gateway, article 002's long-held connections
(hold) and I/O mixed with CPU work (mixed). Each gives one table and sentences derived from its numbers."""
from __future__ import annotations

import pandas as pd

from benchlab.results import why
from benchlab.model import AGGREGATE_IDEAL_S, CPU_PER_REQUEST_MIN_APP_CPU_PCT, IDEAL_LATENCY_S, SLO_MAX_BAD_SHARE, app_busy
from benchlab.report.layout import Table, num

KNEE_SHARE = 0.95  # the knee: the smallest pool that reaches this share of the model's best throughput
# With every pool size this close to the best, the curve is flat: no pool size is a knee, the pool is not the limit
# (two short repetitions on a shared machine scatter by about 10 %).
FLAT_SHARE = 0.85
GROWTH_WINDOW_S = 5  # latency growth: mean of the first seconds of a run against its last seconds


def label(row) -> str:
    return f"{row['model']} ({row['variant']})" if isinstance(row.get("variant"), str) and row["variant"] else row["model"]


def latency_growth(win: pd.DataFrame, tags) -> tuple[float | None, float | None]:
    """Mean latency over the first and over the last GROWTH_WINDOW_S seconds, pooled over the runs' windows."""
    w = win[win.tag.isin(list(tags))]
    if w.empty:
        return None, None
    first = w[w.t < GROWTH_WINDOW_S]
    last = w[w.t > w.groupby("tag").t.transform("max") - GROWTH_WINDOW_S]
    return first.mean_ms.mean(), last.mean_ms.mean()


def executors(runs: pd.DataFrame, win: pd.DataFrame) -> tuple[Table, list[str]] | None:
    """Closed-model steps of the executors scenario: throughput against users / 0.6 s, latency growth, queues."""
    rows = runs[(runs.scenario == "executors") & (runs.load_model == "closed")]
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for users, at in rows.groupby("load"):
        ideal = users / AGGREGATE_IDEAL_S
        per_model = []
        for name, g in at.groupby(at.apply(label, axis=1), sort=False):
            first, last = latency_growth(win, g.tag)
            share = g.ok_rps.median() / ideal
            per_model.append((name, share, g.p99_ms.median()))
            table_rows.append([f"{users:g} VUs", name, str(g.repetition.nunique()), num(g.ok_rps.median()),
                               f"{share:.1%}", num(g.p50_ms.median()), num(g.p99_ms.median()), num(g.max_ms.max()),
                               f"{num(first)} -> {num(last)}", str(int(g.errors.sum())),
                               num(g.worker_queue_max.max(), 0), num(g.worker_threads_max.max(), 0)])
        workers = sorted((m for m in per_model if m[0].startswith("worker")), key=lambda m: -m[1])
        others = "".join(f"; {m[0]}: {m[1]:.1%}" for m in per_model if not m[0].startswith("worker"))
        if len(workers) >= 2:
            best, worst = workers[0], workers[-1]
            sentences.append(
                f"At {users:g} users the cure among the worker model's settings is {best[0]}: {best[1]:.1%} of the "
                f"ideal {ideal:g} req/s (p99 {num(best[2])} ms), against {worst[1]:.1%} for {worst[0]}{others}.")
        elif workers:
            sentences.append(f"At {users:g} users {workers[0][0]} reaches {workers[0][1]:.1%} of the ideal "
                             f"{ideal:g} req/s (p99 {num(workers[0][2])} ms){others}.")
    note = ("Closed model: each user sends its next request when the previous one is answered, like the article's "
            f"JMeter threads. Of ideal = successful req/s / (users / {AGGREGATE_IDEAL_S:g} s). Latency first -> last: "
            f"mean latency over the first and the last {GROWTH_WINDOW_S} s of the runs (growth means a queue that "
            "keeps filling). Queue max: the worker pool's or, for a dedicated executor, the branch executor's queue. "
            "The aggregation deadline is 60 s in this scenario (6 s otherwise), so that the growth is not cut.")
    return Table("Executors (article 000): the worker model's branch executor at the article's sizes",
                 ["load", "model", "reps", "ok req/s", "of ideal", "p50 ms", "p99 ms", "max ms",
                  "latency first -> last ms", "failed", "queue max", "worker threads max"], table_rows, note), sentences


def pool_size(variant) -> int | None:
    return int(variant.split("-")[1]) if isinstance(variant, str) and variant.startswith("pool-") else None


def pool_sweep(runs: pd.DataFrame, cores: int) -> tuple[Table, list[str]] | None:
    """Per model and load: throughput, p99, connection waits and database CPU at each pool size; the knee."""
    rows = runs[runs.scenario == "pool-sweep"].assign(pool=lambda d: d.variant.map(pool_size))
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for (kind, load, model), g in rows.groupby(["load_model", "load", "model"], sort=True):
        step = f"{load:g}/s" if kind == "open" else f"{load:g} VUs"
        med = g.groupby("pool").agg(ok_rps=("ok_rps", "median"), p99_ms=("p99_ms", "median"),
                                   errors=("errors", "sum"), jdbc_awaiting_max=("jdbc_awaiting_max", "max"),
                                   jdbc_blocking_ms_avg=("jdbc_blocking_ms_avg", "median"),
                                   sql_queue_max=("sql_queue_max", "max"), db_cpu_pct=("db_cpu_pct", "median"),
                                   app_cpu_pct=("app_cpu_pct", "median"), host_cpu_pct=("host_cpu_pct", "median"),
                                   k6_cpu_pct=("k6_cpu_pct", "median")).sort_index()
        best, worst = med.ok_rps.max(), med.ok_rps.min()
        flat = worst >= FLAT_SHARE * best
        knee = None if flat else next(p for p, r in med.iterrows() if r.ok_rps >= KNEE_SHARE * best)
        for pool, r in med.iterrows():
            wait = r.sql_queue_max if model == "reactive" else r.jdbc_awaiting_max
            table_rows.append([step, model, f"{pool:g}" + (" (knee)" if pool == knee else ""), num(r.ok_rps),
                               num(r.p99_ms), str(int(r.errors)), num(wait, 0),
                               "-" if model == "reactive" else num(r.jdbc_blocking_ms_avg, 1),
                               num(r.db_cpu_pct, 0), num(r.app_cpu_pct, 0)])
        smallest, largest = med.index.min(), med.index.max()
        served_all = kind == "open" and worst >= KNEE_SHARE * load
        curve = (f"no knee in throughput: every size from {smallest:g} to {largest:g} connections served the offered "
                 f"{load:g}/s ({num(worst)} to {num(best)} req/s; the pool shows in the wait and the latency)"
                 if served_all else
                 f"no knee: throughput is flat from {smallest:g} to {largest:g} connections ({num(worst)} to "
                 f"{num(best)} req/s, every size within {1 - FLAT_SHARE:.0%} of the best), so the pool is not what "
                 f"limits" if flat else
                 f"the knee is at {knee:g} connections ({num(med.ok_rps[knee])} req/s, at least {KNEE_SHARE:.0%} "
                 f"of the best {num(best)})")
        sentences.append(
            f"pool-sweep, {model} at {step}: {curve}; at {smallest:g}: {num(med.ok_rps[smallest])} req/s, "
            f"{why.explain(med.loc[smallest].to_dict(), cores)}; at {largest:g}: "
            f"{why.explain(med.loc[largest].to_dict(), cores)}.")
    note = ("Both pools (JDBC for virtual and worker, reactive for reactive) set to the size in the pool column. "
            "Wait max: the most requests waiting for a connection in a sample (Agroal's awaiting count; the "
            "reactive pool's queue). Blocking ms: Agroal's average time to get a connection. Medians over "
            f"repetitions. Knee: the smallest pool reaching {KNEE_SHARE:.0%} of the model's best throughput at that "
            f"load, none when every size is within {1 - FLAT_SHARE:.0%} of the best (a flat curve); the sentences name "
            "what limited the smallest and the largest pool.")
    return Table("Connection-pool sweep (article 003): the report endpoint, eight reads and an insert per request",
                 ["load", "model", "pool", "ok req/s", "p99 ms", "failed", "wait max", "blocking ms", "DB CPU %",
                  "app CPU %"], table_rows, note), sentences


def cached_share(local_pct, remote_pct) -> float | None:
    """Requests answered from either tier: local hits, plus the local misses that Redis answered."""
    if local_pct is None or pd.isna(local_pct):
        return None
    remote = 0.0 if remote_pct is None or pd.isna(remote_pct) else remote_pct
    return local_pct + (100 - local_pct) * remote / 100


def cache(runs: pd.DataFrame, limits: dict) -> tuple[Table, list[str]] | None:
    """Per load and model: each cache configuration against the uncached aggregation measured in the same run."""
    rows = runs[runs.scenario == "cache"]
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for (kind, load, model), g in rows.groupby(["load_model", "load", "model"], sort=True):
        step = f"{load:g}/s" if kind == "open" else f"{load:g} VUs"
        med = g.groupby("variant", sort=False).agg(
            reps=("repetition", "nunique"), ok_rps=("ok_rps", "median"), p50_ms=("p50_ms", "median"),
            p99_ms=("p99_ms", "median"), errors=("errors", "sum"), dropped=("dropped", "sum"),
                                                   requests=("requests", "sum"),
            local=("local_hit_pct", "median"), remote=("remote_hit_pct", "median"),
            cpu=("app_cpu_ms_per_req", "median"))
        base = med.ok_rps.get("uncached")
        for variant, r in med.iterrows():
            cached = None if variant == "uncached" else cached_share(r.local, r.remote)
            table_rows.append([step, model, variant, str(int(r.reps)), num(r.ok_rps),
                               "1.00" if variant == "uncached" else (f"{r.ok_rps / base:.2f}" if base else "-"),
                               num(r.p50_ms), num(r.p99_ms), f"{int(r.errors)} / {int(r.dropped)}",
                               "-" if variant == "uncached" else num(r.local, 1),
                               "-" if variant == "uncached" else num(r.remote, 1),
                               "-" if cached is None else num(cached, 1), num(r.cpu, 2)])
        cached_rows = med.drop(index="uncached", errors="ignore")
        if base and not cached_rows.empty:
            best = cached_rows.ok_rps.idxmax()
            r = cached_rows.loc[best]
            sentences.append(
                f"cache, {model} at {step}: {best} answers {num(r.ok_rps)} req/s, {r.ok_rps / base:.1f}x the uncached "
                f"{num(base)} req/s, with {num(cached_share(r.local, r.remote), 1)} % of requests answered from a "
                f"cache tier (p99 {num(r.p99_ms)} ms against {num(med.p99_ms['uncached'])} ms).")
    lifetimes = [f"{v} in {k.split(': lifetime in ')[1].split(' (')[0]}" for k, v in limits.items()
                 if ": lifetime in " in k]
    ttl = " and ".join(lifetimes) or "the tiers' lifetimes"
    note = ("Ids follow a Zipf distribution over the seeded users (k6/lib/zipf.js, exponent 1.1), as real traffic "
            "repeats popular ids. The models share the cache: the block's warm-ups fill it, and a model measured later "
            "in a block finds it warmer (repetitions alternate the order; short runs show it most). "
            "local-N: Caffeine holding N aggregates, no remote tier; +redis: Redis behind it. Local hits: lookups "
            "the local tier answered; Redis hits: local misses Redis answered; from cache: both. x uncached: "
            "throughput against the uncached aggregation of the same model at the same load. Failed / dropped: "
            "failed requests and iterations k6 could not start. Staleness: an answer changed at its source stays "
            f"cached until DELETE /cache/aggregate/{{id}} (Redis and, by pub/sub, every replica's local tier), at "
            f"most {ttl}.")
    return Table("Cached aggregation (article 000's last step): hit ratio, throughput and latency against uncached",
                 ["load", "model", "cache", "reps", "ok req/s", "x uncached", "p50 ms", "p99 ms", "failed / dropped",
                  "local hits %", "Redis hits %", "from cache %", "app CPU ms/req"], table_rows, note), sentences


def _step(kind, load) -> str:
    return f"{load:g}/s" if kind == "open" else f"{load:g} VUs"


def _failed(g) -> str:
    return (f"{int(g.errors.sum())} ({int(g.status_0.sum())}/{int(g.status_4xx.sum())}/{int(g.status_5xx.sum())})"
            f" + {int(g.dropped.sum())} dropped")


def gateway(runs: pd.DataFrame) -> tuple[Table, list[str]] | None:
    """Article 004's table, redone: per step and model, latency over all requests with the failures beside it, and
    what the gateway cost the app (threads, memory, CPU and GC per request)."""
    rows = runs[runs.scenario == "gateway"]
    if rows.empty:
        return None
    ideal_s = IDEAL_LATENCY_S["gateway.js"]
    table_rows, sentences = [], []
    for (kind, load), at in rows.groupby(["load_model", "load"], sort=True):
        for model, g in at.groupby("model", sort=False):
            of_ideal = f"{g.ok_rps.median() / (load / ideal_s):.1%}" if kind == "closed" else "-"
            table_rows.append([_step(kind, load), model, str(g.repetition.nunique()), num(g.ok_rps.median()), of_ideal,
                               num(g.p50_ms.median()), num(g.p99_ms.median()), num(g.max_ms.max()), _failed(g),
                               num(g.threads_peak.max(), 0), num(g.rss_peak_mb.max(), 0),
                               num(g.app_cpu_ms_per_req.median(), 2)
                               if app_busy(g.app_cpu_pct.median()) else "-",
                               num(g.alloc_mb_per_s.median(), 0),
                               num(1024 * (g.alloc_mb_per_s / g.ok_rps).median(), 0), num(g.gc_share_pct.median(), 1)])
        if kind == "closed":
            med = at.groupby("model", sort=False).agg(ok=("ok_rps", "median"), threads=("threads_peak", "max"),
                                                      errors=("errors", "sum"))
            fewest, most = med.threads.idxmin(), med.threads.idxmax()
            served = ", ".join(f"{m} {num(r.ok)} req/s ({int(r.errors)} failed)" for m, r in med.iterrows())
            threads = (f"{num(med.threads[fewest], 0)} threads at the peak in every model"
                       if med.threads[fewest] == med.threads[most] else
                       f"threads at the peak from {num(med.threads[fewest], 0)} ({fewest}) to "
                       f"{num(med.threads[most], 0)} ({most})")
            sentences.append(f"gateway at {load:g} users: {served}; {threads}.")
    note = ("The article's mix (40 % heavy, 35 % data, 25 % process) over two backend instances in a process of their "
            "own, which wait on timers and never limit the run. Latencies cover every request, failed ones included; "
            "failed: all (no answer/4xx/5xx), plus iterations k6 could not start. Of ideal: successful req/s against "
            f"users / {ideal_s * 1000:g} ms (the mix's mean backend latency). Threads: the app's OS threads at the peak; "
            "CPU ms/req: the app's CPU time per request, where it averaged "
            f">= {CPU_PER_REQUEST_MIN_APP_CPU_PCT:.0f} % CPU; alloc: the app's allocation rate (the JVM's "
            "allocated-bytes counter, which advances at each collection) and per successful request; GC %: share of "
            "the run's time in GC pauses.")
    return Table("Gateway (article 004): every request counted, failures beside the latencies",
                 ["load", "model", "reps", "ok req/s", "of ideal", "p50 ms", "p99 ms", "max ms", "failed",
                  "threads", "RSS MB", "CPU ms/req", "alloc MB/s", "alloc KB/req", "GC %"], table_rows, note), sentences


def hold(runs: pd.DataFrame) -> tuple[Table, list[str]] | None:
    """Article 002's long-held connections: how many were held at once, and what each cost the app."""
    rows = runs[(runs.scenario == "hold") & (runs.load_model == "closed")]
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for (variant, load), at in rows.groupby(["variant", "load"], sort=True):
        hold_s = hold_seconds(variant)
        for model, g in at.groupby("model", sort=False):
            held = g.ok_rps.median() * hold_s  # Little's law: answers per second x the time each was held
            rss, threads = g.rss_peak_mb.max(), g.threads_peak.max()
            table_rows.append([f"{load:g}", variant, model, num(held, 0), _failed(g), num(g.p99_ms.median()),
                               num(rss, 0), num(1024 * rss / held, 1) if held else "-", num(threads, 0),
                               num(1000 * threads / held, 1) if held else "-"])
            if g.errors.sum() > 0:
                first = "no answer (timeouts, refused or reset connections)" if g.status_0.sum() else "error answers"
                sentences.append(f"hold, {model} at {load:g} connections ({variant}): {int(g.errors.sum())} requests "
                                 f"failed, first as {first}; {num(held, 0)} held at once.")
    note = ("Closed model: each VU keeps one request held for the hold time, so the VUs are the connections "
            "offered. Held: connections held at once, from Little's law (successful answers per second x hold "
            "time). RSS and threads: the app's peak; per held connection: peak over held, which includes the app's "
            "idle footprint (so it falls as the count grows). Failed: all (no answer/4xx/5xx) + dropped.")
    return Table("Long-held connections (article 002): connections held, memory and threads per connection",
                 ["connections", "hold", "model", "held", "failed", "p99 ms", "RSS MB", "RSS KB/held", "threads",
                  "threads per 1,000 held"], table_rows, note), sentences


def hold_seconds(variant: str) -> float:
    """The hold variant's name is its hold time: "10s", "1s"."""
    return float(variant.rstrip("s"))


# A p99 or a throughput has to move by more than this to count: single short runs on a shared machine scatter so.
MIXED_MARGIN = 0.10


def overloaded(r) -> bool:
    """Failed plus dropped beyond the SLO's share of the requests offered: the step is past saturation."""
    offered = (r.requests or 0) + (r.dropped or 0)
    return offered > 0 and (r.errors + r.dropped) > SLO_MAX_BAD_SHARE * offered


def offload_verdict(inline, offload) -> str:
    """helps: a lower p99 by more than the margin at no lower throughput; hurts: a higher p99 or a lower throughput
    by more than the margin; else no clear difference. Past saturation on both sides the p99 is the queue's length
    when the run stopped, so there only the throughput counts."""
    if overloaded(inline) and overloaded(offload):
        if offload.ok > (1 + MIXED_MARGIN) * inline.ok:
            return "serves more (both past saturation)"
        if offload.ok < (1 - MIXED_MARGIN) * inline.ok:
            return "serves less (both past saturation)"
        return f"makes no clear difference (both past saturation: throughput within {MIXED_MARGIN:.0%})"
    if offload.ok < (1 - MIXED_MARGIN) * inline.ok or offload.p99 > (1 + MIXED_MARGIN) * inline.p99:
        return "hurts"
    if offload.p99 < (1 - MIXED_MARGIN) * inline.p99 and offload.ok >= 0.99 * inline.ok:
        return "helps"
    return f"makes no clear difference (within {MIXED_MARGIN:.0%})"


def mixed(runs: pd.DataFrame) -> tuple[Table, list[str]] | None:
    """Article 002's I/O + CPU: each model with the rounds inline and offloaded, at each arrival rate."""
    rows = runs[runs.scenario == "mixed"]
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for (kind, load, model), g in rows.groupby(["load_model", "load", "model"], sort=True):
        med = g.groupby("variant", sort=False).agg(ok=("ok_rps", "median"), p99=("p99_ms", "median"),
                                                   errors=("errors", "sum"), dropped=("dropped", "sum"),
                                                   requests=("requests", "sum"),
                                                   cpu=("app_cpu_pct", "median"), per=("app_cpu_ms_per_req", "median"))
        for variant, r in med.iterrows():
            table_rows.append([_step(kind, load), model, variant, num(r.ok), num(r.p99),
                               f"{int(r.errors)} + {int(r.dropped)} dropped", num(r.cpu, 0), num(r.per, 2)])
        if {"inline", "offload"} <= set(med.index):
            a, b = med.loc["inline"], med.loc["offload"]
            sentences.append(f"mixed, {model} at {_step(kind, load)}: offloading {offload_verdict(a, b)} (p99 {num(b.p99)} ms against {num(a.p99)} ms "
                             f"inline; {num(b.ok)} against {num(a.ok)} req/s; CPU {num(b.per, 2)} against "
                             f"{num(a.per, 2)} ms per request).")
    note = ("Each request: a 100 ms downstream call, then SHA-256 rounds over 4 KB on the model's own thread "
            "(inline; for reactive, the event loop) or on the app's bounded CPU pool (offload: one thread per core). "
            "Failed + dropped beside the latencies; CPU: the app's, 100 = one core.")
    return Table("I/O mixed with CPU work (article 002): inline against offloaded to a bounded pool",
                 ["load", "model", "variant", "ok req/s", "p99 ms", "failed", "app CPU %", "CPU ms/req"],
                 table_rows, note), sentences
