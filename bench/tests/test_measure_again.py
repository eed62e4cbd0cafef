"""When a step is measured again (run/measure/steps.py), on rows shaped like the quick runs that gave two answers:
a first step that ran beside another program, a borderline breach, a gross one, one that k6 caused; and what the
search and the report then read: the second measurement."""
import dataclasses
from types import SimpleNamespace

import pandas as pd

from benchlab.model import Load, LoadKind, PlannedRun
from benchlab.plan.planner import make_plan
from benchlab.results import slo, table
from benchlab.results.again import measure_again, measure_once_more
from benchlab.results.environment import Environment
from benchlab.run.measure import steps as steps_module
from benchlab.run.measure.steps import Block, Steps
from benchlab.run.provision import health
from benchlab.run.state import BenchState
from conftest import make_config
from test_runner_search import fake_row

CORES = 2


def row(**figures) -> dict:
    run = PlannedRun(1, "jvm", "jwt-mysql", Load("open", 500), 1, "worker", 6)
    values = dataclasses.asdict(dataclasses.replace(fake_row(run), p99_ms=8.8, app_cpu_pct=40.0, host_cpu_pct=60.0,
                                                    other_cpu_pct=5.0))
    return dict(values, **figures)


def test_a_step_beside_another_program_is_measured_again_where_it_tells():
    # run 2 of the issue: other processes about 47 % of one core during the first jwt-mysql step, which broke
    broke = dict(other_cpu_pct=47.0, p99_ms=53.7)
    assert "other processes used 47 %" in measure_again(row(**broke), CORES, 25, LoadKind.OPEN)
    # a cost run's figures are all disturbed, whatever its p99
    assert "other processes" in measure_again(row(other_cpu_pct=47.0), CORES, 25, LoadKind.COST)
    assert measure_again(row(other_cpu_pct=20.0, p99_ms=53.7), CORES, 25, LoadKind.OPEN).startswith(
        "to confirm a breach")  # under the limit: a breach like any
    # recorded: reactive held 500/s with p99 21.7 ms beside 38 % of steal, and broke (65.7 ms) when measured again;
    # the pass stands
    assert measure_again(row(other_cpu_pct=0.0, steal_cpu_pct=38.0, p99_ms=21.7), CORES, 25,
                         LoadKind.OPEN) is None
    # on a virtual machine the hypervisor's steal takes CPU the same way, though no process here is the reason
    stolen = measure_again(row(other_cpu_pct=5.0, steal_cpu_pct=30.0, p99_ms=90.0), CORES, 25, LoadKind.OPEN)
    assert stolen == "other processes used 5 % of one core and the hypervisor kept 30 % (more than 25 % in all)"


def test_a_step_while_the_jit_compiles_is_measured_again_where_it_tells():
    # recorded: a worker cost run at 500/s, 1.65 s of compiling in its last two seconds, p99 103.8 ms and 6 dropped
    burst = dict(jit_ms_per_s=330.0, p99_ms=103.8, dropped=6)
    assert measure_again(row(**burst), CORES, 25, LoadKind.COST) == \
        "the JIT compiled 330 ms per second during it (a steady app: at most 50)"
    assert measure_again(row(**burst), CORES, 25, LoadKind.OPEN).startswith("the JIT compiled 330 ms")
    # its CPU per request counts the compilers': a cost run is measured again even though nothing broke
    assert measure_again(row(jit_ms_per_s=330.0), CORES, 25, LoadKind.COST) is not None
    # a saturated step loses more than a burst of compiling can explain (recorded: 1327 failed of 8000 at 2000/s)
    assert measure_again(row(jit_ms_per_s=409.0, p99_ms=431.6, requests=6700, errors=1327, dropped=917), CORES, 25,
                         LoadKind.OPEN) is None
    # a search step that held did so in spite of the compiling, and so did a fixed closed-model step (recorded: 1 s
    # holds on a fresh app, 550 ms per second of compiling, p99 1078 ms against 2 s)
    hold = dict(row(jit_ms_per_s=550.0, p99_ms=1078.0), scenario="hold", variant="1s", load_model="closed")
    assert measure_again(hold, CORES, 25, LoadKind.CLOSED) is None
    assert measure_again(row(jit_ms_per_s=330.0), CORES, 25, LoadKind.OPEN) is None
    assert measure_again(row(jit_ms_per_s=12.0), CORES, 25, LoadKind.COST) is None
    assert measure_again(row(jit_ms_per_s=None), CORES, 25, LoadKind.COST) is None  # native: no JIT


