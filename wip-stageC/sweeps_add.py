

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
    ideal_s = SCENARIOS["gateway"].ideal_latency_s
    table_rows, sentences = [], []
    for (kind, load), at in rows.groupby(["load_model", "load"], sort=True):
        for model, g in at.groupby("model", sort=False):
            of_ideal = f"{g.ok_rps.median() / (load / ideal_s):.1%}" if kind == "closed" else "-"
            table_rows.append([_step(kind, load), model, str(g.repetition.nunique()), num(g.ok_rps.median()), of_ideal,
                               num(g.p50_ms.median()), num(g.p99_ms.median()), num(g.max_ms.max()), _failed(g),
                               num(g.threads_peak.max(), 0), num(g.rss_peak_mb.max(), 0),
                               num(g.app_cpu_ms_per_req.median(), 2), num(g.gc_share_pct.median(), 1)])
        if kind == "closed":
            med = at.groupby("model", sort=False).agg(ok=("ok_rps", "median"), threads=("threads_peak", "max"),
                                                      errors=("errors", "sum"))
            fewest, most = med.threads.idxmin(), med.threads.idxmax()
            sentences.append(
                f"gateway at {load:g} users: {', '.join(f'{m} {num(r.ok)} req/s ({int(r.errors)} failed)' for m, r in med.iterrows())}; "
                f"threads at the peak from {num(med.threads[fewest], 0)} ({fewest}) to {num(med.threads[most], 0)} ({most}).")
    note = ("The article's mix (40 % heavy, 35 % data, 25 % process) over two backend instances in a process of their "
            "own, which wait on timers and never limit the run. Latencies cover every request, failed ones included; "
            "failed: all (no answer/4xx/5xx), plus iterations k6 could not start. Of ideal: successful req/s against "
            f"users / {ideal_s * 1000:g} ms (the mix's mean backend latency). Threads: the app's OS threads at the peak; "
            "CPU ms/req: the app's CPU time per request; GC %: share of the run's time in GC pauses.")
    return Table("Gateway (article 004): every request counted, failures beside the latencies",
                 ["load", "model", "reps", "ok req/s", "of ideal", "p50 ms", "p99 ms", "max ms", "failed",
                  "threads", "RSS MB", "CPU ms/req", "GC %"], table_rows, note), sentences


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


def mixed(runs: pd.DataFrame) -> tuple[Table, list[str]] | None:
    """Article 002's I/O + CPU: each model with the rounds inline and offloaded, at each arrival rate."""
    rows = runs[runs.scenario == "mixed"]
    if rows.empty:
        return None
    table_rows, sentences = [], []
    for (kind, load, model), g in rows.groupby(["load_model", "load", "model"], sort=True):
        med = g.groupby("variant", sort=False).agg(ok=("ok_rps", "median"), p99=("p99_ms", "median"),
                                                   errors=("errors", "sum"), dropped=("dropped", "sum"),
                                                   cpu=("app_cpu_pct", "median"), per=("app_cpu_ms_per_req", "median"))
        for variant, r in med.iterrows():
            table_rows.append([_step(kind, load), model, variant, num(r.ok), num(r.p99),
                               f"{int(r.errors)} + {int(r.dropped)} dropped", num(r.cpu, 0), num(r.per, 2)])
        if {"inline", "offload"} <= set(med.index):
            a, b = med.loc["inline"], med.loc["offload"]
            better = b.p99 < a.p99 and b.ok >= 0.99 * a.ok
            sentences.append(f"mixed, {model} at {_step(kind, load)}: offloading "
                             f"{'helps' if better else 'does not help'} (p99 {num(b.p99)} ms against {num(a.p99)} ms "
                             f"inline; {num(b.ok)} against {num(a.ok)} req/s; CPU {num(b.per, 2)} against "
                             f"{num(a.per, 2)} ms per request).")
    note = ("Each request: a 100 ms downstream call, then SHA-256 rounds over 4 KB on the model's own thread "
            "(inline; for reactive, the event loop) or on the app's bounded CPU pool (offload: one thread per core). "
            "Failed + dropped beside the latencies; CPU: the app's, 100 = one core.")
    return Table("I/O mixed with CPU work (article 002): inline against offloaded to a bounded pool",
                 ["load", "model", "variant", "ok req/s", "p99 ms", "failed", "app CPU %", "CPU ms/req"],
                 table_rows, note), sentences
