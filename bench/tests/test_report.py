"""The report rendered from a recorded quick run (data/quick: results.csv, windows.csv, results.json) against
golden files. After a deliberate change to the report: REGENERATE_GOLDEN=1 bench/run --self-test, then review
the diff of data/quick/report.md.golden like code."""
import os
import re
from types import SimpleNamespace

import pytest

from benchlab.formatting import cell_text
from benchlab.report import answer, capacity, compare, render as report
from benchlab.results import slo
from conftest import DATA, environment

QUICK = os.path.join(DATA, "quick")
GOLDEN = os.path.join(QUICK, "report.md.golden")


@pytest.fixture(scope="module")
def rendered():
    return report.render(QUICK)


def test_markdown_matches_the_golden_file(rendered):
    if os.environ.get("REGENERATE_GOLDEN"):
        with open(GOLDEN, "w") as f:
            f.write(rendered["md"])
    with open(GOLDEN) as f:
        assert rendered["md"] == f.read()


def test_the_answer_comes_first_then_the_steady_cost_and_capacity_at_the_slo(rendered):
    headings = re.findall(r"^## (.+)$", rendered["md"], flags=re.M)
    assert headings[:6] == ["The answer", "Steady-state CPU per request", "Capacity at the SLO", "Steps measured again",
                            "Steps kept in spite of a disturbance", "Warm-up until steady"]


def test_html_has_the_same_tables_and_plotly_once_under_5_mb(rendered):
    html = rendered["html"]
    assert len(html.encode()) < 5 * 2**20
    assert html.count("<script>") - html.count("Plotly.newPlot") <= 1  # the library once, then one call per chart
    assert "<script src=" not in html  # offline: nothing loaded from elsewhere
    assert '<h2 id="capacity-at-the-slo">Capacity at the SLO</h2>' in html


def test_html_folds_the_detail_and_its_contents_link_every_section(rendered):
    html = rendered["html"]
    for title in ("Differences, with their uncertainty", "Every step", "Limits in force", "Settings and machine"):
        assert f"<summary>{title}</summary>" in html
        assert f"<h2 id=\"{report.anchor(title)}\">" not in html
    links = re.findall(r'<a href="#([^"]+)">', html)
    assert links[0] == "steady-state-cpu-per-request" and links[-2:] == ["limits-in-force", "settings-and-machine"]
    assert len(links) == len(re.findall(r"^## ", rendered["md"], flags=re.M)) - 1  # every section but the answer
    for target in links:
        assert f'id="{target}"' in html


def test_each_section_is_its_table_then_one_caption_of_at_most_three_sentences(rendered):
    from prose import END
    md = rendered["md"]
    for section in re.split(r"^## ", md, flags=re.M)[1:]:
        after = section.split("\n\n| ", 1)[1].split("\n\n", 1)  # the table, then what follows it
        caption = after[1].strip().split("\n\n")[0] if len(after) > 1 else ""
        if caption:
            assert len(END.split(caption)) <= 3, section.splitlines()[0]


def test_every_difference_matches_its_means(rendered):
    """A detectable difference '+N % (low to high %)', or one from one run '+N %, 1 run' (a run's seconds give no
    interval), must be (model - fastest) / fastest of the two means shown."""
    md = rendered["md"]
    section = md[md.index("## Differences, with their uncertainty"):]
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| ")
            and (" % (" in line or " %, 1 run" in line)]
    detectable = [r for r in rows if not r[6].startswith("none")]
    one_run = [r for r in rows if r[6].endswith(" %, 1 run")]
    assert rows and one_run and set(map(tuple, one_run)) < set(map(tuple, detectable))
    assert not [r for r in rows if re.fullmatch(r"(\S+) % \(\1 to \1 %\)", r[6])]  # never an interval of width 0
    for r in detectable:
        share = (float(r[4]) - float(r[5])) / float(r[5])
        assert abs(share * 100 - float(r[6].split(" %")[0])) <= max(1.0, 0.05 * abs(share) * 100)


