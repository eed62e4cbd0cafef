import dataclasses

from benchlab import cli
from benchlab.model import MODELS, SETTLE_S, Load, PlannedRun
from benchlab.plan.planner import (APP_START_S, PROFILE_S, RESTART_S, RUN_OVERHEAD_S, USUAL_SEARCH_STEPS, expected_restart, expected_skip,
                              make_plan, run_props)
from benchlab.plan.search import SearchSettings


def plan(reps=3):
    loads = {"jwt-mysql": [Load("open", 100), Load("open", 200)], "aggregate": [Load("open", 50)]}
    return make_plan(["jvm"], ["jwt-mysql", "aggregate"], loads, list(MODELS), reps, 20, 10, 2)


def test_every_combination_once():
    runs = plan().runs
    assert len(runs) == 3 * 3 * 3  # 3 steps x 3 repetitions x 3 models
    keys = {(r.scenario, r.load, r.repetition, r.model) for r in runs}
    assert len(keys) == len(runs)
    assert [r.index for r in runs] == list(range(1, len(runs) + 1))


def test_models_interleaved_and_first_model_alternates():
    runs = plan().runs[:9]  # the first step: 3 repetitions
    assert [r.model for r in runs] == ["virtual", "worker", "reactive", "reactive", "worker", "virtual",
                                       "virtual", "worker", "reactive"]
    assert [r.repetition for r in runs] == [1, 1, 1, 2, 2, 2, 3, 3, 3]


def test_steps_climb_in_order_within_a_scenario():
    loads = [r.load.value for r in plan(1).runs if r.scenario == "jwt-mysql"]
    assert loads == sorted(loads)


def test_planned_seconds_is_runs_plus_warmups_with_overhead():
    p = plan(1)
    expected = len(p.runs) * (SETTLE_S + 20 + 2 + RUN_OVERHEAD_S) + 6 * (10 + RUN_OVERHEAD_S)
    assert p.planned_seconds() == expected


def test_tags_are_unique():
    tags = [r.tag for r in plan().runs]
    assert len(set(tags)) == len(tags)


def test_a_restart_is_planned_after_each_worker_run_past_starvation():
    loads = {"aggregate": [Load("open", 100), Load("open", 150)]}
    p = make_plan(["jvm"], ["aggregate"], loads, list(MODELS), 1, 8, 5, 1)
    assert [r.tag for r in p.runs if expected_restart(r)] == ["jvm-aggregate-worker-open150-r1"]
    warm_up_every_model = 3 * (5 + RUN_OVERHEAD_S)  # at the block's start, and again after the restart
    assert p.planned_seconds() == 6 * (SETTLE_S + 8 + 1 + RUN_OVERHEAD_S) + RESTART_S + 2 * warm_up_every_model


def test_worker_runs_past_67_in_flight_expect_a_restart():
    def run(kind, value, model="worker"):
        return PlannedRun(1, "jvm", "aggregate", Load(kind, value), 1, model, 10)
    assert not expected_restart(run("open", 100))  # 60 in flight
    assert expected_restart(run("open", 200))  # 120 in flight
    assert expected_restart(run("closed", 150))
    assert not expected_restart(run("closed", 150, model="virtual"))


def test_worker_steps_above_its_expected_starvation_are_expected_skipped():
    loads = {"aggregate": [Load("open", 100), Load("open", 200), Load("open", 400), Load("closed", 150)]}
    p = make_plan(["jvm"], ["aggregate"], loads, list(MODELS), 1, 20, 10, 2)
    skipped = [r.tag for r in p.runs if expected_skip(r, p.runs)]
    assert skipped == ["jvm-aggregate-worker-open400-r1"]  # 200/s starves it; closed steps are never skipped
    assert p.planned_seconds() < p.planned_seconds(upper_bound=True)


