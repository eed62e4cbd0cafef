import pandas as pd
import pytest

from benchlab.results import windows

HEADER = ("metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,"
          "scenario,service,status,subproto,tls_version,url,extra_tags,metadata\n")


def row(metric, t, value, ok, status, tags="model=virtual"):
    return f"{metric},{t},{value},,,,{str(ok).lower()},,GET,n,HTTP/1.1,s,,{status},,,u,{tags},\n"


def test_only_measured_request_durations_are_kept(tmp_path):
    text = HEADER + row("http_req_duration", 100_000, 5.0, True, 200) + row("http_reqs", 100_000, 1, True, 200) \
        + row("http_req_duration", 100_500, 1.0, True, 200, tags="") \
        + row("http_req_duration", 101_000, 7.0, False, 503) + row("http_req_duration", 102_000, 9.0, False, 0)
    path = tmp_path / "k6.csv"
    path.write_text(text)
    req = windows.read_k6_csv(str(path)).requests
    assert list(req.ms) == [5.0, 7.0, 9.0]
    s = windows.summary(req)
    # 3 requests ending over 2 s are 2 intervals of 1 s: a 3 s window, 1 ok request in it
    assert s["window_s"] == 3 and s["ok_rps"] == 1 / 3
    assert list(req.t) == [100, 101, 102]
    assert (s["requests"], s["errors"], s["status_0"], s["status_5xx"]) == (3, 2, 1, 1)


