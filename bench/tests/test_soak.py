"""The soak (--scenarios soak): its options, its plan, its rate from the search before it, its drift rules on made-up
seconds, Native Memory Tracking's output read back, and its rows on the report."""
import dataclasses
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from benchlab import cli
from benchlab.model import Load, LoadKind, Stop
from benchlab.plan.planner import make_plan
from benchlab.report.soak import Soaks
from benchlab.results import soak
from benchlab.results.environment import Environment, SearchRecord, SoakRecord
from benchlab.run.measure import sampler
from benchlab.run.measure import soak as measure_soak
from benchlab.run.provision.containers import ContainerNativeRuntime
from benchlab.run.provision.host import JvmRuntime, NativeRuntime
from benchlab.run.provision.jvm import nmt_areas
from benchlab.run.measure.steps import Steps
from benchlab.run.state import BenchState
from conftest import make_config
from test_runner_search import fake_row


def test_the_quick_soak_holds_a_fixed_rate_for_three_minutes_per_model():
    config = cli.parse_args(["--quick", "--scenarios", "soak"])
    assert config.load_levels == {"soak": [Load(LoadKind.SOAK, 600)]} and config.soak_minutes == 3
    plan = make_plan(config.runtime_names, ["soak"], config.load_levels, list(config.models), 1, config.duration,
                     config.warmup, config.cooldown, config.variants, soak_seconds=60 * config.soak_minutes)
    assert [(r.model, r.seconds) for r in plan.runs] == [(m, 180) for m in config.models]
    assert plan.warmups == 3  # each model warmed in its own app


def test_the_aggregation_soaks_at_its_own_rate_and_a_given_rate_is_a_soaks():
    assert cli.parse_args(["--quick", "--scenarios", "soak", "--variants", "soak=aggregate"]).load_levels == \
        {"soak": [Load(LoadKind.SOAK, 70)]}
    assert cli.parse_args(["--quick", "--scenarios", "soak", "--loads", "soak=450"]).load_levels == \
        {"soak": [Load(LoadKind.SOAK, 450)]}


def test_the_default_soak_searches_each_model_and_soaks_at_its_capacity():
    config = cli.parse_args(["--scenarios", "soak"])
    assert config.load_levels == {"soak": [Load(LoadKind.SEARCH, 500), Load(LoadKind.SOAK, 0)]}
    plan = make_plan(config.runtime_names, ["soak"], config.load_levels, list(config.models), config.repeat,
                     config.duration, config.warmup, config.cooldown, config.variants,
                     soak_seconds=60 * config.soak_minutes)
    # each model's search, then its soak of 20 minutes, in an app of its own; once, whatever the preset's repetitions
    assert config.repeat == 3 and [(r.model, r.load.kind, r.seconds) for r in plan.runs] == [
        (m, kind, seconds) for m in config.models
        for kind, seconds in ((LoadKind.SEARCH, config.duration), (LoadKind.SOAK, 1200))]


@pytest.mark.parametrize("argv, says", [
    (["--variants", "soak=,aggregate"], "one case at a time"),
    (["--loads", "soak=search:500"], "one rate"),
    (["--loads", "soak=200,400"], "one rate"),
    (["--loads", "soak=soak"], "one rate"),  # at a capacity no search finds
    (["--soak-minutes", "0"], "--soak-minutes"),
])
def test_a_soak_that_makes_no_sense_is_refused_in_one_line(argv, says, capsys):
    with pytest.raises(SystemExit):
        cli.parse_args(["--quick", "--scenarios", "soak", *argv])
    assert says in capsys.readouterr().err


def test_a_soak_is_the_soak_scenarios_load_only(capsys):
    with pytest.raises(SystemExit):
        cli.parse_args(["--quick", "--loads", "jwt-mysql=soak:500"])
    assert "the soak scenario's load" in capsys.readouterr().err


class RecordingK6:
    def __init__(self):
        self.measured = []

    def measure(self, run, probe, base_url, tokens_file, sampled, attempt=1, jcmd=None, nmt_note="", connections=None,
                pod=None):
        self.measured.append((run, jcmd, connections))
        return fake_row(run)


