"""The capacity search of a block's runs (run/measure/steps.py), with a fake measurement: which rates each model is offered, in which order, and what
the run keeps of it."""
import dataclasses

from benchlab.model import Load, PlannedRun, RunRow
from benchlab.plan.planner import make_plan
from benchlab.results.environment import Environment
from benchlab.run.measure.steps import Steps
from benchlab.run.state import BenchState

CAPACITY = {"virtual": 1000, "worker": 700, "reactive": 1300}


class FakeProgress:
    def update(self, *a, **k):
        pass

    def advance(self, *a, **k):
        pass


def fake_row(run: PlannedRun, k6_cpu_pct: float = 10.0) -> RunRow:
    held = run.load.value <= CAPACITY[run.model]
    fields = {f.name: None for f in dataclasses.fields(RunRow)}
    twin = getattr(run, "twin", False)  # a PlannedRun's, or a stand-in's without one
    fields.update(tag=run.tag, runtime=run.runtime, scenario=run.scenario, model=run.label if twin else run.model,
                  variant=run.variant, twin=twin, load_model=run.load.kind, load=run.load.value, repetition=run.repetition,
                  planned_s=run.seconds,
                  window_s=8.0, requests=int(run.load.value * 8), errors=0, status_0=0, status_4xx=0, status_5xx=0,
                  dropped=0, ok_rps=run.load.value, p99_ms=20.0 if held else 1200.0, k6_cpu_pct=k6_cpu_pct)
    return RunRow(**{k: v for k, v in fields.items() if k in {f.name for f in dataclasses.fields(RunRow) if f.init}})


def bench_with(plan, env=None, k6_cpu_pct=10.0):
    state = BenchState(config=None, plan=plan, pm=None, env=Environment(cores=2, **(env or {})))
    steps = Steps(state, k6=None, sampled={})
    offered = []

    def step(run, block, position):
        offered.append((run.model, run.load.value))
        row = fake_row(run, k6_cpu_pct)
        state.rows.append(row)
        return row

    steps.step = step
    return steps, offered


def test_each_model_is_searched_to_its_own_capacity_in_interleaved_rounds():
    plan = make_plan(["jvm"], ["aggregate"], {"aggregate": [Load("search", 100)]}, ["virtual", "worker", "reactive"],
                     1, 8, 5, 1)
    bench, offered = bench_with(plan)
    bench.search(plan.runs, None, FakeProgress(), None)
    assert offered[:6] == [("virtual", 100), ("worker", 100), ("reactive", 100),
                           ("reactive", 200), ("worker", 200), ("virtual", 200)]  # the order alternates per round
    found = {s.model: s for s in bench.state.env.searches}
    for model, capacity in CAPACITY.items():
        assert found[model].stop == "resolved"
        assert found[model].held <= capacity < found[model].broke <= found[model].held * 1.2
    assert all(r.load_model == "open" for r in bench.state.rows)  # each step is an ordinary open-model run


def test_jwt_mysqls_search_stops_at_the_databases_point_select_rate():
    plan = make_plan(["jvm"], ["jwt-mysql"], {"jwt-mysql": [Load("search", 200)]}, ["reactive"], 1, 8, 5, 1)
    bench, offered = bench_with(plan, env={"point_select": {"qps": 800.0}})
    bench.search(plan.runs, None, FakeProgress(), None)
    assert offered == [("reactive", 200), ("reactive", 400), ("reactive", 800)]
    assert bench.state.env.searches[0].stop == "ceiling" and bench.state.env.searches[0].ceiling == 800.0


def test_a_breach_with_k6_saturated_ends_the_search_as_k6s_limit():
    plan = make_plan(["jvm"], ["aggregate"], {"aggregate": [Load("search", 800)]}, ["reactive"], 1, 8, 5, 1)
    bench, _ = bench_with(plan, k6_cpu_pct=195.0)  # 2 cores: k6 saturated on every step
    bench.search(plan.runs, None, FakeProgress(), None)
    assert bench.state.env.searches[0].stop == "load generator"


def test_a_search_is_planned_as_its_whole_step_budget():
    search = make_plan(["jvm"], ["jwt-mysql"], {"jwt-mysql": [Load("search", 200)]}, ["virtual"], 1, 8, 5, 1)
    ladder = make_plan(["jvm"], ["jwt-mysql"], {"jwt-mysql": [Load("open", 200)]}, ["virtual"], 1, 8, 5, 1)
    one_step = ladder.planned_seconds() - ladder.warmups * (5 + 1.5)
    assert search.planned_seconds(upper_bound=True) == search.warmups * (5 + 1.5) + 10 * one_step
