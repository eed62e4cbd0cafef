"""The warm-up's view of k6 while it runs (run/measure/warmup.py): its CSV output read as k6 writes it, a line at a
time, and cut into windows of the requests that ended in them, with the app's CPU between two instants."""
from types import SimpleNamespace

from benchlab.run.measure.warmup import CpuClock, LiveRequests, window

HEADER = ("metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,scenario,"
          "status,extra_tags,metadata\n")


def line(metric, ms, value, ok=True, tags="model=virtual"):
    return f"{metric},{ms},{value},,,,{str(ok).lower()},,GET,GET /virtual/users/me,jwt-mysql_virtual,200,{tags},vu=3\n"


def test_only_whole_lines_of_measured_requests_are_read_as_k6_writes_them(tmp_path):
    csv = tmp_path / "warmup.csv"
    live = LiveRequests(str(csv))
    assert live.read() == []  # k6 has not written it yet
    first = HEADER + line("http_req_duration", 1_000_000, 4.5, tags="") + line("http_reqs", 1_000_010, 1)
    first += line("http_req_duration", 1_000_020, 3.0)
    partial = line("http_req_duration", 1_000_500, 9.0, ok=False)
    csv.write_text(first + partial[:25])
    assert live.read() == [(1000.02, 3.0, True)]  # setup()'s probe has no model tag; the cut line waits
    with open(csv, "a") as f:
        f.write(partial[25:])
    assert live.read() == [(1000.5, 9.0, False)]


def test_a_window_holds_the_requests_that_ended_in_it_and_what_they_cost():
    requests = [(10.0 + i * 0.01, 2.0 + (i % 10), True) for i in range(300)]  # 100/s over 3 s
    w = window(requests, 10.0, 12.0, first=10.0, cpu=0.04, jit_ms_per_s=12.5)
    assert (w.end_s, w.requests, w.ok) == (2.0, 200, 200)
    assert w.app_cpu_ms_per_req == 0.2 and w.jit_ms_per_s == 12.5 and 10.0 <= w.p99_ms <= 11.0
    empty = window(requests, 20.0, 22.0, first=10.0, cpu=0.04)
    assert empty.requests == 0 and empty.p99_ms is None and empty.app_cpu_ms_per_req is None


def test_the_apps_cpu_between_two_instants_is_interpolated_from_its_readings(monkeypatch):
    readings = iter([(100.0, 5.0), (101.0, 5.5), (102.0, 6.5)])
    clock = CpuClock(SimpleNamespace(cpu_seconds=lambda: current[1]))
    for current in readings:
        monkeypatch.setattr("time.time", lambda current=current: current[0])
        clock.read()
    assert clock.between(100.5, 101.5) == 0.75
    assert clock.between(99.0, 101.0) is None  # before the first reading: unknown, not guessed
