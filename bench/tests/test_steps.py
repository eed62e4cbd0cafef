"""A block's steps with fake processes and a fake k6: an app still busy after a run is restarted and warmed again
before the next run, and what a run keeps (its row, the drain wait, a k6 failure)."""
import dataclasses
import json
import os
from types import SimpleNamespace

import pytest

from benchlab.model import Load
from benchlab.plan.planner import make_plan
from benchlab.results.environment import Environment
from benchlab.results.environment import WarmupRecord
from benchlab.run.measure import warmup
from benchlab.run import runner
from benchlab.run.measure.steps import Block, Steps
from benchlab.run.provision import health, services
from benchlab.run.state import BenchState
from conftest import make_config
from test_runner_search import fake_row


class FakeApp:
    def __init__(self, name):
        self.name, self.log_path, self.pid = name, f"/tmp/{name}.log", 4242

    def alive(self):
        return True


class FakeK6:
    """Warm-ups answer with the given exit code; a measured run gives the model's usual row."""

    def __init__(self, exit_code=0):
        self.exit_code, self.runs, self.rules = exit_code, [], []

    def until_steady(self, k6, run, probe, base_url, tokens_file, name, cap_s, label, budget_lifted, rule):
        self.runs.append(name)
        self.rules.append(rule)
        return WarmupRecord(run.runtime, run.scenario, run.variant, run.model, run.load.label, label, 6.0, 600, True,
                            budget_lifted)

    def measure(self, run, probe, base_url, tokens_file, sampled, attempt=1, pod=None):
        self.runs.append(run.tag)
        return dataclasses.replace(fake_row(run), k6_exit=self.exit_code)

    def k6(self, run, seconds, base_url, tokens_file, name, csv_path=None):
        self.runs.append(name)
        return self.exit_code, None


@pytest.fixture
def steps(tmp_path, monkeypatch):
    def make(busy_apps=(), exit_code=0, scenario="aggregate"):
        loads = {scenario: [Load("open", 100)]}
        plan = make_plan(["jvm"], [scenario], loads, ["worker"], 1, 8, 5, 0)
        config = make_config(out=str(tmp_path), warmup=5, load_levels=loads, models=("worker",), db_user="lab",
                             db_password="lab")
        stopped = []
        state = BenchState(config, plan, SimpleNamespace(stop=stopped.append), env=Environment(cores=2))
        k6 = FakeK6(exit_code)
        monkeypatch.setattr(warmup, "until_steady", k6.until_steady)
        block = Block(FakeApp("app"), None, "http://app", None, lambda n: (FakeApp(f"app-restart{n}"), None),
                      "jdbc:mariadb://127.0.0.1:3306/lab")

        def wait_drained(app, base_url, timeout=15):
            if app.name in busy_apps:
                raise health.StillBusy(f"{app.name} busy")
            return 0.4

        return Steps(state, k6, {}), plan, block, k6, stopped, wait_drained
    return make


def test_an_app_still_busy_after_a_run_is_restarted_and_warmed_before_the_next(steps, monkeypatch):
    s, plan, block, k6, stopped, wait_drained = steps(busy_apps=("app",))
    monkeypatch.setattr(health, "wait_drained", wait_drained)
    row = s.step(plan.runs[0], block, "run 1 of 1")
    assert [a.name for a in stopped] == ["app"] and block.app.name == "app-restart1" and block.restarts == 1
    assert k6.runs[0].startswith("rewarm1-") and k6.runs[1] == plan.runs[0].tag  # warmed, then measured
    assert s.state.env.restarts == 1 and row.drain_wait_s == 0.4
    with open(os.path.join(s.state.out, "results.json")) as f:
        written = json.load(f)
    assert written["environment"]["restarts"] == 1 and [r["tag"] for r in written["runs"]] == [plan.runs[0].tag]


def test_a_drained_app_is_measured_as_it_is_and_a_k6_failure_fails_the_run(steps, monkeypatch):
    s, plan, block, k6, stopped, wait_drained = steps(exit_code=107)
    monkeypatch.setattr(health, "wait_drained", wait_drained)
    s.step(plan.runs[0], block, "run 1 of 1")
    assert stopped == [] and block.app.name == "app" and k6.runs == [plan.runs[0].tag]
    assert s.state.env.get("restarts") is None
    assert s.state.failures == [f"{plan.runs[0].tag}: k6 exit 107 (script error, setup failure or killed)"]


