"""The steady cost per request (results/cost.py) and how the report states it: the answer gives the cheapest model's
CPU per request and each other model as a multiple of it, or "not told apart" within the A/A twin's floor; the table
names the figure "steady" and "CPU per request", says what one core could serve and gives the floor."""
import pandas as pd

from benchlab.report.answer import cost_cell
from benchlab.report.steady import cost_by_rate_findings, cost_by_rate_table, cost_notes, cost_table
from benchlab.results.cost import MoreRuns, costs, more_verdict_runs
from benchlab.results.environment import Environment

# a twin that cost 2 % more than its model in every run: a floor of x1.02
SAME = [1.02, 1.021, 1.019]


def cost_runs(figures: dict[str, list[float]], rate=300.0, twin: list[float] | None = SAME) -> pd.DataFrame:
    """Cost runs of each model, each of 10 s or 1,200 requests; `twin`: the first model's A/A twin, each run that
    model's run times the factor."""
    rows = []
    first = next(iter(figures))
    twin_runs = {} if twin is None else {f"{first} twin": [f * ms for f, ms in zip(twin, figures[first])]}
    for model, per_request in {**figures, **twin_runs}.items():
        for rep, ms in enumerate(per_request, start=1):
            rows.append(dict(scenario="jwt-mysql", model=model, load_model="cost", load=rate, repetition=rep,
                             requests=max(1200, round(rate * 10)), errors=0, ok_rps=rate, app_cpu_ms_per_req=ms, k6_cpu_pct=9.0,
                             rss_peak_mb=310.0 + rep, alloc_mb_per_s=40.0, twin=model.endswith(" twin")))
    rows.append(dict(scenario="jwt-mysql", model="virtual", load_model="open", load=900.0, repetition=1,
                     requests=5400, errors=0, ok_rps=900.0, app_cpu_ms_per_req=0.1, k6_cpu_pct=30.0,
                     rss_peak_mb=330.0, alloc_mb_per_s=90.0))  # a search step: not a cost run
    return pd.DataFrame(rows)


def test_each_model_as_a_multiple_of_the_cheapest_with_intervals_from_the_runs():
    found = costs(cost_runs({"virtual": [0.17, 0.18, 0.17], "worker": [0.24, 0.25, 0.23],
                             "reactive": [0.14, 0.15, 0.14]}))
    assert [c.model for c in found] == ["reactive", "virtual", "worker"]
    reactive, virtual, worker = found
    assert reactive.ratio == 1 and round(reactive.cpu_ms, 3) == 0.143 and reactive.low <= 0.143 <= reactive.high
    assert virtual.detectable and 1.1 < virtual.ratio_low < virtual.ratio < virtual.ratio_high < 1.35
    assert worker.detectable and round(worker.ratio, 2) == 1.67 and worker.told_apart
    assert round(reactive.requests_per_core_s) == 6977 and reactive.k6_cpu_ms == 0.3 and reactive.runs == 3


def test_costs_whose_runs_overlap_are_not_told_apart():
    virtual, worker = costs(cost_runs({"virtual": [0.17, 0.22, 0.19], "worker": [0.18, 0.21, 0.20]}))
    assert not worker.detectable and worker.ratio_low < 1 < worker.ratio_high


def test_the_answer_states_the_cost_and_the_table_names_it_steady():
    found = costs(cost_runs({"virtual": [0.17, 0.18, 0.17], "worker": [0.17, 0.19, 0.18],
                             "reactive": [0.14, 0.15, 0.14]}))
    assert cost_cell(found) == ("at 300/s: reactive 0.143 ms; virtual 1.21x (1.19 to 1.23); worker 1.26x (1.17 to "
                                "1.35); A/A floor x1.02")
    table = cost_table(found)
    assert table.title == "Steady-state CPU per request" and "steady CPU per request (ms)" in table.headers
    assert table.text_rows[0][:4] == ["jwt-mysql", "300/s", "reactive", "0.143"]
    assert table.text_rows[0][6] == "x1.02 (virtual twin 1.02x, 1.02 to 1.02)"  # the floor, on the cheapest's row
    assert table.text_rows[1][6] == "-"
    assert table.text_rows[0][7] == "6977" and table.text_rows[0][-1] == "0.300"  # one core's most; k6's CPU