def test_worker_starvation_is_named_on_the_aggregation(rendered):
    row = next(line for line in rendered["md"].splitlines() if line.startswith("| aggregate | worker |"))
    assert "worker-pool starvation" in row


def test_compare_a_run_with_itself_finds_no_difference():
    text = compare.render(QUICK, QUICK)
    lines = [line for line in text.splitlines() if ": B is " in line]
    assert lines and all("not detectably different" in line for line in lines)


def test_the_share_of_the_ideal_is_given_only_where_the_ideal_latency_is_known():
    def row(scenario, variant, ok_rps=240.0):
        return SimpleNamespace(scenario=scenario, variant=variant, load_model="closed", load=150.0, ok_rps=ok_rps)
    assert cell_text(report.ideal_share(row("aggregate", ""))) == "96.0%"
    assert cell_text(report.ideal_share(row("cache", "uncached"))) == "96.0%"  # the uncached reference runs aggregate.js
    assert cell_text(report.ideal_share(row("cache", "local-1000", ok_rps=900.0))) == "-"  # hits are faster than any ideal
    assert cell_text(report.ideal_share(row("pool-sweep", "pool-8", ok_rps=20.0))) == "-"


def test_a_closed_step_short_of_the_ideal_names_its_busiest_resource():
    import pandas as pd
    def row(model, ok_rps, **sampled):
        return dict(scenario="aggregate", variant="", load_model="closed", load=1000.0, model=model, ok_rps=ok_rps,
                    p50_ms=640.0, p99_ms=900.0, errors=0, dropped=0, **sampled)
    med = pd.DataFrame([row("virtual", 1130.0, downstream_waiting_max=470.0, host_cpu_pct=80.0),
                        row("reactive", 1640.0, downstream_waiting_max=0.0, host_cpu_pct=80.0)])
    found = report.shortfalls(med, cores=2)
    assert found.text_rows == [["aggregate", "1000 VUs", "virtual", "1130", "1667", "67.8%", "640", "900", "0 + 0",
                                 "REST client pool wait: up to 470 downstream calls waiting for a connection (see "
                                 "quarkus.rest-client.downstream.connection-pool-size)", "-"]]


def test_start_up_and_footprint_follow_the_capacity_with_the_curve_drawn(tmp_path):
    import json
    import shutil
    for name in ("results.csv", "windows.csv", "results.json"):
        shutil.copy(os.path.join(QUICK, name), tmp_path / name)
    with open(tmp_path / "results.json") as f:
        results = json.load(f)
    start = {"first_request_s": 5.9, "quarkus_started_s": 4.9, "rss_mb": 210.0}
    results["environment"]["runtime_info"] = {"jvm": {"cold_starts": [start] * 5, "command": "jvm: java -jar",
                                                      "warmup_curve": {"ok_per_s": [900] * 30, "load": "jwt-mysql"}}}
    with open(tmp_path / "results.json", "w") as f:
        json.dump(results, f)
    out = report.render(str(tmp_path))
    headings = re.findall(r"^## (.+)$", out["md"], flags=re.M)
    assert headings[:7] == ["The answer", "Steady-state CPU per request", "Capacity at the SLO", "Steps measured again",
                            "Steps kept in spite of a disturbance", "Warm-up until steady",
                            "Start-up and footprint per runtime"]
    assert "| jvm | 5.90 s (5.90-5.90, n=5) |" in out["md"]
    assert "| native | not built: no target/*-runner" in out["md"]
    assert "warm-up after a fresh start: jwt-mysql" in out["html"]


def test_a_search_that_stopped_short_of_a_breach_says_what_stopped_it():
    from benchlab.report.capacity import search_bound
    search = dict(runtime="jvm", repetition=1, held=800.0, broke=None, steps=4)
    env = environment(searches=[dict(search, scenario="jwt-mysql", model="reactive", stop="load generator"),
                                dict(search, scenario="jwt-mysql", model="virtual", stop="resolved")])
    assert search_bound(env, "jwt-mysql", "reactive") == "at least: k6 was the limit"
    assert search_bound(env, "jwt-mysql", "virtual") is None
    assert search_bound(environment(), "aggregate", "worker") is None