def soak_steps(tmp_path, searches):
    config = make_config(out=str(tmp_path), scenarios=("soak",), load_levels={"soak": [Load(LoadKind.SEARCH, 500),
                                                                                      Load(LoadKind.SOAK, 0)]})
    plan = make_plan(["jvm"], ["soak"], config.load_levels, ["virtual"], 1, 4, 5, 0, soak_seconds=60)
    state = BenchState(config, plan, SimpleNamespace(stop=lambda app: None), env=Environment(cores=2))
    for record in searches:
        state.env.append("searches", record)
    k6 = RecordingK6()
    block = SimpleNamespace(app=None, probe=None, base_url="http://app", tokens_file=None, db_url=
                            "jdbc:mysql://127.0.0.1:34285/lab", jcmd="/jdk/bin/jcmd", nmt_note="",
                            broken={}, pod=None)
    return Steps(state, k6, {}), plan.runs[-1], block, k6


def test_a_soak_after_a_search_runs_at_seventy_percent_of_what_the_search_held(tmp_path):
    searched = SearchRecord("jvm", "soak", "virtual", 1, Stop.RESOLVED, held=900.0, broke=1000.0, steps=5)
    steps, soak_run, block, k6 = soak_steps(tmp_path, [searched])
    steps.ladder_step(soak_run, block, SimpleNamespace(update=lambda *a, **k: None, advance=lambda *a: None), None)
    run, jcmd, connections = k6.measured[0]
    assert run.load == Load(LoadKind.SOAK, 630) and jcmd == "/jdk/bin/jcmd"
    assert connections == {"db_connections": 34285, "downstream_connections": steps.state.config.port + 1}


def test_a_soak_whose_search_held_nothing_is_skipped_and_said(tmp_path):
    searched = SearchRecord("jvm", "soak", "virtual", 1, Stop.NOTHING_HELD, held=None, broke=250.0, steps=1)
    steps, soak_run, block, k6 = soak_steps(tmp_path, [searched])
    steps.ladder_step(soak_run, block, SimpleNamespace(update=lambda *a, **k: None, advance=lambda *a: None), None)
    assert k6.measured == [] and "its search held no rate" in steps.state.env.skipped[0]


def made_up(tag="jvm-soak-virtual-soak600-r1", seconds=300, rss_growth=0.0, failing_from=None, seed=3):
    """A soak's record and windows: noisy flat series, RSS growing by rss_growth over the soak, failures from a
    second on."""
    rng = np.random.default_rng(seed)
    t = np.arange(seconds)
    rss = 300 * (1 + rss_growth * t / seconds) + rng.normal(0, 2, seconds)
    heap = 40 + (t % 7) * 5 + rng.normal(0, 1, seconds)  # a saw-tooth: its low points stay at 40
    series = {"at": list(1_700_000_000.0 + t), "app_cpu_pct": list(40 + rng.normal(0, 3, seconds)),
              "rss_mb": list(rss), "heap_used_bytes": list(heap * 2**20), "live_data_bytes": [None] * seconds,
              "gc_pause_seconds": list(np.cumsum(np.full(seconds, 0.002))), "os_threads": [60] * seconds,
              "meters": [400] * seconds, "db_connections": [20] * seconds, "downstream_connections": [0] * seconds}
    record = SoakRecord("jvm", "soak", "", "virtual", tag, 600.0, seconds / 60, series)
    failed = np.where(t >= failing_from, 3, 0) if failing_from is not None else np.zeros(seconds)
    win = pd.DataFrame({"tag": tag, "t": t, "requests": 600, "ok": 600 - failed, "mean_ms": 5.0,
                        "p50_ms": 4 + rng.normal(0, 0.2, seconds), "p99_ms": 20 + rng.normal(0, 2, seconds)})
    return record, win


def drifts_of(record, win) -> dict[str, soak.Drift]:
    return {d.series.column: d for d in soak.drift(soak.seconds(record, win))}