def test_each_variant_is_one_block_with_its_own_models():
    loads = {"executors": [Load("closed", 150)]}
    p = make_plan(["jvm"], ["executors"], loads, list(MODELS), 2, 8, 5, 1,
                  variants={"executors": ["", "article-small"]})
    blocks = [(r.variant, r.model) for r in p.runs]
    assert blocks == [("", "virtual"), ("", "reactive"), ("", "reactive"), ("", "virtual"),
                      ("article-small", "worker"), ("article-small", "worker")]
    assert p.warmups == 3  # virtual and reactive, then worker under article-small
    assert run_props(p.runs[-1])["lab.worker.branches.core-size"] == "6"
    assert p.runs[-1].tag == "jvm-executors-worker-article-small-closed150-r2"


def test_a_dedicated_branch_executor_backs_up_past_its_core_threads():
    def run(variant, users):
        return PlannedRun(1, "jvm", "executors", Load("closed", users), 1, "worker", 10, variant)
    assert expected_restart(run("article-small", 150))  # 300 branches, 6 core threads
    assert not expected_restart(run("article-100-300", 40))  # 80 branches, 100 core threads


def test_an_app_start_is_planned_per_configuration_change():
    loads = {"aggregate": [Load("open", 50)], "pool-sweep": [Load("closed", 50)]}
    p = make_plan(["jvm"], ["aggregate", "pool-sweep"], loads, list(MODELS), 1, 8, 5, 1,
                  variants={"pool-sweep": ["pool-4", "pool-32"]})
    assert p.app_starts() == 2  # pool-4, then pool-32; the aggregate runs on the app as configured


def test_a_scenario_with_an_app_per_model_runs_each_model_together_in_an_app_of_its_own():
    plan = make_plan(["jvm"], ["gateway"], {"gateway": [Load("closed", 16), Load("closed", 100)]},
                     ["virtual", "worker", "reactive"], 2, 30, 10, 1)
    assert [r.model for r in plan.runs] == ["virtual"] * 4 + ["worker"] * 4 + ["reactive"] * 4
    assert [(r.load.value, r.repetition) for r in plan.runs[:4]] == [(16, 1), (16, 2), (100, 1), (100, 2)]
    assert plan.app_starts() == 3 and plan.warmups == 3


def test_an_opt_in_variant_runs_only_when_named():
    loads = {"aggregate": [Load("closed", 1000)]}
    default = make_plan(["jvm"], ["aggregate"], loads, ["virtual"], 1, 20, 10, 2)
    assert [r.variant for r in default.runs] == [""]
    named = make_plan(["jvm"], ["aggregate"], loads, ["virtual"], 1, 20, 10, 2, variants={"aggregate": ["", "http2"]})
    assert [r.variant for r in named.runs] == ["", "http2"]


def test_the_time_left_after_a_run_is_what_the_later_runs_cost():
    p = make_plan(["jvm"], ["jwt-mysql"], {"jwt-mysql": [Load("open", 100), Load("open", 200)]},
                  ["virtual", "reactive"], 1, 8, 5, 1)
    per_run = SETTLE_S + 8 + 1 + RUN_OVERHEAD_S
    assert [p.seconds_left(r) for r in p.runs] == [3 * per_run, 2 * per_run, per_run, 0]


def test_a_search_is_planned_at_its_usual_steps_and_at_most_its_step_budget():
    plan = make_plan(["jvm"], ["jwt-mysql"], {"jwt-mysql": [Load("search", 1000)]}, ["virtual", "reactive"], 1, 6, 5, 1)
    step = SETTLE_S + 6 + 1 + RUN_OVERHEAD_S
    warmups = 2 * (5 + RUN_OVERHEAD_S)
    assert plan.planned_seconds() == 2 * USUAL_SEARCH_STEPS * step + warmups
    assert plan.planned_seconds(upper_bound=True) == 2 * SearchSettings(1000).max_steps * step + warmups