def test_a_borderline_breach_is_confirmed_before_it_bounds_a_search():
    # run 3 of the issue: virtual "broke" at 1,000/s with p99 53.7 ms against an SLO of 50
    reason = measure_again(row(p99_ms=53.7), CORES, 25, LoadKind.OPEN)
    assert reason.startswith("to confirm a breach: p99 53.7 ms")
    assert measure_again(row(p99_ms=53.7), CORES, 25, LoadKind.COST) is None  # a cost run bounds nothing


def test_a_breach_by_a_margin_or_caused_by_k6_is_not_measured_again():
    assert measure_again(row(p99_ms=900.0), CORES, 25, LoadKind.OPEN) is None  # 18x the SLO
    starved = row(requests=4000, errors=320)  # 8 % of the requests failed
    assert not slo.breach_by_margin(row(requests=4000, dropped=48))  # 1.2 %: what one stall drops at 700/s
    assert slo.breach_by_margin(starved) and measure_again(starved, CORES, 25, LoadKind.OPEN) is None
    generator = row(p99_ms=60.0, k6_cpu_pct=195.0)  # k6 saturated: the search ends there instead
    assert measure_again(generator, CORES, 25, LoadKind.OPEN) is None
    # k6 failed at once (exit 107): nothing measured to confirm; the failure is the bench's, in its report and exit
    failed = row(p99_ms=None, requests=0, ok_rps=0.0, k6_exit=107)
    assert all(measure_again(failed, CORES, 25, kind) is None for kind in (LoadKind.OPEN, LoadKind.COST))


class TwoMeasurements:
    """A k6 whose first measurement of a step finds `first` and whose later ones find `again` (figures of a row)."""

    def __init__(self, first: dict, again: dict, out: str | None = None):
        self.first, self.again, self.out, self.measured = first, again, out, []

    def measure(self, run, probe, base_url, tokens_file, sampled, attempt=1, pod=None):
        self.measured.append((run.tag, attempt))
        figures = self.first if attempt == 1 else self.again
        if self.out:  # each measurement's seconds, as the real k6 runs write them
            table.append_windows(self.out, run.tag, pd.DataFrame(
                {"t": [0, 1], "requests": 500, "ok": 500, "mean_ms": 2.0, "p50_ms": 1.0, "p99_ms": figures["p99_ms"]}))
        return dataclasses.replace(fake_row(run), k6_cpu_pct=60.0, **figures)


def test_the_second_measurement_is_the_steps_and_the_first_stays_marked(tmp_path, monkeypatch):
    monkeypatch.setattr(steps_module, "PAUSE_BEFORE_AGAIN_S", 0)
    monkeypatch.setattr(health, "wait_drained", lambda app, url, timeout=15: 0.0)
    loads = {"jwt-mysql": [Load("open", 500)]}
    plan = make_plan(["jvm"], ["jwt-mysql"], loads, ["virtual"], 1, 6, 5, 0)
    state = BenchState(make_config(out=str(tmp_path), load_levels=loads, cooldown=0), plan, SimpleNamespace(),
                       env=Environment(cores=CORES))
    # a breach by a hair, then the SLO held
    k6 = TwoMeasurements(dict(p99_ms=53.7, other_cpu_pct=3.0), dict(p99_ms=21.0, other_cpu_pct=3.0), str(tmp_path))
    block = Block(SimpleNamespace(alive=lambda: True, log_path="app.log"), None, "http://app", None, None, None)
    kept = Steps(state, k6, {}).step(plan.runs[0], block, "run 1 of 1")
    assert k6.measured == [(plan.runs[0].tag, 1), (plan.runs[0].tag, 2)]
    first, second = state.rows
    assert first.superseded and not second.superseded and kept is second
    assert second.attempt == 2 and second.remeasured.startswith("to confirm a breach")
    runs, windows, _ = table.read(str(tmp_path))
    assert list(table.final(runs).p99_ms) == [21.0]  # the step held: a breach that did not repeat bounds nothing
    assert list(windows.p99_ms) == [21.0, 21.0]  # its seconds are the second measurement's only


