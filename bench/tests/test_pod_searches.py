"""Pod sizes compared (--app-cpus 0.25,0.5): each pod searched at least twice, the pods taking turns a block each, and
once more where its searches disagree, decided once after the planned blocks (plan/planner.py, results/slo.py,
run/runner.py)."""
import dataclasses
import os

import pytest

from benchlab import cli
from benchlab.model import MODELS, Load, LoadKind
from benchlab.plan.planner import APP_START_S, RUN_OVERHEAD_S, make_plan, warmup_seconds
from benchlab.results import slo, table
from benchlab.results.environment import Environment
from benchlab.run.runner import Bench
from benchlab.run.state import BenchState
from test_runner_search import fake_row

PODS = ["jvm-cpu0.25", "jvm-cpu0.5", "native-cpu0.25", "native-cpu0.5"]
LOADS = {"jwt-mysql": [Load(LoadKind.SEARCH, 500), Load(LoadKind.COST, 1000)]}


def pods_plan(pod_searches=2):
    return make_plan(PODS, ["jwt-mysql"], LOADS, list(MODELS), 1, 4, 60, 0.5, cost_repeat=4, cost_ladder=False,
                     pod_searches=pod_searches)


def test_each_pods_second_search_comes_after_every_pods_first_each_in_a_block_of_its_own():
    p = pods_plan()
    searches = [(r.runtime, r.repetition) for r in p.runs if r.load.kind == LoadKind.SEARCH]
    assert searches == [(pod, rep) for rep in (1, 2) for pod in PODS for _ in MODELS]
    # the cost runs in each pod's first block, before any second search
    first_second = min(r.index for r in p.runs if r.repetition == 2 and r.load.kind == LoadKind.SEARCH)
    costs = [r for r in p.runs if r.load.kind == LoadKind.COST]
    assert len(costs) == len(PODS) * 3 * 4 and max(r.index for r in costs) < first_second
    # a block per pod and round: each pod's first start is its start-up's, each second one an app start more
    assert p.warmups == 2 * len(PODS) * 3 and p.app_starts() == len(PODS)


def test_the_plans_duration_counts_the_second_searches_and_at_most_an_added_one_per_pod():
    p, one = pods_plan(), pods_plan(pod_searches=0)
    seconds = [r for r in p.runs if r.repetition == 2 and r.load.kind == LoadKind.SEARCH]
    assert p.planned_seconds() - one.planned_seconds() == pytest.approx(len(PODS) * APP_START_S + sum(
        p.run_seconds(r) + warmup_seconds(60) + RUN_OVERHEAD_S for r in seconds))
    assert p.search_added and not one.search_added
    as_planned = dataclasses.replace(p, search_added=False)
    added = p.planned_seconds(upper_bound=True) - as_planned.planned_seconds(upper_bound=True)
    assert added == pytest.approx(p.added_search_seconds()) and added > p.planned_seconds() - one.planned_seconds()
    assert p.planned_seconds() == as_planned.planned_seconds()  # expected: as planned


def test_a_list_of_sizes_searches_each_pod_twice_at_least_and_one_size_as_before(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pods = ["--quick", "--runtime", "jvm,native", "--app-cpus", "0.25,0.5"]
    assert cli.parse_args(pods).pod_searches == 2
    assert cli.parse_args([*pods, "--repeat", "3"]).pod_searches == 3
    assert cli.parse_args(["--quick", "--runtime", "jvm,native"]).pod_searches == 0
    # one size: one block per runtime, its repetitions inside, exactly as the plan made it before
    one = make_plan(["jvm", "native"], ["jwt-mysql"], LOADS, list(MODELS), 2, 4, 60, 0.5, cost_repeat=4)
    assert [r.runtime for r in one.runs] == sorted([r.runtime for r in one.runs], key=["jvm", "native"].index)
    assert one == make_plan(["jvm", "native"], ["jwt-mysql"], LOADS, list(MODELS), 2, 4, 60, 0.5, cost_repeat=4,
                            pod_searches=0)


def searched(capacities: dict[tuple[str, str], list[float]]) -> list:
    """Rows of searches that held each rate up to the capacity of each (pod, model) and repetition, then broke."""
    rows, planned = [], pods_plan().runs[0]
    for (runtime, model), caps in capacities.items():
        for rep, cap in enumerate(caps, start=1):
            for rate in (250.0, 500.0, 600.0, 840.0, 1000.0, 1200.0):
                run = dataclasses.replace(planned, runtime=runtime, model=model, repetition=rep,
                                          load=Load(LoadKind.OPEN, rate))
                row = fake_row(run)
                row.p99_ms = 20.0 if rate <= cap else 120.0
                rows.append(row)
    return rows


def test_searches_disagree_where_the_pods_best_model_moved_more_than_x1_25():
    rows = table.frame(searched({
        ("jvm-cpu0.25", "virtual"): [500, 840], ("jvm-cpu0.25", "worker"): [250, 250],  # x1.68
        ("jvm-cpu0.5", "virtual"): [1000, 1200], ("jvm-cpu0.5", "reactive"): [250, 600],  # x1.2: within a step
        ("native-cpu0.25", "virtual"): [0, 250]}))  # a search that held no rate disagrees with one that held
    found = slo.disagreeing_searches(rows)
    assert [(d.runtime, d.model, d.capacities) for d in found] == [
        ("jvm-cpu0.25", "virtual", (500.0, 840.0)), ("native-cpu0.25", "virtual", (0.0, 250.0))]
    assert found[0].factor == 840 / 500 and found[1].factor == float("inf")


def test_a_pod_whose_searches_disagree_gets_one_more_search_in_a_block_after_the_planned_ones():
    plan = pods_plan()
    bench = Bench.__new__(Bench)
    bench.state = BenchState(config=None, plan=plan, pm=None, env=Environment(cores=2))
    bench.state.rows = searched({("jvm-cpu0.5", "virtual"): [500, 840], ("jvm-cpu0.25", "virtual"): [500, 500]})
    added = bench.added_searches()
    assert [[(r.runtime, r.model, r.repetition, r.load) for r in block] for block in added] == [
        [("jvm-cpu0.5", model, 3, Load(LoadKind.SEARCH, 500)) for model in MODELS]]
    assert all(r.index == plan.runs[-1].index for r in added[0])
    assert bench.state.env.searches_added == [
        "jvm-cpu0.5 jwt-mysql: its searches found virtual at 500 and 840/s, more than x1.25 apart: one more search"]
    one_size = make_plan(["jvm"], ["jwt-mysql"], LOADS, list(MODELS), 2, 4, 60, 0.5, cost_repeat=4)
    bench.state = BenchState(config=None, plan=one_size, pm=None, env=Environment(cores=2))
    bench.state.rows = searched({("jvm", "virtual"): [500, 840]})
    assert bench.added_searches() == [] and bench.state.env.get("searches_added") is None