def test_a_search_that_starts_where_the_worker_pool_starves_restarts_it_once():
    # the aggregation's search from 200/s (120 in flight): the worker model's first step starves it, the app is
    # restarted and re-warmed, and the search goes on below its start
    plan = make_plan(["jvm"], ["aggregate"], {"aggregate": [Load("search", 200)]}, ["virtual", "worker"], 1, 6, 5, 1)
    step = SETTLE_S + 6 + 1 + RUN_OVERHEAD_S
    warmups = 2 * (5 + RUN_OVERHEAD_S)
    restart = RESTART_S + warmups  # and the re-warm of both models
    assert plan.planned_seconds() == 2 * USUAL_SEARCH_STEPS * step + warmups + restart
    steps = SearchSettings(200).max_steps
    assert plan.planned_seconds(upper_bound=True) == 2 * steps * step + warmups + steps * restart


def test_jdks_and_drivers_take_turns_each_repetition():
    loads = {"article-001": [Load("closed", 50), Load("closed", 300)]}
    p = make_plan(["jvm-jdk21", "jvm-jdk25"], ["article-001"], loads, ["virtual", "worker"], 2, 8, 5, 1,
                  interleave=True)
    blocks = []
    for r in p.runs:
        if not blocks or blocks[-1] != (r.repetition, r.variant, r.runtime):
            blocks.append((r.repetition, r.variant, r.runtime))
    assert blocks == [(rep, v, rt) for rep in (1, 2) for v in ("connector-j-8.3.0", "connector-j-9.5.0")
                      for rt in ("jvm-jdk21", "jvm-jdk25")]
    assert len(p.runs) == 2 * 2 * 2 * 2 * 2 and p.warmups == 8 * 2
    # every block needs an app of its own: each runtime's first app runs the shipped driver, its first block not
    assert p.app_starts() == 8


def test_without_interleaving_a_runtime_runs_all_its_blocks_first():
    loads = {"jwt-mysql": [Load("open", 100)]}
    p = make_plan(["jvm", "jvm-aot"], ["jwt-mysql"], loads, ["virtual"], 2, 8, 5, 1)
    assert [(r.runtime, r.repetition) for r in p.runs] == [("jvm", 1), ("jvm", 2), ("jvm-aot", 1), ("jvm-aot", 2)]
    assert p.app_starts() == 0  # each runtime's first app serves its only block


def test_the_models_are_listed_once_and_everything_about_them_follows():
    """model.py's MODELS line is parsed as it is by a Java test; colours and order derive from it."""
    import os
    from benchlab import model
    from benchlab.report.layout import model_color, model_order
    with open(os.path.join(os.path.dirname(model.__file__), "model.py")) as f:
        assert 'MODELS = ("virtual", "worker", "reactive")\n' in f.read()
    assert list(model.MODEL_COLORS) == list(MODELS) and len(set(model.MODEL_COLORS.values())) == len(MODELS)
    assert (model.VIRTUAL, model.WORKER, model.REACTIVE) == MODELS
    assert model_color("worker (article-small)") == model.MODEL_COLORS["worker"]
    assert model_order(["reactive", "worker (article-small)", "virtual", "worker"]) == [
        "virtual", "worker", "worker (article-small)", "reactive"]


def test_a_scenario_the_verdicts_are_read_from_may_warm_up_longer_than_the_others():
    from benchlab.plan.planner import reads_verdicts
    loads = {"jwt-mysql": [Load("cost", 500), Load("search", 500)], "gateway": [Load("closed", 16)]}
    plan = make_plan(["jvm"], ["jwt-mysql", "gateway"], loads, ["virtual", "worker"], 1, 6, 60, 0.5,
                     warmup_others_s=8)
    assert reads_verdicts(loads["jwt-mysql"]) and not reads_verdicts(loads["gateway"])
    assert plan.warmup_cap("jwt-mysql") == 60 and plan.warmup_cap("gateway") == 8
    assert (plan.warmups, plan.other_warmups) == (4, 2)
    longest = plan.planned_seconds(upper_bound=True) - sum(plan.run_seconds(r, True) for r in plan.runs)
    assert longest == 2 * (60 + RUN_OVERHEAD_S) + 2 * (8 + RUN_OVERHEAD_S) + plan.app_starts() * APP_START_S