def test_a_breach_again_in_the_same_disturbance_is_measured_a_third_time_and_no_more(tmp_path, monkeypatch):
    # recorded in a CI rehearsal: virtual broke 500/s with 70 % of a core stolen by the hypervisor (p99 85.1 ms), then
    # again in the same spell (121.2 ms), and its search ended at 420/s where seven other runs found 600 to 1,000/s
    assert measure_once_more(row(p99_ms=121.2, steal_cpu_pct=45.0), 25, LoadKind.OPEN).startswith(
        "other processes used 5 % of one core and the hypervisor kept 45 %")
    assert measure_once_more(row(p99_ms=121.2, jit_ms_per_s=120.0), 25, LoadKind.OPEN).startswith("the JIT")
    assert measure_once_more(row(p99_ms=121.2), 25, LoadKind.OPEN) is None  # a quiet breach: confirmed
    assert measure_once_more(row(p99_ms=21.0, steal_cpu_pct=45.0), 25, LoadKind.OPEN) is None  # a pass stands
    assert measure_once_more(row(steal_cpu_pct=45.0), 25, LoadKind.COST) is None  # a cost run: twice at most
    # a starved step (recorded: the worker pool at 200 aggregations/s, p99 5 s, beside 36 % of steal): its own
    assert measure_once_more(row(p99_ms=5001.0, steal_cpu_pct=36.0), 25, LoadKind.OPEN) is None
    assert measure_once_more(row(p99_ms=60.0, dropped=900), 25, LoadKind.OPEN) is None
    monkeypatch.setattr(steps_module, "PAUSE_BEFORE_AGAIN_S", 0)
    monkeypatch.setattr(steps_module, "wait_quiet", lambda limit: (0.0, True))
    monkeypatch.setattr(health, "wait_drained", lambda app, url, timeout=15: 0.0)
    loads = {"jwt-mysql": [Load("open", 500)]}
    plan = make_plan(["jvm"], ["jwt-mysql"], loads, ["virtual"], 1, 6, 5, 0)
    block = Block(SimpleNamespace(alive=lambda: True, log_path="app.log"), None, "http://app", None, None, None)
    stolen = dict(p99_ms=121.2, other_cpu_pct=0.0, steal_cpu_pct=70.0)
    for third, attempts in ((dict(p99_ms=19.5, other_cpu_pct=0.0, steal_cpu_pct=2.0), 3), (stolen, 3)):
        state = BenchState(make_config(out=str(tmp_path), load_levels=loads, cooldown=0), plan, SimpleNamespace(),
                           env=Environment(cores=CORES))
        k6 = TwoMeasurements(stolen, stolen)
        k6.measure = lambda run, *args, attempt=1, k6=k6, third=third, pod=None: dataclasses.replace(
            fake_row(run), k6_cpu_pct=60.0, **(third if attempt == 3 else stolen))
        kept = Steps(state, k6, {}).step(plan.runs[0], block, "run 1 of 1")
        assert [r.attempt for r in state.rows] == list(range(1, attempts + 1)) and kept is state.rows[-1]
        assert [bool(r.superseded) for r in state.rows] == [True, True, False]
    # the report: each measurement after the first, and the last one is the step's
    from benchlab.report.steady import measured_again
    first, second, last = (dataclasses.asdict(r) for r in state.rows)
    table = measured_again(pd.DataFrame([first, second, last]).assign(variant=""), 25.0)
    assert table.headers == ["step", "why", "first", "second", "third", "which counts"]
    step, = table.text_rows
    assert step[1] == "machine busy (over 25 % of a core); then machine busy (over 25 % of a core)"
    assert step[2].startswith("broke, p99 121 ms") and step[2].endswith("; steal 70 %") and step[-1] == "third"


def test_the_report_lists_each_step_measured_again_with_both_outcomes():
    from benchlab.report.steady import measured_again

    first = dict(row(p99_ms=53.7), superseded=True)
    second = dict(row(p99_ms=21.0), attempt=2, remeasured="to confirm a breach: p99 53.7 ms, 0 failed and 0 dropped "
                                                         "of 4000")
    table = measured_again(pd.DataFrame([first, second, dict(row(), tag="another")]).assign(variant=""), 25.0)
    assert table.text_rows == [["jwt-mysql worker at 500/s", "to confirm a breach", "broke, p99 53.7 ms; others 5 %",
                                "held, p99 21.0 ms; others 5 %", "second"]]


def test_a_cost_run_measured_again_is_reported_by_its_cpu_per_request_not_by_the_slo():
    from benchlab.report.steady import measured_again

    # a cost run has no SLO to hold: it is measured again for a figure the JIT inflated
    first = dict(row(app_cpu_ms_per_req=0.62, jit_ms_per_s=182.0), load_model="cost", superseded=True)
    second = dict(row(app_cpu_ms_per_req=0.48), load_model="cost", attempt=2,
                  remeasured="the JIT compiled 182 ms per second during it (a steady app: at most 50)")
    (step, why, first, second, counts), = measured_again(pd.DataFrame([first, second]).assign(variant=""),
                                                         25.0).text_rows
    assert step == "jwt-mysql worker at 500/s (cost)" and why == "JIT compiling"
    assert first == "0.620 ms/req, p99 8.80 ms; others 5 %, JIT 182 ms/s"
    assert second == "0.480 ms/req, p99 8.80 ms; others 5 %"


