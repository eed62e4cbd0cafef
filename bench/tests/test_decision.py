"""The decision table: per runtime, one replica's capacity, memory, start and warm-up, its p99 and quota's throttling
at the knee, the replicas, cores and GB a target load needs and their month; --target-load's and the prices' checks."""
import pandas as pd
import pytest

from benchlab import cli
from benchlab.model import LoadKind
from benchlab.report.decision import decision_table, replicas, spread
from benchlab.results.slo import Capacity
from conftest import environment

STEPS = (200.0, 420.0, 600.0, 840.0, 1000.0, 1400.0, 1700.0, 2000.0)


def starts(*seconds):
    return [{"first_request_s": s, "quarkus_started_s": s, "rss_mb": 100.0} for s in seconds]


def capacity(model, rate, low, high):
    return Capacity("jwt-mysql", model, rate, low, high, STEPS)


def compared(repetitions=3, **facts):
    env = environment(app_cpus=0.5, cores=2, target_load=5000.0, runtime_info={
        "jvm": {"cold_starts": starts(4.8, 5.0, 4.9), "command": "jvm",
                "warmup_curve": {"ok_per_s": [100] * 20 + [1000] * 40, "load": "jwt-mysql"}},
        "native": {"cold_starts": starts(0.26, 0.27, 0.28), "command": "native",
                   "warmup_curve": {"ok_per_s": [400] * 60, "load": "jwt-mysql"}}}, **facts)
    runs = pd.DataFrame({"runtime": ["jvm", "jvm", "native", "native"], "rss_peak_mb": [401.0, 390.0, 226.0, 210.0],
                         "model": ["virtual (jvm)", "reactive (jvm)", "virtual (native)", "worker (native)"],
                         "load": [1700.0, 1200.0, 840.0, 200.0], "p99_ms": [41.5, 30.0, 22.0, 80.0],
                         "throttled_pct": None, "throttled_ms_per_s": None,
                         "scenario": "jwt-mysql", "load_model": LoadKind.OPEN, "repetition": repetitions})
    caps = [capacity("virtual (jvm)", 1700, 1400, 2000), capacity("reactive (jvm)", 1200, 1000, 1400),
            capacity("virtual (native)", 840, 600, 1000), capacity("worker (native)", 0, 0, 200)]
    return decision_table(runs, env, caps)


def test_each_runtime_s_best_model_is_sized_for_the_target_load_with_its_range():
    table = compared()
    rows = {row[1]: row for row in table.text_rows}
    assert list(rows) == ["jvm", "native"] and table.title == "Runtimes for 5,000 requests/s"
    # 5,000/s over 1,700/s: 3 replicas; the interval 1,400 to 2,000 allows 3 to 4; each of 0.5 CPU and 401 MB of RSS
    assert rows["jvm"][2:15] == ["0.5 CPU", "virtual", "1700/s (1400 to 2000)", "41.5", "-", "401", "4.90 s", "20 s",
                                 "3,400/s", "4,341/s", "3 (3 to 4)", "1.5 (1.5 to 2.0)", "1.2 (1.2 to 1.6)"]
    assert rows["native"][2:15] == ["0.5 CPU", "virtual", "840/s (600 to 1000)", "22.0", "-", "226", "0.27 s", "0 s",
                                    "1,680/s", "3,806/s", "6 (5 to 9)", "3.0 (2.5 to 4.5)", "1.3 (1.1 to 2.0)"]
    assert "GB: the replicas' RSS under load, as no memory limit was set." in table.note


def test_from_one_repetition_the_models_the_answer_ties_are_named_with_the_best():
    rows = {row[1]: row for row in compared(repetitions=1).text_rows}
    assert rows["jvm"][3] == "virtual, reactive (tied)" and rows["native"][3] == "virtual"


