import pandas as pd

from benchlab.report import footprint
from conftest import environment


def test_time_to_steady_is_where_the_curve_stays_near_its_final_level():
    curve = [10, 40, 80, 150, 300, 600, 900, 1000, 1000, 990] + [1000] * 20
    steady = footprint.time_to_steady(curve)
    assert steady.level == 1000
    # the 5-second mean from second 5 is 898, just under 90 % of 1000; from second 6 on every one is 978 or more
    assert steady.seconds == 6
    assert steady.describe(len(curve)) == "6 s of 30 s"


def test_a_curve_steady_from_its_first_second_is_steady_at_0():
    assert footprint.time_to_steady([500] * 20) == footprint.Steady(0, 500)


def test_a_dip_after_warming_up_moves_the_steady_point_past_it():
    assert footprint.time_to_steady([1000] * 10 + [100] * 5 + [1000] * 15).seconds == 15


def test_too_short_or_never_steady_curves_say_so():
    too_short = footprint.time_to_steady([100] * (footprint.SHORTEST_CURVE_S - 1))
    assert too_short == footprint.Steady(None, None) and too_short.describe(14) == "-"
    # the last 10 s: five at 1000, five at 10 -> level 505; the last 5-second mean (10) is far below it
    never = footprint.time_to_steady([1000] * 20 + [10] * 5)
    assert never == footprint.Steady(None, 505) and never.describe(25) == "not within 25 s"


def test_cold_start_summaries_leave_out_what_was_not_measured():
    starts = [{"first_request_s": 2.0, "quarkus_started_s": 1.5, "rss_mb": 200.0},
              {"first_request_s": 3.0, "quarkus_started_s": None, "rss_mb": 210.0},
              {"first_request_s": 2.5, "quarkus_started_s": 1.7, "rss_mb": None}]
    s = footprint.cold_start_summaries(starts)
    assert s["first_request_s"] == {"n": 3, "median": 2.5, "min": 2.0, "max": 3.0}
    assert s["quarkus_started_s"]["n"] == 2 and s["rss_mb"]["median"] == 205.0


def starts(*seconds):
    return [{"first_request_s": s, "quarkus_started_s": s - 0.5, "rss_mb": 200.0} for s in seconds]


def test_table_has_each_measured_runtime_and_says_why_native_has_no_figures():
    env = environment(runtime_info={
        "jvm": {"cold_starts": starts(2.0, 2.4, 2.2, 2.1, 3.0), "rss_idle_mb": 230.0, "command": "jvm: java -jar",
                "warmup_curve": {"ok_per_s": [100] * 5 + [1000] * 25, "load": "jwt-mysql on virtual, 16 VUs"}},
        "jvm-aot": {"cold_starts": starts(1.2), "command": "jvm-aot: cd target/quarkus-app && java",
                    "start_warnings": ["An error has occurred while processing the AOT cache."]}})
    runs = pd.DataFrame({"runtime": ["jvm", "jvm", "jvm-aot"], "rss_peak_mb": [400.0, 450.0, 380.0]})
    t = footprint.footprint_table(env, runs)
    by_name = {r[0]: r for r in t.text_rows}
    assert list(by_name) == ["jvm", "jvm-aot", "native", "container-native"]
    assert all(len(r) == len(t.headers) for r in t.text_rows)
    assert by_name["jvm"][1:4] == ["2.20 s (2.00-3.00, n=5)", "1.70 s (1.50-2.50, n=5)", "200 MB (200-200, n=5)"]
    assert by_name["jvm"][4:8] == ["230", "450", "1000/s", "5 s of 30 s"]
    assert by_name["jvm-aot"][4:8] == ["-", "380", "-", "-"]
    assert by_name["jvm-aot"][8].endswith("the JVM reported: An error has occurred while processing the AOT cache.")
    assert by_name["native"][1].startswith("not built: no target/*-runner; deploy/native/toolchain")
    assert by_name["native"][2:] == ["-"] * 7
    assert "jwt-mysql on virtual, 16 VUs" in t.note


def test_a_native_executable_that_was_not_asked_for_is_named():
    env = environment(runtime_info={"jvm": {"cold_starts": starts(2.0)}}, native_executables=["target/lab-1.0-runner"])
    row = {r[0]: r for r in footprint.footprint_table(env).text_rows}["native"]
    assert row[1] == ("not measured: a native executable is there (target/lab-1.0-runner), but --runtime did not "
                      "ask for native")


def test_a_native_runtime_at_pod_sizes_is_measured_not_missing():
    env = environment(runtime_info={"native-cpu0.25": {"cold_starts": starts(0.3)}, "jvm-cpu0.25": {
        "cold_starts": starts(5.0)}}, native_executables=["target/lab-1.0-runner"])
    names = [r[0] for r in footprint.footprint_table(env).text_rows]
    assert names == ["native-cpu0.25", "jvm-cpu0.25", "container-native"]


def test_a_curve_without_cold_starts_has_a_row_that_says_so():
    env = environment(runtime_info={"jvm": {"warmup_curve": {"ok_per_s": [1000] * 20, "load": "aggregate"}}})
    row = footprint.footprint_table(env).text_rows[0]
    assert row[:2] == ["jvm", "not measured"] and row[6:8] == ["1000/s", "0 s of 20 s"]


def test_results_without_cold_starts_get_no_table():
    assert footprint.footprint_table(environment(runtime_info={"jvm": {"first_request_s": 5.1}})) is None
    assert footprint.footprint_table(environment()) is None
