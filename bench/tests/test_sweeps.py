import dataclasses
from types import SimpleNamespace

import pandas as pd

from benchlab.model import RunRow
from benchlab.report.views import cache, executors, gateway, hold, mixed, pool_sweep
from conftest import environment


def rows(*specs):
    """specs: dicts of the fields that matter; every other field of a run row is None."""
    base = {f.name: None for f in dataclasses.fields(RunRow)}
    defaults = dict(runtime="jvm", repetition=1, errors=0, status_0=0, status_4xx=0, status_5xx=0, dropped=0)
    return pd.DataFrame([{**base, **defaults, **s} for s in specs])


def test_pool_sweep_knee_is_the_smallest_pool_near_the_best_throughput():
    runs = rows(*[dict(tag=f"t{n}", scenario="pool-sweep", model="virtual", variant=f"pool-{n}", load_model="closed",
                       load=50, ok_rps=rps, p99_ms=p99, jdbc_awaiting_max=wait, db_cpu_pct=db, app_cpu_pct=40)
                  for n, rps, p99, wait, db in [(4, 100, 900, 46, 30), (8, 190, 400, 40, 60),
                                                (16, 230, 250, 20, 150), (32, 236, 240, 0, 185)]])
    table, sentences = pool_sweep.view(runs, pd.DataFrame(), environment(cores=2))
    knee_rows = [r for r in table.text_rows if r[2].endswith("(knee)")]
    assert [r[2] for r in knee_rows] == ["16 (knee)"]  # 230 >= 95 % of 236; 190 is not
    assert sentences == ["pool-sweep, virtual at 50 VUs: the knee is at 16 connections, 97% of the best throughput."]
    limits = {r[2]: r[-1] for r in table.text_rows}
    assert limits["4"] == "JDBC pool: 46 waiting" and limits["32"] == "database CPU 185 %"


def test_executors_names_the_cure_with_its_share_of_the_ideal():
    runs = rows(
        dict(tag="a", scenario="executors", model="worker", variant="article-small", load_model="closed", load=150,
             ok_rps=6.6, p99_ms=22000, max_ms=23000, worker_queue_max=480),
        dict(tag="b", scenario="executors", model="worker", variant="article-100-300", load_model="closed",
             load=150, ok_rps=245, p99_ms=640, max_ms=700, worker_queue_max=0),
        dict(tag="c", scenario="executors", model="virtual", variant="", load_model="closed", load=150,
             ok_rps=248, p99_ms=615, max_ms=650, worker_queue_max=0))
    win = pd.DataFrame({"tag": ["a"] * 10, "t": range(10), "mean_ms": [600 * (i + 1) for i in range(10)],
                        "requests": 1, "ok": 1, "p99_ms": 1.0})
    table, sentences = executors.view(runs, win, environment())
    small = next(r for r in table.text_rows if r[1] == "worker (article-small)")
    assert small[4] == "2.6%" and small[8] == "1800 -> 4800"  # 6.6 / 250; first 5 s against the last 5 s
    assert sentences == ["At 150 users the cure among the worker model's settings is worker (article-100-300): "
                         "98.0% of the ideal, against 2.6% for worker (article-small)."]


