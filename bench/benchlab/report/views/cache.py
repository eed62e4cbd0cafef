"""The cache's section: per load and model, each cache configuration against the uncached aggregation measured in
the same run."""
from __future__ import annotations

import pandas as pd

from benchlab.formatting import Fixed
from benchlab.report.layout import Table
from benchlab.results.environment import Environment
from benchlab.results.table import variant_medians
from benchlab.scenarios.cache import NAME

def cached_share(local_pct, remote_pct) -> float | None:
    """Requests answered from either tier: local hits, plus the local misses that Redis answered."""
    if local_pct is None or pd.isna(local_pct):
        return None
    remote = 0.0 if remote_pct is None or pd.isna(remote_pct) else remote_pct
    return local_pct + (100 - local_pct) * remote / 100


def view(runs: pd.DataFrame, win: pd.DataFrame, env: Environment) -> tuple[Table, list[str]] | None:
    """Per load and model: each cache configuration against the uncached aggregation measured in the same run."""
    steps = variant_medians(
        runs, NAME, reps=("repetition", "nunique"), ok_rps=("ok_rps", "median"), p50_ms=("p50_ms", "median"),
        p99_ms=("p99_ms", "median"), errors=("errors", "sum"), dropped=("dropped", "sum"),
        local=("local_hit_pct", "median"), remote=("remote_hit_pct", "median"), cpu=("app_cpu_ms_per_req", "median"))
    if not steps:
        return None
    table_rows, sentences = [], []
    for step, model, med in steps:
        base = med.ok_rps.get("uncached")
        for variant, r in med.iterrows():
            cached = None if variant == "uncached" else cached_share(r.local, r.remote)
            table_rows.append([step, model, variant, str(int(r.reps)), r.ok_rps,
                               "1.00" if variant == "uncached" else (f"{r.ok_rps / base:.2f}" if base else "-"),
                               r.p50_ms, r.p99_ms, f"{int(r.errors)} / {int(r.dropped)}",
                               "-" if variant == "uncached" else Fixed(r.local, 1),
                               "-" if variant == "uncached" else Fixed(r.remote, 1),
                               "-" if cached is None else Fixed(cached, 1), Fixed(r.cpu, 2)])
        cached_rows = med.drop(index="uncached", errors="ignore")
        if base and not cached_rows.empty:
            best = cached_rows.ok_rps.idxmax()
            r = cached_rows.loc[best]
            sentences.append(f"cache, {model} at {step}: {best} serves the most, {r.ok_rps / base:.1f}x the uncached "
                             "throughput.")
    lifetimes = [f"{v} in {k.split(': lifetime in ')[1].split(' (')[0]}" for k, v in env.limits.items()
                 if ": lifetime in " in k]
    ttl = " and ".join(lifetimes) or "the tiers' lifetimes"
    note = ("Ids follow a Zipf distribution (exponent 1.1); the models share the cache, so a model measured later in "
            "a block finds it warmer. Local hits: lookups the local tier answered; Redis hits: local misses Redis "
            "answered; x uncached: against the same model's uncached run. A changed answer stays cached until DELETE "
            f"/cache/aggregate/{{id}}, at most {ttl}.")
    return Table("Cached aggregation (article 000's last step): hit ratio, throughput and latency against uncached",
                 ["load", "model", "cache", "reps", "ok req/s", "x uncached", "p50 ms", "p99 ms", "failed / dropped",
                  "local hits %", "Redis hits %", "from cache %", "app CPU ms/req"], table_rows, note), sentences
