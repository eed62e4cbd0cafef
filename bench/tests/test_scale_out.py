"""The scale-out: its options and plan, HAProxy's config and stats, its rate from the search before it, its model;
k6's requests in windows by when they started, the verdicts on made-up runs (a replica that joins at once, one that
joins late and warms slowly, one that never joins), the machine named as the limit, and the report's sections, also
rendered from a recorded run with scale-outs added."""
import collections
import dataclasses
import json
import os
import re
import shutil
from types import SimpleNamespace

import pandas as pd
import pytest

from benchlab import cli
from benchlab.model import Load, LoadKind, PlannedRun, Stop
from benchlab.plan.planner import make_plan
from benchlab.report import render, scale_out as report_scale_out
from benchlab.results import cost, scale_out
from benchlab.results.environment import Environment, ScaleOutRecord, SearchRecord
from benchlab.run.measure import k6runs
from benchlab.run.measure import scale_out as measure_scale_out
from benchlab.run.measure import steps as steps_module
from benchlab.run.provision import haproxy
from benchlab.run.state import BenchState
from benchlab.scenarios import scale_out as scale_out_scenario
from conftest import DATA, make_config

START_MS = 1_700_000_000_000.0


def requests_frame(rows: list[tuple[float, float, bool]]) -> pd.DataFrame:
    """read_k6_csv's requests from (second it started after START_MS, duration ms, ok)."""
    t_ms = [int(START_MS + 1000 * started + ms) for started, ms, _ in rows]
    return pd.DataFrame({"t_ms": t_ms, "t": [t // 1000 for t in t_ms], "ms": [ms for _, ms, _ in rows],
                         "ok": [ok for _, _, ok in rows], "status": [200 if ok else 503 for _, _, ok in rows],
                         "vu": -1})


def test_a_request_counts_in_the_window_it_started_in_late_or_failed():
    counted = scale_out.windows(requests_frame([
        (0.5, 20.0, True),  # on time
        (4.9, 1100.0, True),  # started in the first window, ended in the second: late, in the first
        (5.2, 10.0, False),  # failed fast: failed, not late
        (6.0, 3000.0, False),  # failed slowly: failed, still not late
        (-0.5, 20.0, True),  # before the start
        (15.0, 20.0, True),  # after the end
    ]), START_MS, seconds=15, slo_p99_ms=50.0)
    assert [(w["start_s"], w["requests"], w["failed"], w["late"]) for w in counted] == [
        (0, 2, 0, 1), (5, 2, 2, 0), (10, 0, 0, 0)]
    assert counted[0]["p99_ms"] == pytest.approx(20 + 0.99 * 1080)  # of every request in it, interpolated
    assert counted[2]["p99_ms"] is None  # an empty window has no p99, and is still listed
    json.dumps(counted)  # written into results.json as it is


def test_windows_take_their_width_and_an_empty_run_gives_empty_windows():
    ten = scale_out.windows(requests_frame([(9.0, 5.0, True), (11.0, 5.0, True)]), START_MS, 20, 50.0, width_s=10)
    assert [(w["start_s"], w["requests"]) for w in ten] == [(0, 1), (10, 1)]
    empty = scale_out.windows(requests_frame([]), START_MS, 10, 50.0)
    assert empty == [{"start_s": s, "requests": 0, "failed": 0, "late": 0, "p99_ms": None} for s in (0, 5)]


SECONDS, STEP_S, RATE = 120, 30, 105.0  # the scenario's run; each replica's capacity 150/s, 70 % of it before


def made_up(runtime="native", ready_s: float | None = 32.0, full_from: int | None = 32, slow=(30, 35),
            relapse: int | None = None, cpu=None, machine=70.0) -> ScaleOutRecord:
    """A scale-out: replica 2 serves half its share from ready_s and all of it from full_from; k6's p99 is over the
    SLO (300 ms, 40 late, 2 failed a window) in the windows from slow[0] to before slow[1], and in relapse's."""
    after = 2 * RATE
    share = after / 2
    replica_2 = [0 if ready_s is None or t < ready_s else share if full_from is not None and t >= full_from
                 else share / 2 for t in range(SECONDS)]
    replica_1 = [RATE if t < STEP_S else after - r2 for t, r2 in enumerate(replica_2)]
    windows = []
    for start in range(0, SECONDS, 5):
        over = slow[0] <= start < slow[1] or start == relapse
        windows.append(dict(start_s=start, requests=int(5 * (RATE if start < STEP_S else after)),
                            failed=2 if over else 0, late=40 if over else 0, p99_ms=300.0 if over else 20.0))
    return ScaleOutRecord(runtime, "virtual", f"{runtime}-scale-out-virtual", 0.25, 512, 150.0, RATE, after, 50.0,
                          STEP_S, ready_s, SECONDS, {"replica 1": replica_1, "replica 2": replica_2}, windows,
                          cpu or {"k6": 60.0, "haproxy": 15.0, "db": 30.0, "replica 1": 25.0, "replica 2": 20.0},
                          machine)


NATIVE = made_up()
JVM = made_up("jvm", ready_s=40.0, full_from=70, slow=(30, 70))
NEVER = made_up("container-jvm", ready_s=None, full_from=None, slow=(30, SECONDS))


def test_a_replica_ready_2_s_after_the_step_carries_its_share_from_the_next_window():
    s = scale_out.verdicts(NATIVE)
    assert s.ready_after_s == 2
    # from 32 s on: the window of 30-35 s averages 3 s of its share in 5, under 90 %; the verdict's grain is a window
    assert s.share_s == 5
    assert s.before == scale_out.Requests(6 * 525, 0, 0)
    assert s.joining == scale_out.Requests(1050, 2, 40)  # the window 30-35 s started before the join at 32 s
    assert s.joined == scale_out.Requests(17 * 1050, 0, 0)
    assert (s.windows_past_slo, s.windows_after, s.worst_p99_ms, s.limit) == (1, 18, 300.0, None)


def test_a_replica_ready_at_40_s_that_warms_until_70_s_carries_its_share_40_s_after_the_step():
    s = scale_out.verdicts(JVM)
    assert (s.ready_after_s, s.share_s) == (10, 40)
    assert s.joining == scale_out.Requests(2 * 1050, 4, 80)  # the windows of 30 and 35 s
    assert s.joined == scale_out.Requests(16 * 1050, 12, 240)  # 40 to 70 s: joined, but over the SLO
    assert s.windows_past_slo == 8


def test_a_replica_that_carries_its_share_but_slow_windows_follow_counts_from_after_them():
    s = scale_out.verdicts(made_up("jvm", ready_s=40.0, full_from=50, slow=(30, 50), relapse=100))
    assert s.share_s == 75  # from 105 s: the p99 broke the SLO again at 100 s
    assert s.serves_s == 20  # its share, whatever the latency, from 50 s on
    fewer = scale_out.verdicts(made_up("jvm", ready_s=40.0, full_from=None, slow=(30, 35)))
    assert fewer.share_s is None  # within the SLO, but replica 2 served half its share to the end


def test_a_replica_that_never_became_ready_never_carries_its_share():
    s = scale_out.verdicts(NEVER)
    assert (s.ready_after_s, s.share_s, s.joined) == (None, None, None)
    assert s.joining == scale_out.Requests(18 * 1050, 36, 720)  # the step to the end
    assert s.windows_past_slo == 18 and s.worst_p99_ms == 300.0


@pytest.mark.parametrize("machine, cpu, limit", [
    (95.0, {"k6": 120.0, "haproxy": 30.0, "db": 40.0, "replica 1": 25.0, "replica 2": 25.0}, "k6"),
    (90.0, {"k6": 50.0, "haproxy": 20.0, "db": 80.0, "replica 1": 25.0, "replica 2": 25.0}, "db"),
    (89.0, {"k6": 120.0, "haproxy": 30.0, "db": 40.0, "replica 1": 25.0, "replica 2": 25.0}, None),
], ids=["k6", "database", "headroom"])
def test_the_machine_is_the_limit_from_90_percent_of_all_cores_named_by_its_largest_consumer(machine, cpu, limit):
    # the replicas' own CPU never names the limit: they are what is measured
    assert scale_out.verdicts(made_up(cpu=cpu, machine=machine)).limit == limit


def test_a_baseline_that_missed_the_slo_is_said_with_its_late_requests():
    late_before = made_up(slow=(0, SECONDS))  # over the SLO from the start: replica 1 alone too
    s = scale_out.verdicts(late_before)
    assert (s.serves_s, s.share_s) == (5, None)
    assert report_scale_out.findings([s]) == [
        "native (virtual): replica 2 served its share from +5 s, never within the SLO in 120 s.",
        "native (virtual): replica 1 alone missed the SLO before the step (252 of 3,150 late or failed): the search's "
        "short steps held more than 30 s do."]
    given = scale_out.verdicts(dataclasses.replace(late_before, capacity=None))  # --loads scale-out=RATE: no search
    assert report_scale_out.findings([given])[1].endswith("late or failed): the rate given is more than one replica "
                                                          "holds.")


def rows_by_runtime(table) -> dict[str, list[str]]:
    return {row[0].split()[0]: row for row in table.text_rows}


def test_the_scale_out_sections_give_a_row_per_runtime_its_cpu_and_a_chart_each():
    limited = dataclasses.replace(NEVER, machine_cpu_pct=96.0)
    main, cpu = report_scale_out.sections(Environment(scale_outs=[NATIVE, JVM, limited]))
    assert main.title.startswith("Scale-out:") and cpu.title.startswith("Scale-out CPU:")
    rows = rows_by_runtime(main.table)
    assert rows["native"] == ["native (virtual)", "0.25 CPU, 512 MB", "150", "105 -> 210", "+2 s", "+5 s", "+5 s",
                              "0 failed, 0 late of 3,150", "2 failed, 40 late of 1,050", "0 failed, 0 late of 17,850",
                              "1 of 18", "300"]
    assert rows["jvm"][4:7] == ["+10 s", "+40 s", "+40 s"]
    assert rows["container-jvm"][4:10] == ["not within the run", "not within the run", "not within the run",
                                           "0 failed, 0 late of 3,150", "36 failed, 720 late of 18,900", "-"]
    cpu_rows = rows_by_runtime(cpu.table)
    assert cpu_rows["native"][1:] == ["60", "15", "30", "25", "20", "70", "not the machine (below 90 %)"]
    assert cpu_rows["container-jvm"][-2:] == ["96", "the machine; k6 used most of it"]
    assert main.findings == ["container-jvm (virtual): replica 2 never served its share in 120 s.",
                             "container-jvm (virtual): the machine was the limit (96 % of all cores, k6 the largest "
                             "consumer), not the replicas alone."]
    assert len(main.charts) == 3
    assert "replica 2 ready" in main.charts[0] and "replica 2 ready" not in main.charts[2]  # never ready: no marker
    assert "SLO p99 50 ms" in main.charts[1] and "Scale-out, jvm (virtual)" in main.charts[1]
    assert report_scale_out.sections(Environment()) == []


def test_the_report_of_a_run_with_scale_outs_shows_them_right_after_the_answers(tmp_path):
    quick = os.path.join(DATA, "quick")
    for name in ("results.csv", "windows.csv", "results.json"):
        shutil.copy(os.path.join(quick, name), tmp_path / name)
    # the scale-out's search: a copy of the recorded JWT + MySQL search's steps under its name
    runs = pd.read_csv(tmp_path / "results.csv")
    searched = runs[(runs.scenario == "jwt-mysql") & (runs.load_model == "open")]
    searched = searched.assign(scenario="scale-out", tag=searched.tag.str.replace("jwt-mysql", "scale-out"))
    pd.concat([runs, searched]).to_csv(tmp_path / "results.csv", index=False)
    with open(tmp_path / "results.json") as f:
        results = json.load(f)
    results["environment"]["scale_outs"] = [dataclasses.asdict(r) for r in (NATIVE, JVM)]
    with open(tmp_path / "results.json", "w") as f:
        json.dump(results, f)
    out = render.render(str(tmp_path))
    headings = re.findall(r"^## (.+)$", out["md"], flags=re.M)
    main = headings.index("Scale-out: a second replica started cold under twice the load")
    assert headings[main - 1] == "The answer" and headings[main + 1] == "Scale-out CPU: each process and the machine"
    assert headings[-4:] == ["Differences, with their uncertainty", "Every step", "Limits in force",
                             "Settings and machine"]
    # its search sets its rate, on one model: no model comparison reads it
    answer = out["md"].split("## The answer")[1].split("## ")[0]
    assert "| jwt-mysql |" in answer and "scale-out" not in answer
    assert "| native (virtual) | 0.25 CPU, 512 MB | 150 | 105 -> 210 | +2 s | +5 s |" in out["md"]
    assert out["html"].count("Scale-out, ") == 2 and '<a href="#scale-out-cpu">' in out["html"]
    assert "Scale-out" not in render.render(quick)["md"]  # no scale-out, no section


# --- the run side: its options and plan, HAProxy's config and stats, the run's own arithmetic ---

@pytest.fixture
def with_haproxy(monkeypatch):
    monkeypatch.setattr(haproxy, "executable", lambda: "/usr/sbin/haproxy")


def test_the_quick_scale_out_searches_one_model_per_runtime_then_runs_two_minutes(with_haproxy):
    config = cli.parse_args(["--quick", "--runtime", "jvm,native", "--scenarios", "scale-out"])
    assert config.load_levels == {"scale-out": [Load(LoadKind.SEARCH, 80), Load(LoadKind.SCALE_OUT, 0)]}
    plan = make_plan(list(config.runtime_names), ["scale-out"], config.load_levels, list(config.models), config.repeat,
                     config.duration, config.warmup, config.cooldown, config.variants)
    # one model per runtime (its cheapest, chosen as the run goes), once whatever the preset's repetitions
    assert [(r.runtime, r.model, r.load.kind, r.seconds) for r in plan.runs] == [
        (rt, "virtual", kind, seconds) for rt in ("jvm", "native")
        for kind, seconds in ((LoadKind.SEARCH, config.duration), (LoadKind.SCALE_OUT, scale_out_scenario.SECONDS))]
    assert cli.parse_args(["--quick", "--scenarios", "scale-out", "--loads", "scale-out=120"]).load_levels == \
        {"scale-out": [Load(LoadKind.SCALE_OUT, 120)]}


@pytest.mark.parametrize("argv, says", [
    (["--scenarios", "scale-out", "--loads", "scale-out=search:80"], "one rate"),
    (["--scenarios", "scale-out", "--loads", "scale-out=100,200"], "one rate"),
    (["--scenarios", "jwt-mysql", "--loads", "jwt-mysql=scale-out:100"], "the scale-out scenario's load"),
    (["--scenarios", "scale-out", "--runtime", "jvm,container-native"], "not on container-native"),
    (["--scenarios", "scale-out", "--target", "http://10.0.0.5:8080"], "not with --target"),
])
def test_a_scale_out_that_makes_no_sense_is_refused_in_one_line(argv, says, capsys, with_haproxy):
    with pytest.raises(SystemExit):
        cli.parse_args(["--quick", *argv])
    assert says in capsys.readouterr().err


def test_without_haproxy_the_bench_names_the_package_and_installs_nothing(monkeypatch, capsys):
    monkeypatch.setattr(haproxy, "executable", lambda: None)
    with pytest.raises(SystemExit) as stopped:
        cli.parse_args(["--quick", "--scenarios", "scale-out"])
    assert stopped.value.code == 2 and "Debian's package haproxy" in capsys.readouterr().err


def test_haproxy_balances_per_request_over_ready_replicas_only():
    text = haproxy.config_text(19105, 19107, (19100, 19106))
    assert "balance roundrobin" in text and "option httpchk GET /q/health/ready" in text
    assert re.search(r"server replica1 127\.0\.0\.1:19100 check", text)
    assert re.search(r"server replica2 127\.0\.0\.1:19106 check", text)
    assert f"inter {haproxy.CHECK_INTERVAL_MS}ms fall 1 rise 1" in text and "bind 127.0.0.1:19105" in text


def test_haproxy_stats_are_read_per_replica(monkeypatch):
    csv_page = ("# pxname,svname,status,hrsp_2xx\nreplicas,FRONTEND,OPEN,0\nreplicas,replica1,UP,120\n"
                "replicas,replica2,DOWN,\nreplicas,BACKEND,UP,120\nstats,FRONTEND,OPEN,\n")
    monkeypatch.setattr(haproxy, "http_get", lambda url, timeout: (200, csv_page))
    proxy = object.__new__(haproxy.HaProxy)
    proxy.stats_url = "http://127.0.0.1:19107/stats;csv"
    stats = proxy.stats()
    assert set(stats) == {"replica 1", "replica 2"}
    assert (stats["replica 1"]["status"], stats["replica 1"]["hrsp_2xx"]) == ("UP", "120")
    assert stats["replica 2"]["status"] == "DOWN"


def test_answers_per_second_are_the_changes_of_haproxys_counts():
    replicas = measure_scale_out.Replicas(proxy=None)
    replicas.counts = {"replica 1": [0, 10, 25, 25, 40], "replica 2": [None, None, 0, 7, 20]}
    assert replicas.per_second(6) == {"replica 1": [10, 15, 0, 15, 0, 0], "replica 2": [0, 0, 7, 13, 0, 0]}


def test_the_machine_is_busy_for_all_but_its_idle_and_iowait():
    times = collections.namedtuple("scputimes", "user system idle iowait steal guest")
    before, after = times(100, 50, 1000, 10, 0, 5), times(160, 70, 1100, 10, 10, 25)
    # 60 + 20 + 10 of steal busy in 190 (guest is inside user): 47.4 %
    assert measure_scale_out.busy_pct(before, after) == pytest.approx(47.4)
    assert measure_scale_out.busy_pct(before, before) == 0.0


def test_k6_steps_the_rate_at_the_scale_outs_step_only():
    config = make_config()
    run = PlannedRun(1, "jvm", "scale-out", Load(LoadKind.SCALE_OUT, 100), 1, "virtual", 120)
    env = k6runs.k6_env("http://127.0.0.1:19105", run, 120, config, "tokens.txt")
    assert (env["RATE"], env["DURATION"]) == ("100", "120s")
    assert (env["STEP_AT"], env["STEP_FACTOR"]) == (f"{scale_out_scenario.STEP_AT_S}s", "2")
    searched = k6runs.k6_env("http://127.0.0.1:19100", dataclasses.replace(run, load=Load(LoadKind.OPEN, 100)), 4,
                             config, "tokens.txt")
    assert "STEP_AT" not in searched


def test_a_scale_out_runs_at_seventy_percent_of_its_search_on_the_block_s_replicas(tmp_path, monkeypatch):
    config = make_config(out=str(tmp_path), scenarios=("scale-out",),
                         load_levels={"scale-out": [Load(LoadKind.SEARCH, 80), Load(LoadKind.SCALE_OUT, 0)]})
    plan = make_plan(["native"], ["scale-out"], config.load_levels, ["reactive"], 1, 4, 5, 0)
    state = BenchState(config, plan, SimpleNamespace(stop=lambda app: None), env=Environment(cores=2))
    state.env.append("searches", SearchRecord("native", "scale-out", "reactive", 1, Stop.RESOLVED, held=150.0,
                                              broke=180.0, steps=5))
    started = []

    class RecordingScaleOut:
        def __init__(self, *args):
            pass

        def run(self, run, app, tokens_file, start_replica, capacity, pod):
            started.append((run.load, app, start_replica, capacity, pod))

    monkeypatch.setattr(steps_module, "ScaleOut", RecordingScaleOut)
    block = SimpleNamespace(app="replica 1", tokens_file="tokens.txt", start_replica="start", pod="pod", broken={})
    steps = steps_module.Steps(state, None, {})
    steps.ladder_step(plan.runs[-1], block, SimpleNamespace(update=lambda *a, **k: None, advance=lambda *a: None),
                      None)
    assert started == [(Load(LoadKind.SCALE_OUT, 105), "replica 1", "start", 150.0, "pod")]


def test_the_scale_out_model_is_the_runtime_s_cheapest_in_its_cost_runs():
    rows = pd.DataFrame({"runtime": "native", "scenario": "jwt-mysql", "variant": "", "load_model": LoadKind.COST,
                         "load": 1000.0, "model": ["virtual", "worker", "reactive"] * 3,
                         "repetition": [1, 1, 1, 2, 2, 2, 3, 3, 3],
                         "app_cpu_ms_per_req": [0.9, 1.0, 0.7, 0.95, 1.05, 0.72, 0.9, 1.0, 0.71],
                         "requests": 1000, "errors": 0, "k6_cpu_pct": 20.0, "ok_rps": 1000.0, "rss_peak_mb": 200.0,
                         "alloc_mb_per_s": 50.0})
    assert cost.cheapest(rows, "jwt-mysql", "native") == "reactive"
    assert cost.cheapest(rows, "jwt-mysql", "jvm") is None