def test_a_profile_follows_each_cost_rate_once_per_model_and_event_in_the_first_runtimes_first_block():
    loads = {"jwt-mysql": [Load("cost", 1000), Load("search", 500)]}
    p = make_plan(["jvm", "jvm-before"], ["jwt-mysql"], loads, list(MODELS), 2, 10, 10, 1, interleave=True,
                  profile_events=("cpu", "alloc"))
    profiled = [r for r in p.runs if r.load.kind == "profile"]
    assert len(profiled) == 3 * 2  # the first runtime's first block: three models, two events
    assert {(r.runtime, r.model, r.event) for r in profiled} == {("jvm", m, e) for m in MODELS for e in ("cpu", "alloc")}
    first_block = p.runs[:next(i for i, r in enumerate(p.runs) if r.runtime == "jvm-before")]
    kinds = [r.load.kind for r in first_block]
    # the search first: its lowest capacity bounds the cost rates (Steps.within_knees); each profile after its rate
    assert kinds == ["search"] * 3 + ["cost"] * 9 + ["profile"] * 6
    assert all(r.load.value == 1000 and r.seconds == PROFILE_S for r in profiled)
    assert len({r.tag for r in p.runs}) == len(p.runs)


def test_the_verdicts_cost_rate_runs_the_twin_and_the_lower_rates_run_half_as_often():
    loads = {"jwt-mysql": [Load("cost", 250), Load("cost", 1000), Load("search", 500)]}
    p = make_plan(["jvm"], ["jwt-mysql"], loads, list(MODELS), 1, 4, 60, 0.5, cost_repeat=4, twin=True)
    low = [r for r in p.runs if r.load.value == 250]
    verdict = [r for r in p.runs if r.load.kind == "cost" and r.load.value == 1000]
    assert len(low) == 3 * 2 and not any(r.twin for r in low)  # half of cost_repeat, no twin
    twins = [r for r in verdict if r.twin]
    assert len(verdict) == 4 * 4 and {r.model for r in twins} == {"virtual"} and len(twins) == 4
    assert [(r.label, r.twin) for r in verdict[:4]] == [("virtual", False), ("worker", False), ("reactive", False),
                                                         ("virtual twin", True)]
    assert verdict[4].twin  # the next repetition reversed: the twin first
    assert twins[0].tag == "jvm-jwt-mysql-virtual-twin-cost1000-r1" and len({r.tag for r in p.runs}) == len(p.runs)
    # the twin warms up on its one model, after the two others at the others' cap
    assert (p.twin_apps, p.warmups, p.other_warmups) == (1, 6, 2)
    alone = make_plan(["jvm"], ["jwt-mysql"], loads, ["virtual"], 1, 4, 60, 0.5, cost_repeat=4, twin=True)
    assert not any(r.twin for r in alone.runs) and alone.twin_apps == 0  # one model: nothing to tell apart


def test_an_undecided_verdict_may_double_its_rates_runs_and_the_upper_bound_counts_them():
    loads = {"jwt-mysql": [Load("cost", 250), Load("cost", 1000), Load("search", 500)]}
    p = make_plan(["jvm"], ["jwt-mysql"], loads, list(MODELS), 1, 4, 60, 0.5, cost_repeat=4, twin=True)
    assert p.verdict_runs_most == 8
    counted = [r for r in p.runs if p.verdict_runs_added(r)]
    assert [(r.model, r.repetition, p.verdict_runs_added(r)) for r in counted] == [
        ("virtual", 1, 4), ("worker", 1, 4), ("reactive", 1, 4)]  # not the twin, nor the lower rate
    as_planned = dataclasses.replace(p, verdict_runs_most=0)
    assert p.planned_seconds(upper_bound=True) - as_planned.planned_seconds(upper_bound=True) == sum(
        p.run_seconds(r) * 4 for r in counted) > 0
    assert p.planned_seconds() == as_planned.planned_seconds()  # expected: as planned
    # interleaved (--jdk, --heap, --builds): a block holds one repetition, its cost runs numbered on across apps
    interleaved = make_plan(["jvm", "jvm-21"], ["jwt-mysql"], loads, list(MODELS), 2, 4, 60, 0.5, cost_repeat=4,
                            twin=True, interleave=True)
    assert interleaved.verdict_runs_most == 0 and not any(interleaved.verdict_runs_added(r) for r in interleaved.runs)


