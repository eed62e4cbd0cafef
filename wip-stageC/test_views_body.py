

def test_gateway_puts_failures_and_threads_beside_the_latencies():
    runs = rows(dict(tag="v", scenario="gateway", model="virtual", variant="", load_model="closed", load=16,
                     ok_rps=360.0, p50_ms=40, p99_ms=180, max_ms=320, threads_peak=60, rss_peak_mb=300,
                     app_cpu_ms_per_req=1.5, gc_share_pct=0.4),
                dict(tag="w", scenario="gateway", model="worker", variant="", load_model="closed", load=16,
                     ok_rps=350.0, p50_ms=42, p99_ms=190, max_ms=330, errors=3, status_0=3, threads_peak=120,
                     rss_peak_mb=320, app_cpu_ms_per_req=1.6, gc_share_pct=0.5))
    table, sentences = sweeps.gateway(runs)
    worker = next(r for r in table.rows if r[1] == "worker")
    assert worker[4] == "87.5%"  # 350 / (16 / 0.04)
    assert worker[8] == "3 (3/0/0) + 0 dropped" and worker[9] == "120"
    assert sentences == ["gateway at 16 users: virtual 360 req/s (0 failed), worker 350 req/s (3 failed); "
                         "threads at the peak from 60 (virtual) to 120 (worker)."]


def test_hold_counts_connections_held_by_littles_law_and_their_cost():
    runs = rows(dict(tag="r", scenario="hold", model="reactive", variant="10s", load_model="closed", load=1000,
                     ok_rps=100.0, p99_ms=10_050, rss_peak_mb=400, threads_peak=50),
                dict(tag="w", scenario="hold", model="worker", variant="10s", load_model="closed", load=1000,
                     ok_rps=20.0, p99_ms=30_000, rss_peak_mb=350, threads_peak=230, errors=700, status_0=700))
    table, sentences = sweeps.hold(runs)
    reactive = next(r for r in table.rows if r[2] == "reactive")
    assert reactive[3] == "1000" and reactive[7] == "409.6" and reactive[9] == "50.0"
    assert sentences == ["hold, worker at 1000 connections (10s): 700 requests failed, first as no answer "
                         "(timeouts, refused or reset connections); 200 held at once."]


def test_mixed_says_whether_offloading_helps_each_model():
    common = dict(scenario="mixed", model="reactive", load_model="open", load=200)
    runs = rows(dict(common, tag="i", variant="inline", ok_rps=150.0, p99_ms=2400, app_cpu_pct=190,
                     app_cpu_ms_per_req=9.0),
                dict(common, tag="o", variant="offload", ok_rps=199.0, p99_ms=180, app_cpu_pct=170,
                     app_cpu_ms_per_req=8.1))
    table, sentences = sweeps.mixed(runs)
    assert [r[2] for r in table.rows] == ["inline", "offload"]
    assert sentences == ["mixed, reactive at 200/s: offloading helps (p99 180 ms against 2400 ms inline; 199 against "
                         "150 req/s; CPU 8.10 against 9.00 ms per request)."]