def test_a_failed_request_counts_no_cost_of_its_own():
    runs = cost_runs({"virtual": [0.2, 0.2, 0.2]})
    cost = runs.load_model == "cost"
    runs.loc[cost, "errors"] = runs.requests[cost] // 2  # half failed: the CPU went to the other half
    assert round(costs(runs)[0].cpu_ms, 3) == 0.4


def test_three_runs_that_scatter_tell_no_difference_their_pairs_do_not_hold():
    """A quick run's jwt-mysql cost runs: virtual's mean is 1.12x reactive's, yet reactive's own runs went 0.83, 0.74,
    0.68 while virtual's stayed near 0.83: a bootstrap over the 3 runs called it a difference (1.01 to 1.24), which
    the next run reversed."""
    virtual, = [c for c in costs(cost_runs({"virtual": [0.865, 0.825, 0.835], "worker": [0.810, 0.769, 0.785],
                                            "reactive": [0.833, 0.740, 0.680]})) if c.model == "virtual"]
    assert round(virtual.ratio, 2) == 1.12 and not virtual.detectable and virtual.ratio_low < 1 < virtual.ratio_high


def test_a_difference_within_the_twins_spread_is_not_a_lead():
    """Recorded, the same build in two apps, JWT + MySQL at 1,000/s: one app found worker 1.27x reactive, the other
    1.13x with an interval of 1.01 to 1.27. A twin that cost 12 % more than its model in the same runs makes the
    1.13x no lead; a twin within 2 % would have."""
    runs = {"reactive": [0.306, 0.282, 0.316], "worker": [0.336, 0.337, 0.352]}
    wide = costs(cost_runs(runs, rate=1000.0, twin=[1.12, 1.10, 1.14]))
    worker = wide[1]
    assert worker.detectable and 1.0 < worker.ratio_low < worker.floor.factor and not worker.told_apart
    assert round(worker.floor.factor, 2) == 1.07  # the least the twin strayed beyond its runs' scatter
    assert cost_cell(wide).endswith(f"; worker: not told apart; A/A floor x{worker.floor.factor:.2f}")
    table = cost_table(wide)
    assert table.text_rows[1][5].startswith("1.13x (1.0") and table.text_rows[1][5].endswith(", not told apart")
    assert table.text_rows[0][6].startswith(f"x{worker.floor.factor:.2f} (reactive twin 1.12x")
    steady = {"reactive": [0.270, 0.272, 0.268], "worker": [0.346, 0.343, 0.345]}  # reactive's runs scatter less
    narrow = costs(cost_runs(steady, rate=1000.0))
    assert narrow[1].told_apart and round(narrow[1].floor.factor, 2) == 1.02
    assert not costs(cost_runs(steady, rate=1000.0, twin=[1.32, 1.30, 1.34]))[1].told_apart


def test_a_twin_within_its_own_scatter_sets_no_floor_and_the_ratios_interval_decides():
    """Recorded, quick run 10, JWT + MySQL at 1,000/s: the twin 1.04x its model (0.95 to 1.13), worker 1.14x reactive
    (1.05 to 1.25). The twin's ratio as the floor made worker's lead hinge on the twin's luck: told apart in three runs
    of four. Its runs' scatter is in worker's interval already."""
    runs = {"reactive": [0.258, 0.286, 0.268, 0.273], "worker": [0.307, 0.302, 0.312, 0.319]}
    found = costs(cost_runs(runs, rate=1000.0, twin=[1.10, 0.94, 1.02, 1.06]))
    worker = found[1]
    assert found[0].floor.low < 1 < found[0].floor.high and found[0].floor.factor == 1.0
    assert worker.told_apart and 1.0 < worker.ratio_low < 1.1
    assert cost_cell(found).endswith("; A/A floor x1.00")