def capacity_rows(rates: dict[str, dict[float, bool]], repetitions=2):
    """Open-model rows of one scenario: per model, the rates offered and whether each held the SLO, alike in every
    repetition."""
    import pandas as pd
    rows = []
    for model, steps in rates.items():
        for rate, held in steps.items():
            for rep in range(1, repetitions + 1):
                rows.append(dict(scenario="jwt-mysql", model=model, load_model="open", load=rate, repetition=rep,
                                 requests=int(rate * 8), dropped=0, errors=0 if held else int(rate),
                                 p99_ms=20.0 if held else 90.0, tag=f"{model}{rate}r{rep}"))
    return pd.DataFrame(rows)


def answer_row(runs, env=None):
    """The answer's cells of one scenario: best model, capacity, the others, what stopped the best."""
    env = env or environment(cores=2)
    return answer.capacity_cells(runs, env, slo.capacities(runs, env.cores), "jwt-mysql")


def test_one_repetition_claims_a_lead_only_beyond_the_variation_between_runs():
    runs = capacity_rows({"virtual": {1100: True, 1300: False}, "reactive": {680: True, 800: False},
                          "worker": {140: True, 150: False}}, repetitions=1)
    best, capacity_cell, others, stopped = answer_row(runs)
    assert (best, capacity_cell) == ("virtual, reactive (tied)", "1100/s (1100 to 1300)")  # 680 is within x2 of 1100
    assert others == "worker 0.13x (0.11 to 0.14)"
    assert stopped == "at 1300/s: nothing over its level; p99 90.0 ms, 1300 failed"
    runs2 = capacity_rows({"virtual": {1100: True, 1300: False}, "reactive": {680: True, 800: False}})
    assert answer_row(runs2)[2] == "reactive 0.62x (0.52 to 0.73)"  # two repetitions: the intervals decide


def test_a_cost_rates_interleaved_runs_do_not_count_as_repetitions_of_the_search():
    """Two quick runs: virtual held 400/s where reactive broke, then reactive held 400/s where virtual broke; the
    3 cost runs, numbered 1 to 3, had made the first say "ahead of reactive" as if its search had been repeated."""
    import pandas as pd
    runs = capacity_rows({"virtual": {400: True, 480: False}, "reactive": {360: True, 400: False}}, repetitions=1)
    cost = [dict(scenario="jwt-mysql", model=m, load_model="cost", load=80.0, repetition=rep, requests=320,
                 dropped=0, errors=0, p99_ms=20.0, tag=f"{m}cost{rep}") for m in ("virtual", "reactive")
            for rep in (1, 2, 3)]
    runs = pd.concat([runs, pd.DataFrame(cost)], ignore_index=True)
    assert answer_row(runs)[:3] == ["virtual, reactive (tied)", "400/s (400 to 480)", "-"]


def test_an_answer_gives_the_others_as_the_range_both_intervals_allow():
    runs = capacity_rows({"reactive": {1600: True, 2300: True, 2700: False},
                          "virtual": {1600: True, 1900: True, 2100: False},
                          "worker": {1600: True, 2000: True, 2400: False}})
    # the tied models in their own order, whichever held the higher rate: the next run names them the same way
    assert answer_row(runs)[:3] == ["worker, reactive (tied)", "2300/s (2300 to 2700)", "virtual 0.83x (0.70 to 0.91)"]


def test_rates_that_every_model_held_do_not_name_a_winner():
    runs = capacity_rows({m: {100: True, 400: True} for m in ("virtual", "worker", "reactive")})
    best, capacity_cell, others, stopped = answer_row(runs)
    assert best == "none told apart" and capacity_cell == ">= 400/s" and "--loads jwt-mysql=search:400" in stopped


def test_where_no_model_held_the_lowest_rate_the_answer_says_what_stopped_it_there():
    runs = capacity_rows({"virtual": {100: False, 200: False}, "reactive": {100: False}}, repetitions=1)
    assert answer_row(runs) == ["none", "none held 100/s", "-",
                                "at 100/s: nothing over its level; p99 90.0 ms, 100 failed"]