def test_cache_compares_each_configuration_with_the_uncached_run_of_the_same_model():
    runs = rows(
        dict(tag="u", scenario="cache", model="virtual", variant="uncached", load_model="closed", load=150,
             ok_rps=245, p50_ms=610, p99_ms=700, dropped=0, app_cpu_ms_per_req=0.8),
        dict(tag="l", scenario="cache", model="virtual", variant="local-1000", load_model="closed", load=150,
             ok_rps=980, p50_ms=2, p99_ms=640, dropped=0, local_hit_pct=75.0, app_cpu_ms_per_req=0.3),
        dict(tag="r", scenario="cache", model="virtual", variant="local-1000+redis", load_model="closed", load=150,
             ok_rps=2450, p50_ms=1, p99_ms=600, dropped=0, local_hit_pct=75.0, remote_hit_pct=80.0,
             app_cpu_ms_per_req=0.2))
    limits = {'cached aggregation: lifetime in the local tier (quarkus.cache.caffeine."aggregate".expire-after-write)':
              "60s", "cached aggregation: lifetime in Redis (lab.cache.remote.ttl)": "10m"}
    table, sentences = cache.view(runs, pd.DataFrame(), environment(limits=limits))
    by_cache = {r[2]: r for r in table.text_rows}
    assert by_cache["uncached"][5] == "1.00" and by_cache["uncached"][11] == "-"
    assert by_cache["local-1000"][5] == "4.00" and by_cache["local-1000"][11] == "75.0"
    assert by_cache["local-1000+redis"][11] == "95.0"  # 75 % locally, then 80 % of the other 25 % from Redis
    assert sentences == ["cache, virtual at 150 VUs: local-1000+redis serves the most, 10.0x the uncached throughput."]
    assert "at most 60s in the local tier and 10m in Redis" in table.note


def test_pool_sweep_with_a_flat_curve_names_no_knee():
    # Article 003's setting on this machine: the database is the limit at every pool size, throughput only scatters.
    runs = rows(*[dict(tag=f"t{n}", scenario="pool-sweep", model="worker", variant=f"pool-{n}", load_model="closed",
                       load=50, ok_rps=rps, p99_ms=3000, jdbc_awaiting_max=wait, db_cpu_pct=148, app_cpu_pct=12)
                  for n, rps, wait in [(4, 25.3, 46), (8, 24.5, 42), (16, 24.1, 34), (32, 24.0, 18), (64, 22.3, 0)]])
    table, sentences = pool_sweep.view(runs, pd.DataFrame(), environment(cores=2))
    assert not [r for r in table.text_rows if r[2].endswith("(knee)")]
    assert sentences == ["pool-sweep, worker at 50 VUs: no knee: throughput is flat from 4 to 64 connections, so the "
                         "pool is not what limits."]
    assert table.text_rows[0][-1] == "JDBC pool: 46 waiting"
    assert table.text_rows[-1][-1] == "nothing over its level; nearest: DB CPU, 82 %"  # no wait at 64


def test_pool_sweep_at_a_fixed_rate_that_every_size_serves_points_at_the_wait():
    runs = rows(*[dict(tag=f"t{n}", scenario="pool-sweep", model="virtual", variant=f"pool-{n}", load_model="open",
                       load=15, ok_rps=rps, p99_ms=p99, jdbc_awaiting_max=wait, jdbc_blocking_ms_avg=blocking,
                       db_cpu_pct=120, app_cpu_pct=18)
                  for n, rps, p99, wait, blocking in [(4, 15.0, 805, 8, 471.1), (16, 15.0, 227, 0, 6.8)]])
    table, sentences = pool_sweep.view(runs, pd.DataFrame(), environment(cores=2))
    assert sentences[0].startswith("pool-sweep, virtual at 15/s: no knee in throughput: every size from 4 to 16 "
                                   "connections served the offered 15/s")
    assert [r[7] for r in table.text_rows] == ["471.1", "6.8"]  # Agroal's blocking time, per pool size