def two_pods(small: Capacity, rss_mb: tuple[float, float], **facts):
    """The decision table of a jar in pods of 0.25 and 0.5 CPU, 512 MB each; the larger held 1,000/s."""
    env = environment(cores=2, target_load=5000.0, pod_sizes={"jvm-cpu0.25": "0.25 CPU, 512 MB",
                                                              "jvm-cpu0.5": "0.5 CPU, 512 MB"}, runtime_info={
        "jvm-cpu0.25": {"limits": {"cpus": 0.25, "memory": "512m"}, "command": "jvm"},
        "jvm-cpu0.5": {"limits": {"cpus": 0.5, "memory": "512m"}, "command": "jvm"}}, **facts)
    runs = pd.DataFrame({"runtime": ["jvm-cpu0.25", "jvm-cpu0.5"], "rss_peak_mb": list(rss_mb),
                         "model": ["virtual (jvm-cpu0.25)", "virtual (jvm-cpu0.5)"], "load": [small.rate, 1000.0],
                         "p99_ms": [48.0, 30.0], "throttled_pct": [31.0, 2.0], "throttled_ms_per_s": [12.0, 0.4],
                         "scenario": "jwt-mysql", "load_model": LoadKind.OPEN, "repetition": 3})
    return decision_table(runs, env, [capacity("virtual (jvm-cpu0.5)", 1000, 1000, 1000), small])


def test_each_pod_size_is_a_row_its_cores_and_gb_those_of_its_limits():
    table = two_pods(capacity("virtual (jvm-cpu0.25)", 500, 500, 500), (300.0, 350.0))
    rows = {row[1]: row for row in table.text_rows}
    # 5,000/s: 10 pods of 0.25 CPU (2.5 cores, 5 GB of limits) or 5 of 0.5 CPU (2.5 cores, 2.5 GB)
    assert rows["jvm-cpu0.25"][2] == "0.25 CPU, 512 MB" and rows["jvm-cpu0.25"][10:15] == [
        "2,000/s", "1,000/s", "10", "2.5", "5.0"]
    assert rows["jvm-cpu0.5"][10:15] == ["2,000/s", "2,000/s", "5", "2.5", "2.5"]
    # the pods' cost at one rate, without the twin (cli: cost_ladder and twin off): said once, where it bites
    assert "Each pod's CPU per request at one rate, without the A/A twin;" in table.note
    assert "GB: the pods' memory limits (--app-memory)." in table.note


def test_each_pod_shows_its_p99_and_its_quotas_throttling_at_the_knee():
    rows = {row[1]: row for row in two_pods(capacity("virtual (jvm-cpu0.25)", 500, 500, 500), (300.0, 350.0)).text_rows}
    assert rows["jvm-cpu0.25"][5:7] == ["48.0", "31 % of periods, 12 ms/s"]
    assert rows["jvm-cpu0.5"][5:7] == ["30.0", "2 % of periods, 0 ms/s"]


def test_a_pods_capacity_is_its_interval_over_its_searches_and_an_added_search_is_said_under_the_table():
    said = ("jvm-cpu0.25 jwt-mysql: its searches found virtual at 250 and 500/s, more than x1.25 apart: one more "
            "search")
    table = two_pods(capacity("virtual (jvm-cpu0.25)", 420, 250, 600), (300.0, 350.0), searches_added=[said])
    rows = {row[1]: row for row in table.text_rows}
    # the median of three searches, from the lowest to the step above the highest; replicas over that range
    assert rows["jvm-cpu0.25"][4] == "420/s (250 to 600)" and rows["jvm-cpu0.25"][12] == "12 (9 to 20)"
    assert table.note.endswith(f"Searched once more: {said}.")
    assert "each pod's capacity over its searches, each on a fresh app" in table.note


def test_a_month_counts_core_hours_and_gb_hours_and_without_prices_the_cheapest_is_by_cores():
    table = two_pods(capacity("virtual (jvm-cpu0.25)", 400, 400, 420), (300.0, 350.0))
    rows = {row[1]: row for row in table.text_rows}
    # 13 pods of 0.25 CPU, 512 MB: 3.25 cores and 6.5 GB, 730 hours; 5 of 0.5 CPU: 2.5 cores, 2.5 GB
    assert rows["jvm-cpu0.25"][15:] == ["2,372 (2,190 to 2,372)", "4,745 (4,380 to 4,745)"]
    assert rows["jvm-cpu0.5"][15:] == ["1,825", "1,825"] and "USD a month" not in table.headers
    assert "The cheapest for 5,000/s in jwt-mysql: jvm-cpu0.5, 2.5 cores." in table.note
    assert "--price-core-hour and --price-gb-hour give its cost" in table.note