def test_runtimes_compared_as_models_each_bring_a_twin_and_the_widest_floor_holds():
    """The report labels each runtime's models "virtual (jvm-cpu0.25)", its twin "virtual twin (jvm-cpu0.25)"."""
    runs = pd.concat([cost_runs({f"virtual ({rt})": [0.17, 0.18, 0.17], f"worker ({rt})": [0.24, 0.25, 0.23]},
                                twin=twin) for rt, twin in (("a", SAME), ("b", [1.10, 1.12, 1.11]))], ignore_index=True)
    on_twin = runs.twin.fillna(False).astype(bool)
    runs.loc[on_twin, "model"] = runs.loc[on_twin, "model"].str.replace(r"^(\w+) \((\w+)\) twin$", r"\1 twin (\2)",
                                                                        regex=True)
    found = costs(runs)
    assert sorted(runs[on_twin].model.unique()) == ["virtual twin (a)", "virtual twin (b)"]
    assert {round(c.floor.factor, 2) for c in found} == {1.09} and found[0].floor.model == "virtual (b)"
    assert "virtual twin" not in {c.model for c in found}


def test_without_a_twin_no_ratio_is_told_apart():
    """A table written before the A/A control: a ratio far beyond its interval stays a difference, not a verdict."""
    found = costs(cost_runs({"virtual": [0.17, 0.18, 0.17], "worker": [0.24, 0.25, 0.23]}, twin=None))
    assert found[1].detectable and not found[1].told_apart and found[0].floor is None
    assert cost_cell(found) == "at 300/s: virtual 0.173 ms; worker: not told apart; no A/A twin"


def test_the_verdict_reads_at_the_highest_rate_and_a_falling_cost_is_said():
    """Three cost rates: the answer reads the highest, the table gives each model's cost at each rate, and a model
    whose interval at the lowest rate lies above its interval at the highest is said to fall with the rate."""
    runs = pd.concat([cost_runs({"virtual": [v * f for v in (0.17, 0.18, 0.17)], "reactive": [r * f for r in
                                                                                             (0.14, 0.15, 0.14)]},
                                rate=rate, twin=SAME if rate == 1000 else None)
                      for rate, f in ((250.0, 2.0), (500.0, 1.4), (1000.0, 1.0))], ignore_index=True)
    found = costs(runs)
    assert cost_cell(found).startswith("at 1000/s: reactive 0.143 ms; virtual 1.21x")
    table = cost_by_rate_table(found)
    assert table.headers == ["scenario", "rate", "runs", "virtual", "reactive"]  # the models in their own order
    assert [r[:3] for r in table.text_rows] == [["jwt-mysql", f"{rate}/s", "3"] for rate in (250, 500, 1000)]
    assert table.text_rows[0][4].startswith("0.287 (") and table.text_rows[2][4].startswith("0.143 (")
    assert cost_by_rate_findings(found) == [
        "jwt-mysql, reactive: the cost falls with the rate, 0.287 ms at 250/s, 0.143 ms at 1000/s (2.00x).",
        "jwt-mysql, virtual: the cost falls with the rate, 0.347 ms at 250/s, 0.173 ms at 1000/s (2.00x)."]


def test_a_cost_the_same_at_every_rate_or_too_scattered_to_tell_is_not_said_to_fall():
    runs = pd.concat([cost_runs({"virtual": [0.17, 0.18, 0.17], "reactive": [0.14, 0.15, 0.14]}, rate=rate)
                      for rate in (250.0, 1000.0)], ignore_index=True)
    assert cost_by_rate_findings(costs(runs)) == []
    # two runs at 500/s, 0.375 ms on average, the interval's low end below 0: no claim
    scattered = pd.concat([cost_runs({"reactive": [0.30, 0.45]}, rate=500.0, twin=None),
                           cost_runs({"reactive": [0.27, 0.28, 0.285]}, rate=1000.0, twin=None)], ignore_index=True)
    assert cost_by_rate_findings(costs(scattered)) == []
    assert costs(scattered)[0].low == 0  # two scattered runs allow a negative mean; a cost is not negative
    # recorded at 20/s: two runs of 60 requests read 1.750 ms each, their scatter below the CPU clock's 10 ms ticks
    same = costs(cost_runs({"reactive": [1.75, 1.75]}, twin=None))[0]
    assert (same.low, same.high) == (0, float("inf"))  # no interval, neither "nan to nan" nor a point
    assert cost_table([same]).text_rows[0][4] == "too few requests to tell"
    assert cost_by_rate_table(costs(cost_runs({"virtual": [0.17, 0.18, 0.17]}))) is None  # one rate: no such table