def test_gateway_puts_failures_and_threads_beside_the_latencies():
    runs = rows(dict(tag="v", scenario="gateway", model="virtual", variant="", load_model="closed", load=16,
                     ok_rps=360.0, p50_ms=40, p99_ms=180, max_ms=320, threads_peak=60, rss_peak_mb=300,
                     app_cpu_pct=54, app_cpu_ms_per_req=1.5, alloc_mb_per_s=180.0, gc_share_pct=0.4),
                dict(tag="w", scenario="gateway", model="worker", variant="", load_model="closed", load=16,
                     ok_rps=350.0, p50_ms=42, p99_ms=190, max_ms=330, errors=3, status_0=3, threads_peak=120,
                     rss_peak_mb=320, app_cpu_pct=30, app_cpu_ms_per_req=1.6, gc_share_pct=0.5))
    table, sentences = gateway.view(runs, pd.DataFrame(), environment())
    worker = next(r for r in table.text_rows if r[1] == "worker")
    assert worker[4] == "87.5%"  # 350 / (16 / 0.04)
    assert worker[8] == "3 (3/0/0) + 0 dropped" and worker[9] == "120"
    virtual = next(r for r in table.text_rows if r[1] == "virtual")
    assert virtual[12] == "180" and virtual[13] == "512"  # 180 MB/s over 360 req/s
    assert virtual[11] == "1.50" and worker[11] == "-"  # below half a core, background work would dominate
    assert sentences == []  # the table says it all


def test_hold_counts_connections_held_by_littles_law_and_their_cost():
    runs = rows(dict(tag="r", scenario="hold", model="reactive", variant="10s", load_model="closed", load=1000,
                     ok_rps=100.0, p99_ms=10_050, rss_peak_mb=400, threads_peak=50),
                dict(tag="w", scenario="hold", model="worker", variant="10s", load_model="closed", load=1000,
                     ok_rps=20.0, p99_ms=30_000, rss_peak_mb=350, threads_peak=230, errors=700, status_0=700))
    table, sentences = hold.view(runs, pd.DataFrame(), environment())
    reactive = next(r for r in table.text_rows if r[2] == "reactive")
    assert reactive[3] == "1000" and reactive[7] == "409.6" and reactive[9] == "50.0"
    assert sentences == ["hold, worker at 1000 connections (10s): its requests failed first as no answer (timeouts, "
                         "refused or reset connections)."]
    worker = next(r for r in table.text_rows if r[2] == "worker")
    assert worker[3] == "200" and worker[4] == "700 (700/0/0) + 0 dropped"


def test_mixed_says_whether_offloading_helps_each_model():
    common = dict(scenario="mixed", model="reactive", load_model="open", load=200)
    runs = rows(dict(common, tag="i", variant="inline", ok_rps=150.0, p99_ms=2400, app_cpu_pct=190,
                     app_cpu_ms_per_req=9.0),
                dict(common, tag="o", variant="offload", ok_rps=199.0, p99_ms=180, app_cpu_pct=170,
                     app_cpu_ms_per_req=8.1))
    table, sentences = mixed.view(runs, pd.DataFrame(), environment())
    assert [r[2] for r in table.text_rows] == ["inline", "offload"] and sentences == []
    assert [r[-1] for r in table.text_rows] == ["-", "helps"]


def step(ok, p99, requests=2000, errors=0, dropped=0):
    return SimpleNamespace(ok=ok, p99=p99, requests=requests, errors=errors, dropped=dropped)


def test_mixed_calls_a_small_difference_no_clear_difference():
    inline = step(100.0, 127.0)
    assert mixed.offload_verdict(inline, step(100.0, 123.0)) == "no clear difference"
    assert mixed.offload_verdict(inline, step(100.0, 100.0)) == "helps"
    assert mixed.offload_verdict(inline, step(85.0, 100.0)) == "hurts"


def test_mixed_past_saturation_compares_throughput_not_the_queue_length():
    # measured: reactive at 400/s, both variants dropping about 30 % of the iterations offered
    inline, offload = step(249.0, 5963.0, 5600, 0, 2407), step(237.0, 3965.0, 5400, 0, 2536)
    assert mixed.offload_verdict(inline, offload) == "no clear difference, past saturation"
    assert mixed.offload_verdict(inline, step(300.0, 9000.0, 6000, 0, 2000)) == "serves more, past saturation"
    # one side within the SLO: the usual latency verdict
    assert mixed.offload_verdict(inline, step(250.0, 130.0, 8000)) == "helps"
