import io
import os

import pandas as pd

from benchlab import windows
from conftest import DATA

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
    req = windows.read_k6_csv(str(path))
    assert list(req.ms) == [5.0, 7.0, 9.0]
    s = windows.summary(req)
    # 3 requests ending over 2 s are 2 intervals of 1 s: a 3 s window, 1 ok request in it
    assert s["window_s"] == 3 and s["ok_rps"] == 1 / 3
    assert list(req.t) == [100, 101, 102]
    assert (s["requests"], s["errors"], s["status_0"], s["status_5xx"]) == (3, 2, 1, 1)


def test_per_second_windows():
    req = pd.DataFrame({"t_ms": [1000, 1500, 2000], "t": [1, 1, 2], "ms": [2.0, 4.0, 10.0], "ok": [True, False, True], "status": [200, 500, 200]})
    w = windows.per_second(req)
    assert list(w.requests) == [2, 1] and list(w.ok) == [1, 1] and list(w.mean_ms) == [3.0, 10.0]


def test_empty_run():
    assert windows.summary(windows.EMPTY)["ok_rps"] == 0.0
    assert windows.per_second(windows.EMPTY).empty


def test_a_counter_share_is_the_ratio_of_increases_over_the_run():
    from benchlab.sampler import Sampler
    smp = Sampler(None, "http://unused", "/dev/null")
    smp.rows = [{"hits": 10.0, "lookups": 20.0}, {"hits": 40.0}, {"hits": 85.0, "lookups": 120.0}]
    assert smp.share("hits", "lookups") == 75.0  # (85 - 10) / (120 - 20)
    smp.rows = [{"hits": 5.0, "lookups": 7.0}, {"hits": 5.0, "lookups": 7.0}]
    assert smp.share("hits", "lookups") is None  # no lookup during the run