def test_a_flat_soak_has_no_leak_suspect_and_says_no_detectable_drift():
    drifts = drifts_of(*made_up())
    assert soak.suspects(list(drifts.values())) == []
    assert not drifts["p99_ms"].detectable and not drifts["rss_mb"].detectable
    # the saw-tooth's low points: the heap after GC, not the heap in use on average
    assert drifts["heap_after_gc_mb"].first == pytest.approx(40, abs=2)
    assert drifts["gc_share_pct"].first == pytest.approx(0.2, abs=0.01)
    assert "live_data_mb" not in drifts  # not exported: no row rather than a row of nothing


def test_rss_that_grows_by_a_third_is_a_leak_suspect_and_a_small_growth_is_not():
    grown = drifts_of(*made_up(rss_growth=0.33))["rss_mb"]
    assert grown.suspect and grown.share[1] > soak.SUSPECT_GROWTH
    slight = drifts_of(*made_up(rss_growth=0.05))["rss_mb"]
    assert slight.detectable and not slight.suspect


def test_failures_that_start_late_are_a_suspect_from_zero():
    failed = drifts_of(*made_up(failing_from=250))["failed"]
    assert failed.first == 0 and failed.share is None and failed.suspect


# What `jcmd PID VM.native_memory summary` prints, cut short: the JVM's, then an executable's (GraalVM 25).
NMT_JVM = """
Native Memory Tracking:

Total: reserved=7742316KB, committed=484172KB
       malloc: 18424KB #47144, peak=18446KB #45831
       mmap:   reserved=7723892KB, committed=465748KB

-                 Java Heap (reserved=6172672KB, committed=393216KB)
                            (mmap: reserved=6172672KB, committed=393216KB, at peak)

-                    Thread (reserved=60629KB, committed=5285KB)
                            (threads #59)
"""
NMT_EXECUTABLE = """
Native memory tracking

Total
    (reserved=33566236KB, committed=122328KB)
    (malloc=11804KB, count=16801)
    (mmap: reserved=33554432KB, committed=110524KB)
Image Heap
    (reserved=68544KB, committed=68032KB)
Unsafe
    (reserved=826KB, committed=826KB)
Serviceability)
    (reserved=0KB, committed=0KB)
"""


def test_native_memory_tracking_is_read_per_area_on_the_jvm_and_the_executable():
    assert nmt_areas(NMT_JVM) == {"Total": 472.8, "Java Heap": 384.0, "Thread": 5.2}
    assert nmt_areas(NMT_EXECUTABLE) == {"Total": 119.5, "Image Heap": 66.4, "Unsafe": 0.8, "Serviceability": 0.0}
    assert nmt_areas("Native memory tracking is not enabled") == {}


def test_a_soak_keeps_both_summaries_and_each_area_s_change(tmp_path, monkeypatch):
    summaries = iter([NMT_EXECUTABLE, NMT_EXECUTABLE.replace("826KB", "3898KB")])
    monkeypatch.setattr(measure_soak, "jcmd_out", lambda *command: next(summaries))
    nmt = measure_soak.NativeMemory("jcmd", 42, str(tmp_path), "native-soak-virtual")
    nmt.start()
    areas = nmt.change()
    assert areas["Unsafe"] == [3.8, 3.0] and areas["Image Heap"] == [66.4, 0.0] and nmt.note == ""
    assert sorted(p.name for p in (tmp_path / "nmt").iterdir()) == ["native-soak-virtual-end.txt",
                                                                    "native-soak-virtual-start.txt"]


def test_nmt_off_is_said_and_nothing_is_recorded(tmp_path, monkeypatch):
    monkeypatch.setattr(measure_soak, "jcmd_out", lambda *command: "Unknown argument 'scale' in diagnostic command")
    nmt = measure_soak.NativeMemory("jcmd", 42, str(tmp_path), "jvm-soak-virtual")
    nmt.start()
    assert nmt.change() is None and nmt.note.startswith("not tracked: jcmd VM.native_memory summary gave no areas")