def test_the_twins_cost_runs_are_measured_on_the_twins_app_and_the_models_on_the_shared_one(tmp_path, monkeypatch):
    loads = {"jwt-mysql": [Load("cost", 1000)]}
    plan = make_plan(["jvm"], ["jwt-mysql"], loads, ["virtual", "reactive"], 1, 4, 5, 0, cost_repeat=3, twin=True)
    state = BenchState(make_config(out=str(tmp_path), load_levels=loads, models=("virtual", "reactive")), plan,
                       SimpleNamespace(), env=Environment(cores=2))
    measured = []

    class K6:
        def measure(self, run, probe, base_url, tokens_file, sampled, attempt=1, pod=None):
            measured.append((run.label, base_url))
            return fake_row(run)
    monkeypatch.setattr(health, "wait_drained", lambda app, base_url, timeout=15: 0.0)
    shared = Block(FakeApp("app"), None, "http://app", None, None, None)
    shared.twin = Block(FakeApp("twin"), None, "http://twin", None, None, None)
    Steps(state, K6(), {}).run_plan(plan.runs, shared)
    assert {(label, url) for label, url in measured} == {("virtual", "http://app"), ("reactive", "http://app"),
                                                         ("virtual twin", "http://twin")}
    assert len(measured) == 9 and [r.model for r in state.rows].count("virtual twin") == 3


def test_an_undecided_verdict_runs_again_for_it_and_the_cheapest_on_the_shared_app_after_the_planned_runs(
        tmp_path, monkeypatch):
    """Quick run 12's JWT + MySQL figures at 1,000/s: worker 1.14x reactive (0.98 to 1.33), virtual told apart."""
    loads = {"jwt-mysql": [Load("cost", 1000)]}
    models = ("virtual", "worker", "reactive")
    plan = make_plan(["jvm"], ["jwt-mysql"], loads, list(models), 1, 4, 5, 0, cost_repeat=4, twin=True)
    state = BenchState(make_config(out=str(tmp_path), load_levels=loads, models=models), plan, SimpleNamespace(),
                       env=Environment(cores=2))
    figures = {"virtual": [0.391, 0.362, 0.386, 0.395], "worker": [0.382, 0.336, 0.351, 0.327],
               "reactive": [0.317, 0.320, 0.277, 0.310], "virtual twin": [0.391, 0.391, 0.401, 0.383]}
    measured = []

    class K6:
        def measure(self, run, probe, base_url, tokens_file, sampled, attempt=1, pod=None):
            measured.append((run.label, run.repetition, base_url))
            ms = figures[run.label][run.repetition - 1] if run.repetition <= 4 else figures[run.label][0]
            return dataclasses.replace(fake_row(run), app_cpu_ms_per_req=ms)
    monkeypatch.setattr(health, "wait_drained", lambda app, base_url, timeout=15: 0.0)
    shared = Block(FakeApp("app"), None, "http://app", None, None, None)
    shared.twin = Block(FakeApp("twin"), None, "http://twin", None, None, None)
    Steps(state, K6(), {}).run_plan(plan.runs, shared)
    assert len(measured) == 16 + 8
    assert measured[16:] == [(m, rep, "http://app") for m, rep in [
        ("reactive", 5), ("worker", 5), ("worker", 6), ("reactive", 6), ("reactive", 7), ("worker", 7),
        ("worker", 8), ("reactive", 8)]]
    assert state.env.verdict_runs_added == [
        "jvm jwt-mysql: worker undecided against reactive at 1000/s, 4 more repetitions for 8 each"]


def test_the_twin_starts_on_a_port_of_its_own_primed_on_the_other_models_and_warmed_on_its_own(tmp_path):
    loads = {"jwt-mysql": [Load("cost", 1000)]}
    models = ("virtual", "worker", "reactive")
    plan = make_plan(["jvm"], ["jwt-mysql"], loads, list(models), 1, 4, 5, 0, cost_repeat=2, twin=True)
    bench = runner.Bench.__new__(runner.Bench)  # only what start_twin reads: the state and the apps
    bench.state = BenchState(make_config(out=str(tmp_path), load_levels=loads, models=models), plan, SimpleNamespace(),
                             env=Environment(cores=2))
    started, warmed = [], []
    bench.apps = SimpleNamespace(start=lambda rt, home, props, up, log_name, port=None:
                                 (started.append(port) or FakeApp(log_name), 1.0))
    rt = SimpleNamespace(name="jvm", budget=None, probe=lambda app: None)
    steps = SimpleNamespace(warm_up=lambda block, first, label, models=None, primed=(): warmed.append(
        (block.base_url, label, models, primed)))
    shared = Block(FakeApp("app"), None, "http://app", None, None, None)
    twin = bench.start_twin(steps, plan.runs, rt, "/jdk", {}, SimpleNamespace(), shared)
    port = bench.state.config.port + runner.TWIN_PORT_OFFSET
    assert started == [port] and twin.base_url == f"http://127.0.0.1:{port}"
    # the others leave in it what they leave in the shared app; only its own model is warmed until steady
    assert warmed == [(twin.base_url, "warmup twin", ["virtual"], ("worker", "reactive"))]