def test_runs_that_agree_within_one_tick_of_the_cpu_clock_bound_no_cost():
    """Recorded at 250/s: two runs of about 1,000 requests read 0.2390 and 0.2392 ms, shown "0.239 to 0.239". A
    tick of 10 ms is 0.01 ms per request there: the ticks hid the runs' scatter, which reads as certainty."""
    hidden = cost_runs({"worker": [0.2390, 0.2392]}, rate=250.0, twin=None).assign(requests=1000)
    assert cost_table(costs(hidden)).text_rows[0][4] == "too few requests to tell"
    # the same two figures from runs of 100,000 requests each: a tick is 0.0001 ms per request, below their scatter
    shown = cost_runs({"worker": [0.2390, 0.2392]}, rate=250.0, twin=None).assign(requests=100_000)
    assert cost_table(costs(shown)).text_rows[0][4] == "0.238 to 0.240"


def test_a_ratio_beyond_the_variation_between_apps_is_given_with_its_interval():
    found = costs(cost_runs({"virtual": [0.17, 0.18, 0.17], "worker": [0.24, 0.25, 0.23],
                             "reactive": [0.14, 0.15, 0.14]}))
    assert cost_cell(found).endswith("; worker 1.67x (1.59 to 1.77); A/A floor x1.02")


def test_the_verdict_names_the_other_models_in_their_own_order_whichever_costs_more():
    """Two models a few percent apart may swap places from one app to the next; the verdict says it the same way."""
    for virtual, worker in (([0.350, 0.352, 0.349], [0.344, 0.346, 0.345]), ([0.344, 0.346, 0.345], [0.350, 0.352, 0.349])):
        cell = cost_cell(costs(cost_runs({"virtual": virtual, "worker": worker,
                                          "reactive": [0.27, 0.272, 0.271]}, rate=1000.0)))
        assert cell.index("; virtual ") < cell.index("; worker "), cell


def test_runtimes_whose_cost_rates_moved_below_their_knees_each_get_a_verdict_at_their_own_rate():
    """The 0.5 CPU pod's block ran its cost rates at 300 and 1,000/s, the 0.25 CPU pod's moved to 300/s alone: a clause
    each, and at 300/s neither runtime's models are compared with the other's (their ladders differ)."""
    def pod(runtime, rate, virtual, worker):
        return cost_runs({f"virtual ({runtime})": virtual, f"worker ({runtime})": worker}, rate=rate).assign(
            runtime=runtime)
    runs = pd.concat([pod("jvm-cpu0.5", 1000.0, [0.17, 0.18, 0.17], [0.24, 0.25, 0.23]),
                      pod("jvm-cpu0.5", 300.0, [0.20, 0.21, 0.20], [0.26, 0.27, 0.25]),
                      pod("jvm-cpu0.25", 300.0, [0.50, 0.52, 0.51], [0.40, 0.41, 0.42])], ignore_index=True)
    found = costs(runs)
    assert [(c.runtime, c.rate, c.ladder) for c in found if c.ratio == 1] == [
        ("jvm-cpu0.5", 1000, "300, 1000"), ("jvm-cpu0.5", 300, "300, 1000"), ("jvm-cpu0.25", 300, "300")]
    assert cost_cell(found) == (
        "at 1000/s: virtual (jvm-cpu0.5) 0.173 ms; worker (jvm-cpu0.5) 1.38x (1.31 to 1.46); A/A floor x1.02. "
        "At 300/s: worker (jvm-cpu0.25) 0.410 ms; virtual (jvm-cpu0.25) 1.24x (1.18 to 1.31); A/A floor x1.02")