def closed_loop(vus, cycle_ms, seconds, offset_ms=0.0):
    """Every VU answered every cycle_ms from its own start (spread over offset_ms), as long as it started in time."""
    rows = [(v, start + (k + 1) * cycle_ms) for v in range(1, vus + 1) for start in [v * offset_ms / vus]
            for k in range(int((seconds * 1000 - start) // cycle_ms) + 1)]
    t_ms = [round(t) for _, t in rows]
    return pd.DataFrame({"t_ms": t_ms, "t": [t // 1000 for t in t_ms], "ms": float(cycle_ms), "ok": True,
                         "status": 200, "vu": [v for v, _ in rows]})


@pytest.mark.parametrize("offset_ms", [0, 50, 600])  # VUs in step, nearly so, spread over a whole cycle
def test_a_closed_model_reads_its_vus_over_the_cycle_whatever_their_phases(offset_ms):
    req = closed_loop(vus=150, cycle_ms=600, seconds=15, offset_ms=offset_ms)
    assert windows.summary(req, closed=True)["ok_rps"] == pytest.approx(150 / 0.6, rel=1e-9)


def test_vus_in_step_over_count_when_taken_as_one_stream():
    req = closed_loop(vus=150, cycle_ms=600, seconds=15)
    assert windows.summary(req)["ok_rps"] > 1.03 * 150 / 0.6  # the bias the per-VU rate removes


def test_a_starved_closed_run_uses_the_elapsed_time():
    req = pd.DataFrame({"t_ms": [10_000, 10_000], "t": [10, 10], "ms": [10_000.0, 10_000.0], "ok": [False, False],
                        "status": [0, 0], "vu": [1, 2]})
    assert windows.summary(req, closed=True)["window_s"] == 10


def test_vu_numbers_come_from_the_metadata_column(tmp_path):
    path = tmp_path / "k6.csv"
    path.write_text(HEADER + row("http_req_duration", 100_000, 5.0, True, 200).replace(",\n", ",vu=7\n")
                    + row("http_req_duration", 100_600, 5.0, True, 200).replace(",\n", ",vu=12\n"))
    assert list(windows.read_k6_csv(str(path)).requests.vu) == [7, 12]


def test_the_measured_part_starts_after_the_settling_seconds(tmp_path):
    """Recorded shape: a step whose first second stalled (new connections, the JIT compiling what accepts them)."""
    k6_row = lambda t, ms: row("http_req_duration", t, ms, True, 200)  # noqa: E731
    text = HEADER + k6_row(100_150, 150.0) + k6_row(100_900, 120.0) + k6_row(101_990, 4.0) \
        + row("dropped_iterations", 100_500, 1, True, "") + k6_row(102_004, 3.0) + k6_row(103_000, 2.0) \
        + row("dropped_iterations", 102_500, 1, True, "")
    path = tmp_path / "k6.csv"
    path.write_text(text)
    output = windows.read_k6_csv(str(path))
    assert list(output.dropped_ms) == [100_500, 102_500]
    # the first request started at 100_000: measured are those that started from 102_000 on (not 101_986's)
    requests, dropped, since = windows.settled(output, 2.0)
    assert since == 102_000 and list(requests.ms) == [3.0, 2.0] and dropped == 1
    assert windows.settled(windows.NO_OUTPUT, 2.0) == (windows.EMPTY, 0, None)


def test_cpu_per_request_is_the_cpu_between_two_samples_over_the_requests_ended_between_them():
    from benchlab.run.measure.sampler import Sampler
    smp = Sampler(None, "http://unused", "/dev/null")
    smp.rows = [{"at": 101.0, "app_cpu_s": 5.0}, {"at": 102.0, "app_cpu_s": 5.3}, {"at": 103.0, "app_cpu_s": 5.6},
                {"at": 104.0, "app_cpu_s": 5.7}]
    smp.keep_between(101.5, 103.5)  # the measured part: the samples at 102 and 103
    requests = pd.DataFrame({"t_ms": [101_900, 102_000, 102_400, 102_999, 103_000]})
    assert smp.cpu_ms_per_request(requests) == 100.0  # 0.3 s of CPU over the 3 requests that ended in [102, 103)
    smp.keep_between(103.5, 104.5)
    assert smp.cpu_ms_per_request(requests) is None  # one sample: no interval


def test_per_second_windows():
    req = pd.DataFrame({"t_ms": [1000, 1500, 2000], "t": [1, 1, 2], "ms": [2.0, 4.0, 10.0], "ok": [True, False, True], "status": [200, 500, 200]})
    w = windows.per_second(req)
    assert list(w.requests) == [2, 1] and list(w.ok) == [1, 1] and list(w.mean_ms) == [3.0, 10.0]
    assert list(w.p50_ms) == [3.0, 10.0] and list(w.columns) == ["t", *windows.PER_SECOND]


def test_empty_run():
    assert windows.summary(windows.EMPTY)["ok_rps"] == 0.0
    assert windows.per_second(windows.EMPTY).empty


def test_a_counter_share_is_the_ratio_of_increases_over_the_run():
    from benchlab.run.measure.sampler import Sampler
    smp = Sampler(None, "http://unused", "/dev/null")
    smp.rows = [{"hits": 10.0, "lookups": 20.0}, {"hits": 40.0}, {"hits": 85.0, "lookups": 120.0}]
    assert smp.share("hits", "lookups") == 75.0  # (85 - 10) / (120 - 20)
    smp.rows = [{"hits": 5.0, "lookups": 7.0}, {"hits": 5.0, "lookups": 7.0}]
    assert smp.share("hits", "lookups") is None  # no lookup during the run


def test_other_processes_are_the_machines_cpu_less_ours_and_only_where_all_of_ours_were_read(monkeypatch):
    import types
    from benchlab.run.measure import sampler

    readings = iter([{"k6": None, "db": 1.0}, {"k6": 0.5, "db": 1.1}, {"k6": 1.3, "db": 1.2}])
    app = iter([10.0, 10.3, 10.7])
    smp = sampler.Sampler(types.SimpleNamespace(pid=1, cpu_seconds=lambda: next(app), cgroup_mem_mb=lambda: None),
                          "http://127.0.0.1:9/lab/saturation", "/dev/null", cores=2)
    smp.others = {name: (lambda name=name: current[name]) for name in ("k6", "db")}
    clock = iter(x / 2 for x in range(12))  # each sample reads the clock twice: a second between the CPU readings
    monkeypatch.setattr(sampler.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(sampler.psutil, "cpu_times_percent", lambda interval=None: types.SimpleNamespace(
        idle=20.0, iowait=0.0, steal=5.0, irq=0.0, softirq=2.5))
    monkeypatch.setattr(sampler.psutil, "Process", lambda pid: types.SimpleNamespace(
        memory_info=lambda: types.SimpleNamespace(rss=2**20), num_threads=lambda: 10))
    monkeypatch.setattr(sampler, "scrape", lambda url: {})
    prev = None
    for current in readings:
        prev = smp.sample(0.0, prev)
    first, second, third = smp.rows
    assert "other_cpu_pct" not in first and "other_cpu_pct" not in second  # no previous reading; k6 not yet read
    # 80 % of 2 cores = 160 % of one; less the app 40, k6 80, the database 10, the steal 10 and the interrupts 5
    assert third["other_cpu_pct"] == 15.0 and third["steal_cpu_pct"] == 10.0


def test_no_young_collection_during_a_run_leaves_its_allocation_rate_unknown():
    from benchlab.model import Load, PlannedRun
    from benchlab.run.measure.k6runs import run_row
    from benchlab.run.measure.sampler import Sampler
    smp = Sampler(None, "http://unused", "/dev/null")
    run = PlannedRun(1, "jvm", "aggregate", Load("cost", 80), 1, "virtual", 4)
    row = lambda: run_row(run, windows.summary(windows.EMPTY), 0, {}, 0, smp, None, True, 0.0, 4.0)  # noqa: E731
    smp.rows = [{"t_s": 0.0, "allocated_bytes": 5e9}, {"t_s": 4.0, "allocated_bytes": 5e9}]
    assert row().alloc_mb_per_s is None  # recorded: 80 aggregations/s, 4 s without a collection read as 0.0 MB/s
    smp.rows[1]["allocated_bytes"] = 5e9 + 4 * 2**20 * 30
    assert row().alloc_mb_per_s == 30.0