@pytest.mark.parametrize("scenario, emptied", [("pool-sweep", True), ("aggregate", False)])
def test_the_reports_table_is_emptied_before_each_run_of_a_scenario_that_fills_it(steps, monkeypatch, scenario,
                                                                                  emptied):
    s, plan, block, _, _, wait_drained = steps(scenario=scenario)
    monkeypatch.setattr(health, "wait_drained", wait_drained)
    calls = []
    monkeypatch.setattr(services, "empty_reports", lambda *args: calls.append(args))
    s.step(plan.runs[0], block, "run 1 of 1")
    assert calls == ([("jdbc:mariadb://127.0.0.1:3306/lab", "lab", "lab")] if emptied else [])


def test_each_search_step_says_where_it_stands(steps):
    s, plan, _, _, _, _ = steps()
    # during a search the position moves on with its steps instead of repeating the run's ("run 3 of 33" over and over)
    assert s.position(plan.runs[0]) == "run 1 of 1"
    assert [s.position(plan.runs[0], n) for n in (1, 2)] == ["run 1 of 1, search step 1", "run 1 of 1, search step 2"]


def test_a_model_the_cap_stopped_gets_one_more_warm_up_once_the_others_have_had_theirs(tmp_path, monkeypatch):
    loads = {"jwt-mysql": [Load("search", 500)]}
    models = ("virtual", "worker", "reactive")
    plan = make_plan(["jvm"], ["jwt-mysql"], loads, list(models), 1, 6, 60, 0)
    state = BenchState(make_config(out=str(tmp_path), load_levels=loads, models=models), plan, SimpleNamespace(),
                       env=Environment(cores=2))
    steady_on = {"virtual": 2, "worker": 1, "reactive": 1}  # the first model's compilers outlast its cap
    warmed = []

    def until_steady(k6, run, probe, base_url, tokens_file, name, cap_s, label, budget_lifted, rule):
        warmed.append((run.model, label, cap_s))
        return WarmupRecord(run.runtime, run.scenario, run.variant, run.model, run.load.label, label, cap_s, 1,
                            warmed.count((run.model, label, cap_s)) + (label != "warmup") >= steady_on[run.model],
                            budget_lifted)
    monkeypatch.setattr(warmup, "until_steady", until_steady)
    block = Block(None, None, "http://app", None, None, None)
    Steps(state, None, {}).warm_up(block, plan.runs[0], "warmup")
    assert warmed == [("virtual", "warmup", 60), ("worker", "warmup", 60), ("reactive", "warmup", 60),
                      ("virtual", "warmup again", 60)]
    assert [w.steady for w in state.env.warmups] == [False, True, True, True]
    # a twin: the models it never runs first, each at most the others' cap, then its own until steady
    warmed.clear()
    state.plan = dataclasses.replace(plan, warmup_others_s=8)
    Steps(state, None, {}).warm_up(block, plan.runs[0], "warmup twin", models=["virtual"],
                                   primed=("worker", "reactive"))
    assert warmed == [("worker", "warmup twin primed", 8), ("reactive", "warmup twin primed", 8),
                      ("virtual", "warmup twin", 60)]
    # a memory search's step: an app for one model, warmed alone, with the memory search's own cap
    warmed.clear()
    Steps(state, None, {}, warmup_cap=8, warmup_load=Load("open", 100)).warm_up(block, plan.runs[0], "memwarm",
                                                                               models=["worker"])
    assert warmed == [("worker", "memwarm", 8)]
    assert state.env.warmups[-1].load == "100/s"  # the memory case's warm-up load, not the scenario's