def test_with_prices_the_month_has_a_cost_and_the_cheapest_is_by_cost():
    # 9 pods of 0.25 CPU need fewer cores than 5 of 0.5 CPU (2.25 against 2.5), but more GB (4.5 against 2.5)
    small = capacity("virtual (jvm-cpu0.25)", 600, 600, 600)
    unpriced = two_pods(small, (300.0, 350.0))
    assert "The cheapest for 5,000/s in jwt-mysql: jvm-cpu0.25, 2.25 cores." in unpriced.note
    table = two_pods(small, (300.0, 350.0), price_core_hour=0.04048, price_gb_hour=0.1)
    rows = {row[1]: row for row in table.text_rows}
    assert table.headers[-1] == "USD a month"
    # a month of a 0.25 CPU, 0.5 GB pod: 730 x (0.25 x 0.04048 + 0.5 x 0.1) = 43.89 USD, nine 395; of a 0.5 CPU one
    # 51.28 USD, five 256
    assert rows["jvm-cpu0.25"][-1] == "395" and rows["jvm-cpu0.5"][-1] == "256"
    assert "The cheapest for 5,000/s in jwt-mysql: jvm-cpu0.5, 256 USD a month." in table.note
    assert "A month: 730 hours, at 0.04048 USD a core-hour and 0.1 USD a GB-hour." in table.note


@pytest.mark.parametrize("argv, message", [
    (["--price-core-hour", "-0.04", "--price-gb-hour", "0.004"], "--price-core-hour -0.04: a price in USD of 0 or more"),
    (["--price-core-hour", "0.04", "--price-gb-hour", "-1"], "--price-gb-hour -1: a price in USD of 0 or more"),
    (["--price-core-hour", "0.04"], "--price-core-hour and --price-gb-hour: both or neither"),
])
def test_a_price_that_makes_no_sense_stops_the_bench_with_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.parse_args(["--quick", *argv])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err.strip().splitlines()[-1]


def test_no_price_is_assumed_unless_given():
    assert (cli.parse_args(["--quick"]).price_core_hour, cli.parse_args(["--quick"]).price_gb_hour) == (None, None)
    given = cli.parse_args(["--quick", "--price-core-hour", "0.04048", "--price-gb-hour", "0.004445"])
    assert (given.price_core_hour, given.price_gb_hour) == (0.04048, 0.004445)


def test_a_pod_where_no_model_held_a_rate_says_so_and_sizes_nothing():
    nothing = Capacity("jwt-mysql", "virtual (jvm-cpu0.25)", 0, 0, 120, (120.0, 250.0, 500.0))
    rows = {row[1]: row for row in two_pods(nothing, (430.0, 480.0)).text_rows}
    assert rows["jvm-cpu0.25"][3:8] == ["none", "none held 120/s", "-", "-", "430"]
    assert rows["jvm-cpu0.25"][10:] == ["-"] * 7


def test_one_runtime_has_no_decision_to_make():
    env = environment(app_cpus=0.5, cores=2)
    runs = pd.DataFrame({"runtime": ["jvm"], "rss_peak_mb": [400.0]})
    assert decision_table(runs, env, [capacity("virtual", 1700, 1400, 2000)]) is None


def test_a_capacity_no_rate_bounded_gives_at_most_that_many_replicas():
    env = environment(app_cpus=0.5, cores=2)
    top = Capacity("jwt-mysql", "virtual (jvm)", 2000, 2000, 2000, STEPS)  # held the highest step
    assert replicas(5000, top, env) == (1, None, 3) and spread(1, None, 3) == "at most 3"


@pytest.mark.parametrize("given", ["-5", "0", "many", "inf"])
def test_a_target_load_that_makes_no_sense_stops_the_bench_with_one_line(given, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.parse_args(["--quick", "--target-load", given])
    assert stopped.value.code == 2
    assert f"--target-load {given}: a rate in requests/s above 0" in capsys.readouterr().err


def test_the_target_load_is_5000_unless_given():
    assert cli.parse_args(["--quick"]).target_load == 5000
    assert cli.parse_args(["--quick", "--target-load", "12000"]).target_load == 12000