def test_the_report_flags_a_pass_under_steal_and_a_second_measurement_disturbed_too():
    from benchlab.report.steady import disturbed_but_kept

    # recorded: reactive held 500/s with p99 21.7 ms beside 38 % of steal (a pass stands, not measured again)
    under_steal = dict(row(other_cpu_pct=0.0, steal_cpu_pct=38.0, p99_ms=21.7), model="reactive")
    # recorded: a worker cost run measured again for the JIT, which compiled 481 ms/s during the second measurement
    second = dict(row(jit_ms_per_s=480.7, app_cpu_ms_per_req=0.15), load_model="cost", attempt=2,
                  remeasured="the JIT compiled")
    broke_quietly = row(p99_ms=80.0)  # a breach with nothing disturbing it: nothing to flag
    calm = row()
    first = dict(row(p99_ms=9.5, app_cpu_ms_per_req=0.2), tag="cost", load_model="cost", superseded=True)
    under_steal["tag"], broke_quietly["tag"], calm["tag"] = "steal", "quiet", "calm"
    second["tag"] = "cost"
    table = disturbed_but_kept(pd.DataFrame([under_steal, first, second, broke_quietly, calm]), 25.0)
    passed, cost = table.text_rows
    assert passed == ["jwt-mysql reactive at 500/s", "held despite: machine busy (over 25 % of a core)",
                      "held, p99 21.7 ms; steal 38 %", "-", "first: a pass stands"]
    assert cost == ["jwt-mysql worker at 500/s (cost)", "JIT compiling, in the second too",
                    "0.200 ms/req, p99 9.50 ms; others 5 %", "0.150 ms/req, p99 8.80 ms; others 5 %, JIT 481 ms/s",
                    "second"]
    # read back from results.csv, a steal that was not measured (no hypervisor) is NaN: the others' share still counts
    beside, = disturbed_but_kept(pd.DataFrame([row(other_cpu_pct=30.0, steal_cpu_pct=float("nan"))]), 25.0).text_rows
    assert beside[1:3] == ["held despite: machine busy (over 25 % of a core)", "held, p99 8.80 ms; others 30 %"]


def test_a_step_during_steal_is_measured_again_once_the_machine_is_quiet(tmp_path, monkeypatch):
    monkeypatch.setattr(steps_module, "PAUSE_BEFORE_AGAIN_S", 0)
    monkeypatch.setattr(health, "wait_drained", lambda app, url, timeout=15: 0.0)
    # one-second samples of the whole machine: a quiet second inside the spell, then three in a row
    busy = iter([70.0, 12.0, 48.0, 12.0, 10.0, 9.0])
    # the first measurement ran during a spell of the hypervisor's steal, the second did not
    steal, quiet = (dict(p99_ms=p99, other_cpu_pct=1.0, steal_cpu_pct=s) for p99, s in ((80.0, 45.0), (21.0, 3.0)))
    monkeypatch.setattr(steps_module.sampler, "machine_busy_pct", lambda seconds: next(busy))
    loads = {"jwt-mysql": [Load("open", 500)]}
    plan = make_plan(["jvm"], ["jwt-mysql"], loads, ["virtual"], 1, 6, 5, 0)
    state = BenchState(make_config(out=str(tmp_path), load_levels=loads, cooldown=0), plan, SimpleNamespace(),
                       env=Environment(cores=CORES))
    block = Block(SimpleNamespace(alive=lambda: True, log_path="app.log"), None, "http://app", None, None, None)
    kept = Steps(state, TwoMeasurements(steal, quiet), {}).step(plan.runs[0], block, "run 1 of 1")
    assert next(busy, None) is None  # it waited for three quiet samples in a row, and no longer
    assert kept.attempt == 2 and kept.remeasured.startswith("other processes used 1 % of one core and the hypervisor "
                                                             "kept 45 %")
    assert "measured once the machine was quiet" in kept.remeasured


def test_waiting_for_quiet_gives_up_at_its_limit(monkeypatch):
    clock = iter(range(0, 100, 10))
    monkeypatch.setattr(steps_module.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(steps_module.sampler, "machine_busy_pct", lambda seconds: 80.0)
    waited, quiet = steps_module.wait_quiet(25, longest_s=30)
    assert not quiet and waited == 30


def test_failed_checks_are_set_against_the_failed_requests_of_the_whole_k6_run():
    run = PlannedRun(1, "jvm", "aggregate", Load("open", 1100), 1, "reactive", 4)
    steps = Steps(BenchState(config=None, plan=None, pm=None, env=Environment(cores=CORES)), None, {})
    # recorded: 17 failed checks at 1100/s, every failed request of it in the settling seconds (not measured)
    overloaded = dataclasses.replace(fake_row(run), k6_exit=99, checks_failed=17, errors=0, failed_all=17)
    steps.check(overloaded)
    assert steps.state.failures == []
    steps.check(dataclasses.replace(overloaded, failed_all=0))  # a wrong body answered with 200: the app is broken
    assert steps.state.failures == [f"{run.tag}: 17 failed checks without failed requests"]