def test_an_apps_only_model_the_cap_stopped_gets_one_more_warm_up_too(tmp_path, monkeypatch):
    loads = {"scale-out": [Load("search", 80), Load("scale-out", 0)]}
    plan = make_plan(["jvm"], ["scale-out"], loads, ["virtual"], 1, 6, 60, 0)
    state = BenchState(make_config(out=str(tmp_path), load_levels=loads, scenarios=("scale-out",)), plan,
                       SimpleNamespace(), env=Environment(cores=2))
    labels = []

    def until_steady(k6, run, probe, base_url, tokens_file, name, cap_s, label, budget_lifted, rule):
        labels.append(label)
        return WarmupRecord(run.runtime, run.scenario, run.variant, run.model, run.load.label, label, cap_s, 1,
                            label.endswith("again"), budget_lifted)
    monkeypatch.setattr(warmup, "until_steady", until_steady)
    Steps(state, None, {}).warm_up(Block(None, None, "http://app", None, None, None), plan.runs[0], "warmup")
    assert labels == ["warmup", "warmup again"]


@pytest.mark.parametrize("scenario, loads, model, warmed_at, p99_slack_ms", [
    ("gateway", [Load("cost", 100), Load("search", 300)], "worker", "300/s", 50.0),  # a search's first rate
    ("mixed", [Load("closed", 50), Load("open", 200)], "worker", "200/s", 50.0),  # its lowest rate
    ("jwt-mysql", [Load("cost", 500), Load("search", 500)], "worker", "1000/s", 5.0),  # its own: the JIT sooner
    ("aggregate", [Load("cost", 80), Load("search", 200)], "virtual", "300/s", 100.0),
    ("aggregate", [Load("cost", 80), Load("search", 200)], "worker", "100/s", 100.0),  # 300/s would starve the pool
    ("hold", [Load("closed", 1000)], "worker", "100 VUs", 1_100.0),  # its own: 1,000 held connections would too
])
def test_a_warm_up_overloads_no_model_before_its_first_run(tmp_path, monkeypatch, scenario, loads, model, warmed_at,
                                                            p99_slack_ms):
    plan = make_plan(["jvm"], [scenario], {scenario: loads}, [model], 1, 6, 60, 0)
    state = BenchState(make_config(out=str(tmp_path), load_levels={scenario: loads}, models=(model,)), plan,
                       SimpleNamespace(), env=Environment(cores=2))
    fake = FakeK6()
    monkeypatch.setattr(warmup, "until_steady", fake.until_steady)
    Steps(state, None, {}).warm_up(Block(None, None, "http://app", None, None, None), plan.runs[0], "warmup")
    assert [w.load for w in state.env.warmups] == [warmed_at]
    # and it is judged steady at the scenario's own SLO: a tenth of its p99 bound is noise, not warming up
    assert [rule.p99_slack_ms for rule in fake.rules] == [p99_slack_ms]


def test_a_blocks_cost_rates_move_together_below_the_lowest_capacity_its_search_found(tmp_path, monkeypatch):
    # the search first; reactive, whose knee is at 400/s, held 350/s: the verdict's 1,000/s moves to 80 % of it, 250/s
    # with it, on the twin too
    loads = {"jwt-mysql": [Load("cost", 250), Load("cost", 1000), Load("search", 500)]}
    models = ("virtual", "reactive")
    plan = make_plan(["jvm"], ["jwt-mysql"], loads, list(models), 1, 4, 5, 0, cost_repeat=3, twin=True)
    state = BenchState(make_config(out=str(tmp_path), load_levels=loads, models=models), plan, SimpleNamespace(),
                       env=Environment(cores=2))
    capacity = {"virtual": 1400, "reactive": 400}

    class K6:
        def measure(self, run, probe, base_url, tokens_file, sampled, attempt=1, pod=None):
            row = fake_row(run)
            return dataclasses.replace(row, p99_ms=20.0 if run.load.value <= capacity[run.model] else 1200.0)
    monkeypatch.setattr(health, "wait_drained", lambda app, base_url, timeout=15: 0.0)
    shared = Block(FakeApp("app"), None, "http://app", None, None, None)
    shared.twin = Block(FakeApp("twin"), None, "http://twin", None, None, None)
    Steps(state, K6(), {}).run_plan(plan.runs, shared)
    costs = [(r.model, r.load) for r in state.rows if r.load_model == "cost"]
    assert {rate for _, rate in costs} == {70, 280} and ("virtual twin", 280) in costs
    assert state.env.cost_rates_moved == ["jvm jwt-mysql: cost rates 250, 1,000/s moved to 70, 280/s, below "
                                          "reactive's capacity of 350/s"]