def test_nmt_is_read_where_jcmd_can_and_an_executable_without_it_is_left_alone(tmp_path):
    with_jcmd, without = tmp_path / "with-runner", tmp_path / "without-runner"
    with_jcmd.write_bytes(b"\x7fELF ... VM.native_memory ...")
    without.write_bytes(b"\x7fELF ...")
    jcmd = "/jdk/bin/jcmd"
    assert measure_soak.reader(JvmRuntime(), "/jdk", str(tmp_path)) == {"jcmd": jcmd}
    assert measure_soak.reader(NativeRuntime({"native_exe": str(with_jcmd)}), "/jdk", str(tmp_path)) == \
        {"jcmd": jcmd}
    note = measure_soak.reader(NativeRuntime({"native_exe": str(without)}), "/jdk", str(tmp_path))["nmt_note"]
    assert "-Dquarkus.native.monitoring=nmt,jcmd" in note
    assert "container" in measure_soak.reader(ContainerNativeRuntime(), "/jdk", str(tmp_path))["nmt_note"]


def test_connections_are_counted_by_the_remote_port_established_only():
    conn = lambda port, status: SimpleNamespace(raddr=SimpleNamespace(port=port), status=status)  # noqa: E731
    proc = SimpleNamespace(net_connections=lambda kind: [conn(3306, "ESTABLISHED"), conn(3306, "ESTABLISHED"),
                                                         conn(3306, "TIME_WAIT"), conn(19101, "ESTABLISHED"),
                                                         SimpleNamespace(raddr=(), status="LISTEN")])
    assert sampler.connections_by_port(proc, {"db_connections": 3306, "downstream_connections": 19101}) == \
        {"db_connections": 2, "downstream_connections": 1}


def soak_report(records_and_windows, errors=0):
    env = Environment()
    runs, wins = [], []
    for record, win in records_and_windows:
        env.append("soaks", record)
        row = fake_row(SimpleNamespace(tag=record.tag, runtime="jvm", scenario="soak", model=record.model,
                                       variant="", load=Load(LoadKind.SOAK, 600), repetition=1, seconds=300))
        runs.append(dataclasses.asdict(dataclasses.replace(row, p99_ms=21.0, errors=errors, requests=180_000,
                                                           dropped=0, slo_p99_ms=50.0)))
        wins.append(win)
    return Soaks(pd.DataFrame(runs), pd.concat(wins) if wins else pd.DataFrame(columns=["tag", "t"]), env)


def test_the_soak_row_after_the_answer_says_pass_or_fail_per_guarantee():
    flat = made_up()
    leaking = made_up(tag="jvm-soak-worker-soak600-r1", rss_growth=0.5)
    leaking = (dataclasses.replace(leaking[0], model="worker"), leaking[1])
    table = soak_report([flat, leaking]).answer_table()
    rows = {row[0]: row for row in table.text_rows}
    assert rows["virtual"][1:6] == ["5 min at 600/s", "21.0 ms; 0 failed, 0 dropped of 180,000", "pass", "none",
                                    "pass"]
    assert rows["worker"][4].startswith("RSS +") and rows["worker"][5] == "fail"
    failing = soak_report([flat], errors=900).answer_table().text_rows[0]
    assert failing[3] == "fail"  # 0.5 % failed: beyond the SLO's 0.1 %


def test_the_soak_sections_chart_each_series_and_list_native_memory():
    sections = soak_report([made_up()]).sections()
    assert [s.title.split(":")[0] for s in sections] == ["Soak drift", "Soak native memory"]
    assert len(sections[0].charts) == 1 and "RSS" in sections[0].charts[0]
    assert sections[1].table.text_rows == [["virtual", "-", "-", "-", "not tracked"]]
    assert soak_report([]).answer_table() is None and soak_report([]).sections() == []


def test_native_memory_lists_the_total_and_only_the_areas_that_grew():
    record, win = made_up()
    record = dataclasses.replace(record, nmt={"Total": [160.0, 37.5], "Java Heap": [82.5, 37.5],
                                              "Image Heap": [66.4, 0.0], "Unsafe": [0.9, -0.1], "JFR": [10.3, 0.2]})
    rows = soak_report([(record, win)]).nmt_table().text_rows
    assert [row[1:4] for row in rows] == [["Total", "160.0", "+37.5"], ["Java Heap", "82.5", "+37.5"],
                                          ["JFR", "10.3", "+0.2"]]