def test_the_report_names_each_block_whose_cost_rates_moved_and_why():
    moved = "jvm-cpu0.25 jwt-mysql: cost rates 250, 500, 1,000/s moved to 76, 150, 300/s, below worker's capacity of 380/s"
    assert cost_notes(Environment(cost_rates_moved=[moved])) == [f"{moved}: past a knee a run measures a backlog, "
                                                                 "not a cost."]
    assert cost_notes(Environment()) == []


def test_an_undecided_verdict_gets_runs_up_to_the_most_for_it_and_the_cheapest_only():
    """Recorded, quick run 12, JWT + MySQL at 1,000/s: worker 1.14x reactive (0.98 to 1.33), one reactive run of 0.277
    ms against 0.31 to 0.32; virtual 1.26x, told apart. Worker and reactive run until they hold the most."""
    runs = cost_runs({"virtual": [0.391, 0.362, 0.386, 0.395], "worker": [0.382, 0.336, 0.351, 0.327],
                      "reactive": [0.317, 0.320, 0.277, 0.310]}, rate=1000.0, twin=[1.0, 1.08, 1.04, 0.97])
    assert not costs(runs)[1].told_apart and costs(runs)[2].told_apart
    assert more_verdict_runs(runs, "jwt-mysql", 8) == MoreRuns(1000.0, 8, 4, ("reactive", "worker"))
    assert more_verdict_runs(runs, "jwt-mysql", 6) == MoreRuns(1000.0, 6, 2, ("reactive", "worker"))
    assert more_verdict_runs(runs, "jwt-mysql", 4) is None  # they hold the most already


def test_an_undecided_verdict_the_most_runs_could_not_clear_gets_none():
    """Recorded, quick run 17, JWT + MySQL at 1,000/s: worker 1.06x reactive (0.94 to 1.19) against a floor of x1.03,
    virtual 1.10x (1.03 to 1.17). Eight runs could clear virtual's lead on the floor, not worker's."""
    runs = cost_runs({"virtual": [0.260, 0.238, 0.248, 0.233], "worker": [0.262, 0.228, 0.238, 0.218],
                      "reactive": [0.223, 0.223, 0.228, 0.218]}, rate=1000.0, twin=[1.081, 1.063, 1.056, 1.124])
    assert [c.undecided for c in costs(runs)] == [False, True, True]
    assert more_verdict_runs(runs, "jwt-mysql", 8) == MoreRuns(1000.0, 8, 4, ("reactive", "virtual"))


def test_an_undecided_verdict_is_not_given_as_few_runs_as_its_first_scatter_promises():
    """Recorded, quick run 16, the aggregation at 80/s: virtual 1.21x reactive (0.99 to 1.47) after 4 runs, undecided.
    Two more runs each would have cleared the floor 8 times in 10, were that scatter the truth; those two read
    reactive 1.144 ms (its others 0.67 to 0.75) and virtual 1.315 ms, and left 1.21x (0.92 to 1.58) undecided."""
    planned = {"reactive": [0.720, 0.672, 0.743, 0.670], "virtual": [0.744, 0.868, 0.868, 0.916],
               "worker": [0.868, 0.943, 0.990, 0.943]}
    runs = cost_runs(planned, rate=80.0, twin=[1.13, 0.94, 1.34, 1.14])
    virtual = next(c for c in costs(runs) if c.model == "virtual")
    assert virtual.undecided and round(virtual.ratio, 2) == 1.21 and round(virtual.ratio_low, 2) == 0.99
    assert more_verdict_runs(runs, "jwt-mysql", 8) == MoreRuns(80.0, 8, 4, ("reactive", "virtual"))
    added = {"reactive": [*planned["reactive"], 1.144, 0.746], "virtual": [*planned["virtual"], 0.943, 1.315],
             "worker": planned["worker"]}
    as_before = next(c for c in costs(cost_runs(added, rate=80.0, twin=[1.13, 0.94, 1.34, 1.14]))
                     if c.model == "virtual")
    assert as_before.undecided and round(as_before.ratio_low, 2) == 0.92 and round(as_before.ratio_high, 2) == 1.58