def test_without_the_cost_ladder_a_block_runs_its_verdicts_rate_alone():
    # pod sizes compared: each pod's cost at one rate, no lower rate and no twin (cli passes cost_ladder=False)
    loads = {"jwt-mysql": [Load("cost", 250), Load("cost", 1000), Load("search", 500)]}
    p = make_plan(["jvm-cpu0.25", "jvm-cpu0.5"], ["jwt-mysql"], loads, list(MODELS), 1, 4, 60, 0.5, cost_repeat=4,
                  cost_ladder=False)
    costs = [r for r in p.runs if r.load.kind == "cost"]
    assert {r.load.value for r in costs} == {1000} and len(costs) == 2 * 3 * 4
    assert not any(r.twin for r in p.runs) and p.twin_apps == 0


def test_a_verdicts_cost_run_lasts_long_enough_for_its_requests():
    # the aggregation's 80/s: 3 s would hold 240 requests, so its verdict's runs last 500 / 80 s; 20/s stays at 3 s
    loads = {"aggregate": [Load("cost", 20), Load("cost", 80)], "jwt-mysql": [Load("cost", 1000)]}
    p = make_plan(["jvm"], ["aggregate", "jwt-mysql"], loads, list(MODELS), 1, 4, 60, 0.5, cost_repeat=4,
                  cost_seconds=3, twin=True)
    seconds = {(r.scenario, r.load.value): r.seconds for r in p.runs}
    assert seconds == {("aggregate", 20): 3, ("aggregate", 80): 500 / 80, ("jwt-mysql", 1000): 3}


def test_the_quick_aggregation_pays_for_its_verdicts_added_runs_with_the_rates_that_could_not_tell():
    """Quick's 3 s at 20 and 40/s held 60 and 120 aggregations: every such cell of quick runs 15 to 18 read "too few
    requests to tell". Without them the quick plan saves their 84 s, and its verdict's most added runs fit in it."""
    quick, default = cli.parse_args(["--quick"]), cli.parse_args([])
    rates = lambda config: [level.value for level in config.load_levels["aggregate"] if level.kind == "cost"]  # noqa
    assert rates(quick) == [80] and rates(default) == [20, 40, 80]
    p = make_plan(["jvm"], ["aggregate"], quick.load_levels, list(MODELS), 1, quick.duration, quick.warmup,
                  quick.cooldown, cost_repeat=quick.cost_repeat, cost_seconds=quick.cost_duration, twin=True)
    with_ladder = make_plan(["jvm"], ["aggregate"], {"aggregate": [Load("cost", 20), Load("cost", 40),
                                                                   *quick.load_levels["aggregate"]]},
                            list(MODELS), 1, quick.duration, quick.warmup, quick.cooldown,
                            cost_repeat=quick.cost_repeat, cost_seconds=quick.cost_duration, twin=True)
    saved = with_ladder.planned_seconds() - p.planned_seconds()
    verdict = [r for r in p.runs if r.load.value == 80 and not r.twin]
    most_added = 2 * sum(p.run_seconds(r) for r in verdict if r.model == "virtual")  # the model and the cheapest
    assert saved == 84 and most_added == 82 <= saved