def test_what_stopped_the_best_model_fits_in_fifteen_words():
    from prose import words
    row = dict(scenario="jwt-mysql", model="virtual", load_model="open", repetition=1, requests=6000, dropped=219,
               errors=12, p99_ms=225.0, tag="x", sql_queue_max=32.0, gc_share_pct=16.0, app_cpu_pct=48.0,
               app_cpus=0.5)
    import pandas as pd
    runs = pd.concat([capacity_rows({"virtual": {840: True}}, repetitions=1),
                      pd.DataFrame([dict(row, load=1000.0)])], ignore_index=True)
    stopped = answer_row(runs)[3]
    assert stopped == "at 1000/s: reactive pool: 32 waiting; p99 225 ms, 12 failed, 219 dropped"
    assert words(stopped) <= 15


def test_each_core_scenario_shows_its_knees_second_by_second_and_what_they_cost(rendered):
    html = rendered["html"]
    for scenario in ("jwt-mysql", "aggregate"):
        assert f"{scenario}: each model's run at its knee, second by second" in html
        assert f"{scenario}: p99 latency against the offered rate (diamond: each model's knee" in html
    assert "At each model's knee: CPU per request, memory and threads" in html


def test_a_capacity_the_machine_or_k6_stopped_is_a_lower_bound_and_a_tie_there_is_the_rigs():
    """Recorded: searches broke at 1,700 to 2,000/s with the machine's CPU or k6 over its level, not the app's budget.
    Such a knee is the rig's: the answer gives the capacity as a lower bound, and a tie there as the ceiling's."""
    import pandas as pd
    from benchlab.report.charts import capacity_chart

    def stopped_by(runs, model, **sampled):
        broke = (runs.model == model) & (runs.errors > 0)
        for column, value in sampled.items():
            runs.loc[broke, column] = value
        return runs
    machine = dict(host_cpu_pct=95.0, app_cpu_pct=40.0, app_cpus=0.5)
    runs = capacity_rows({"virtual": {1600: True, 1700: True, 1900: False},
                          "reactive": {1600: True, 1900: False}, "worker": {200: True, 250: False}})
    for model in ("virtual", "reactive"):
        runs = stopped_by(runs, model, **machine)
    runs = stopped_by(runs, "worker", worker_queue_max=40.0, host_cpu_pct=60.0)
    best, capacity_cell, others, stopped = answer_row(runs)
    assert (best, capacity_cell) == ("virtual, reactive (tied at the machine's ceiling)",
                                     ">= 1700/s, the machine's ceiling")
    assert others == "worker 0.12x (at most 0.15)"  # against a lower bound: how much lower, not how much higher
    assert stopped.startswith("at 1900/s: machine CPU 95 % of all cores")
    caps = slo.capacities(runs, 2)
    assert {c.model: c.ceiling for c in caps} == {"virtual": "the machine's ceiling",
                                                   "reactive": "the machine's ceiling", "worker": None}
    assert "\\u003e= 1,700" in capacity_chart(caps, environment(cores=2))[0]  # ">=", as plotly escapes it
    rows = capacity.capacity_table(runs, environment(cores=2), caps).text_rows
    assert rows[0][:4] == ["jwt-mysql", "virtual", "1700/s", "1700 to 1900 (at least: the machine's ceiling)"]
    # k6 stopped the best, reactive broke on its own pool within the interval: tied, not at a ceiling
    runs = stopped_by(runs, "virtual", host_cpu_pct=60.0, k6_cpu_pct=190.0)
    runs = stopped_by(runs, "reactive", host_cpu_pct=60.0, sql_queue_max=12.0)
    best, capacity_cell, _, _ = answer_row(runs)
    assert (best, capacity_cell) == ("virtual, reactive (tied)", ">= 1700/s, k6's ceiling")
    # without the rig in the way, the same rates are a capacity with its interval
    runs = stopped_by(runs, "virtual", k6_cpu_pct=20.0, app_cpu_pct=47.0)
    assert answer_row(runs)[1] == "1700/s (1700 to 1900)"