def test_verdicts_told_apart_ties_and_a_run_without_a_twin_get_no_more_runs():
    apart = {"reactive": [0.270, 0.272, 0.268], "worker": [0.346, 0.343, 0.345]}
    assert more_verdict_runs(cost_runs(apart, rate=1000.0), "jwt-mysql", 12) is None
    below_floor = {"reactive": [0.30, 0.28, 0.32], "worker": [0.29, 0.31, 0.30]}  # its estimate within the floor
    assert more_verdict_runs(cost_runs(below_floor, twin=[1.10, 1.12, 1.11]), "jwt-mysql", 12) is None
    undecided = {"reactive": [0.30, 0.28, 0.32], "worker": [0.35, 0.30, 0.34]}
    assert more_verdict_runs(cost_runs(undecided), "jwt-mysql", 12) == MoreRuns(300.0, 12, 9, ("reactive", "worker"))
    assert more_verdict_runs(cost_runs(undecided, twin=None), "jwt-mysql", 12) is None


def test_the_report_names_each_block_whose_verdict_got_more_runs():
    added = "jvm aggregate: virtual undecided against reactive at 80/s, 4 more repetitions for 8 each"
    assert cost_notes(Environment(verdict_runs_added=[added])) == [
        f"{added}: each ratio's estimate lay beyond the A/A floor, its interval did not; read again once, after them all."]


def test_a_ratio_and_its_interval_come_from_the_same_paired_runs_when_the_counts_differ():
    """Recorded: added runs gave the cheapest 7 runs and virtual 4, and the answer read "virtual 1.15x (1.18 to
    1.26)": a ratio of means over all runs beside an interval over the pairs. Both now come from the pairs: the
    geometric mean of their ratios, inside its own t interval."""
    import math

    import numpy as np
    reactive = [0.300, 0.310, 0.305, 0.312, 0.250, 0.252, 0.248]  # its 3 added runs cheaper than its first 4
    virtual = [0.360, 0.374, 0.362, 0.371]
    found = costs(cost_runs({"virtual": virtual, "reactive": reactive}, rate=1000.0))
    cheapest, other = found
    assert (cheapest.model, cheapest.runs, other.runs, other.pairs) == ("reactive", 7, 4, 4)
    assert other.ratio == np.exp(np.mean(np.log(np.array(virtual) / reactive[:4])))
    assert other.ratio_low <= other.ratio <= other.ratio_high
    assert not other.ratio_low <= other.cpu_ms / cheapest.cpu_ms <= other.ratio_high  # the ratio of means was not
    floor = cheapest.floor  # the twin of virtual, 3 runs, paired the same way
    assert floor.runs == 3 and math.isclose(floor.ratio, np.exp(np.mean(np.log(SAME))))
    assert floor.low <= floor.ratio <= floor.high


def test_a_builds_change_and_its_interval_come_from_the_same_pairs():
    from benchlab.results.cost import gains
    rows = [dict(scenario="jwt-mysql", model="worker", runtime=rt, load_model="cost", load=1000.0, repetition=rep,
                 requests=5000, errors=0, app_cpu_ms_per_req=ms)
            for rt, values in (("jvm-old", [0.35, 0.36, 0.34, 0.35, 0.30, 0.30]), ("jvm", [0.31, 0.32, 0.31, 0.30]))
            for rep, ms in enumerate(values, start=1)]
    found, = gains(pd.DataFrame(rows), "jvm-old", "jvm", cost_repeat=2)
    assert found.pairs == 4 and found.low <= found.ratio <= found.high


def test_one_run_gives_its_figure_and_1_run_never_an_interval():
    """One repetition says nothing of the scatter from run to run: the cost, its ratio and the floor say "1 run"."""
    found = costs(cost_runs({"virtual": [0.17], "reactive": [0.14]}, twin=[1.02]))
    table = cost_table(found)
    assert [row[4] for row in table.text_rows] == ["1 run", "1 run"]
    assert table.text_rows[0][6] == "x1.00 (virtual twin 1.02x, 1 run)"
    assert table.text_rows[1][5] == "1.21x, 1 run"
    assert cost_cell(found) == "at 300/s: reactive 0.140 ms; virtual 1.21x, 1 run; A/A floor x1.00"


def test_a_cost_its_runs_do_not_bound_is_too_few_requests_to_tell_and_so_is_its_ratio():
    """Recorded at 20/s: two runs of 60 requests, their interval "0.000 to 1.2 ms": the CPU clock's 10 ms ticks
    scatter them. An interval wider than the cost itself says nothing; nor does a ratio of that cost."""
    low_rate = {"virtual": [0.20, 1.00], "worker": [0.50, 0.52], "reactive": [0.40, 0.41]}
    found = costs(cost_runs(low_rate, rate=20.0, twin=None))
    by_model = {c.model: c for c in found}
    assert by_model["virtual"].unsettled == "too few requests to tell" and by_model["worker"].unsettled is None
    rows = {row[2]: row for row in cost_table(found).text_rows}
    assert rows["virtual"][4] == rows["virtual"][5] == "too few requests to tell"
    assert rows["worker"][4] == "0.383 to 0.637" and rows["worker"][5].startswith("1.26x (")
    assert cost_cell(found) == ("at 20/s: reactive 0.405 ms; worker: not told apart; virtual: too few requests to "
                                "tell; no A/A twin")
    # the cheapest unsettled: no ratio of it can be read
    cheapest_scattered = costs(cost_runs({"reactive": [0.05, 0.40], "worker": [0.50, 0.52]}, rate=20.0, twin=None))
    assert cost_table(cheapest_scattered).text_rows[1][5] == "too few requests to tell"
    # across rates: the table says it, the chart draws no bar for it, and it is not said to fall with the rate
    runs = pd.concat([cost_runs({"virtual": [0.20, 1.00]}, rate=20.0, twin=None),
                      cost_runs({"virtual": [0.170, 0.172]}, rate=1000.0, twin=None)], ignore_index=True)
    assert cost_by_rate_table(costs(runs)).text_rows[0][3] == "0.600, too few requests to tell"
    assert cost_by_rate_findings(costs(runs)) == []


def test_a_cost_run_where_k6_paid_more_per_request_than_the_app_is_listed_with_both_figures():
    """Recorded, quick runs at 1,000/s: k6 spent 0.68 to 0.70 ms of CPU per JWT + MySQL request, over twice the app's
    0.27 to 0.38 ms. On a shared machine the load generator then weighs on the figures as other processes do."""
    from benchlab.report.steady import k6_notes
    from benchlab.results.cost import K6AboveApp, k6_above_app
    runs = cost_runs({"virtual": [0.17, 0.18, 0.17], "reactive": [0.14, 0.15, 0.14]}, twin=None)
    runs["k6_cpu_pct"] = 3.0  # 0.1 ms per request at 300/s; reactive's last two runs paid less than that
    runs.loc[(runs.model == "reactive") & (runs.repetition > 1), "app_cpu_ms_per_req"] = [0.08, 0.09]
    assert k6_above_app(runs) == [K6AboveApp("jwt-mysql", "reactive", 300.0, 2, 0.1, 0.08),
                                  K6AboveApp("jwt-mysql", "reactive", 300.0, 3, 0.1, 0.09)]
    assert k6_notes(runs) == ["jwt-mysql, reactive at 300/s: k6 spent more CPU per request than the app in 2 of 3 "
                              "cost runs, k6 0.100 ms against the app's 0.080 to 0.090 ms."]
    assert k6_notes(runs.assign(k6_cpu_pct=1.0)) == []  # the app paid more in every run: nothing to say
