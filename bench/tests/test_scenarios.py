import pytest
import pandas as pd

from benchlab import cli
from benchlab.formatting import cell_text
from benchlab.model import Load
from benchlab.plan.planner import make_plan
from benchlab.report import render as report
from benchlab.scenarios import SCENARIOS, ideal_latency_s
from conftest import environment, make_config


def test_the_quick_preset_runs_the_gateway_at_the_articles_16_connections_when_asked():
    loads = {"gateway": cli.parse_loads(SCENARIOS["gateway"].quick.loads)}
    assert "gateway" not in cli.parse_args(["--quick"]).scenarios  # 15 minutes hold the core cases and three others
    assert cli.parse_args(["--quick", "--scenarios", "gateway"]).load_levels["gateway"] == [Load("closed", 16)]
    runs = make_plan(["jvm"], ["gateway"], loads, ["virtual", "worker", "reactive"], 1, 8, 5, 1).runs
    assert [(r.model, r.load) for r in runs] == [(m, Load("closed", 16)) for m in ("virtual", "worker", "reactive")]


def test_the_default_preset_has_the_articles_two_closed_steps_and_an_open_ladder():
    loads = cli.parse_loads(SCENARIOS["gateway"].default.loads)
    assert [l for l in loads if l.kind == "closed"] == [Load("closed", 16), Load("closed", 100)]
    assert len([l for l in loads if l.kind == "open"]) >= 3


def test_a_closed_gateway_step_is_compared_with_the_mixs_ideal_latency():
    assert SCENARIOS["gateway"].backends and ideal_latency_s("gateway", "") == 0.04
    row = pd.Series(dict(scenario="gateway", variant="", load_model="closed", load=16, ok_rps=360.0))
    assert cell_text(report.ideal_share(row)) == "90.0%"  # 16 VUs / 0.04 s = 400 req/s at best
    aggregate = pd.Series(dict(scenario="aggregate", variant="", load_model="closed", load=150, ok_rps=240.0))
    assert cell_text(report.ideal_share(aggregate)) == "96.0%"  # 150 / 0.6 s = 250 req/s, as before


def test_a_hold_variant_passes_its_hold_time_to_k6():
    from benchlab.run.measure.k6runs import k6_env
    from benchlab.model import PlannedRun

    config = make_config(timeout=5, users=2000)
    run = PlannedRun(1, "jvm", "hold", Load("closed", 200), 1, "virtual", 8, "1s")
    env = k6_env("http://127.0.0.1:21100", run, 8, config, None)
    assert env["HOLD_MS"] == "1000" and env["TIMEOUT"] == "30s" and env["VUS"] == "200"
    offload = PlannedRun(2, "jvm", "mixed", Load("open", 100), 1, "reactive", 8, "offload")
    assert k6_env("http://127.0.0.1:21100", offload, 8, config, None)["OFFLOAD"] == "1"


def test_live_turns_on_k6s_web_dashboard_for_every_run():
    from benchlab.run.measure.k6runs import k6_env
    from benchlab.model import PlannedRun

    run = PlannedRun(1, "jvm", "jwt-mysql", Load("open", 100), 1, "virtual", 8)
    live = cli.parse_args(["--quick", "--live"])
    assert k6_env("http://127.0.0.1:21100", run, 8, live, None)["K6_WEB_DASHBOARD"] == "true"
    assert "K6_WEB_DASHBOARD" not in k6_env("http://127.0.0.1:21100", run, 8, make_config(live=False), None)


def test_k6_judges_each_run_by_the_scenarios_slo():
    from benchlab.run.measure.k6runs import k6_env
    from benchlab.model import SLO_MAX_BAD_SHARE, PlannedRun

    from benchlab.scenarios import slo_p99_ms

    for scenario in SCENARIOS.values():
        for variant in scenario.variants:
            run = PlannedRun(1, "jvm", scenario.name, Load("open", 100), 1, "virtual", 8, variant.name)
            env = k6_env("http://127.0.0.1:21100", run, 8, make_config(), None)
            assert float(env["P99_MS"]) == slo_p99_ms(scenario.name, variant.name)
            assert float(env["MAX_ERROR_RATE"]) == SLO_MAX_BAD_SHARE
    # hold judges each hold time by its own bound: a second beyond the hold
    assert slo_p99_ms("hold", "1s") == 2_000 and slo_p99_ms("hold", "10s") == 11_000 and slo_p99_ms("hold", "0s") == 1_000


def test_each_k6_scripts_own_p99_threshold_is_the_slo_of_the_scenarios_that_run_it():
    """By hand (k6 run k6/aggregate.js) a script judges with its own default: the bench's SLO, not a looser number.
    A default that is an expression of the script's variables (hold.js: HOLD_MS + 1000) is worked out with each
    variant's values of them."""
    import os
    import re
    from benchlab.scenarios import script_of, slo_p99_ms
    from benchlab.project import ROOT

    checked = set()
    for scenario in SCENARIOS.values():
        for variant in scenario.variants:
            script = script_of(scenario.name, variant.name)
            with open(os.path.join(ROOT, "k6", script)) as f:
                default = re.search(r"^  p99: (.+?),", f.read(), flags=re.M).group(1)
            variables = {name: float(value) for name, value in variant.k6_env}
            assert eval(default, {"__builtins__": {}}, variables) == slo_p99_ms(scenario.name, variant.name), \
                (scenario.name, variant.name, script, default)
            checked.add(script)
    # Every script with an SLO of its own is one the bench runs (burst.js, PodEdgeIT's, judges no latency).
    k6 = os.path.join(ROOT, "k6")
    with_slo = set()
    for name in os.listdir(k6):
        if name.endswith(".js"):
            with open(os.path.join(k6, name)) as f:
                if re.search(r"^  p99: ", f.read(), flags=re.M):
                    with_slo.add(name)
    assert checked == with_slo


def test_every_scenario_is_defined_whole_in_its_module():
    import os
    from benchlab.project import ROOT

    for name, scenario in SCENARIOS.items():
        names = [v.name for v in scenario.variants]
        for preset in ("quick", "default"):
            chosen = scenario.in_preset(preset)
            assert cli.parse_loads(chosen.loads), (name, preset)
            assert set(chosen.variants or ()) <= set(names), (name, preset)
        assert scenario.probes and all("{model}" in probe.path for probe in scenario.probes), name
        assert os.path.isfile(os.path.join(ROOT, "k6", scenario.script)), name


def test_the_smoke_test_probes_the_endpoints_of_the_chosen_scenarios(monkeypatch):
    from benchlab.run.provision import health

    asked = []
    monkeypatch.setattr(health, "http_get", lambda url, timeout, headers, method: (
        asked.append((method, url)) or (200, '"level" "heldMs"')))
    health.smoke_test("http://app", make_config(scenarios=("cache", "hold", "executors"), models=("worker",)), None)
    assert asked == [("GET", "http://app/worker/users/1/aggregate"),
                     ("GET", "http://app/worker/users/1/aggregate/cached"), ("GET", "http://app/worker/hold?ms=1")]
    monkeypatch.setattr(health, "http_get", lambda url, timeout, headers, method: (500, "boom"))
    with pytest.raises(RuntimeError, match="smoke test GET /worker/hold"):
        health.smoke_test("http://app", make_config(scenarios=("hold",), models=("worker",)), None)


def test_a_new_scenario_is_one_definition_the_cli_planner_smoke_test_and_report_all_read(monkeypatch):
    """What adding a scenario takes: its record (here inline, normally a module under scenarios/ named in ORDER) and,
    if it has a section of its own, its view (normally a module under report/views/); presets, plan, smoke test, k6's
    thresholds and the report's section follow from them."""
    from types import SimpleNamespace
    from benchlab import scenarios
    from benchlab.model import InPreset, Limit, Probe, Scenario
    from benchlab.report import views
    from benchlab.report.layout import Table
    from benchlab.run.provision import health
    from benchlab.run.measure.k6runs import k6_env

    def view(runs, win, env):
        mine = runs[runs.scenario == "echo"]
        return None if mine.empty else (Table("Echo: one row per run", ["tag"], [[t] for t in mine.tag]), ["echoed"])

    echo = Scenario("echo", "jwt-mysql.js", slo_p99_ms=25.0, limit=Limit.OFFERED, quick=InPreset("vus:7"),
                    default=InPreset("vus:9", selected=False), probes=(Probe("GET", "/{model}/echo", "ok"),))
    monkeypatch.setitem(scenarios.SCENARIOS, "echo", echo)
    monkeypatch.setitem(views.VIEWS, "echo", SimpleNamespace(NAME="echo", view=view))
    args = cli.parse_args(["--quick"])
    assert "echo" in args.scenarios and args.load_levels["echo"] == [Load("closed", 7)]
    assert "echo" not in cli.parse_args([]).scenarios
    plan = make_plan(["jvm"], ["echo"], args.load_levels, ["virtual"], 1, 6, 4, 0.5)
    assert [(r.scenario, r.load) for r in plan.runs] == [("echo", Load("closed", 7))]
    k6 = k6_env("http://app", plan.runs[0], 6, make_config(timeout=5, users=10), None)
    assert k6["P99_MS"] == "25"
    asked = []
    monkeypatch.setattr(health, "http_get", lambda url, **_: asked.append(url) or (200, "ok"))
    health.smoke_test("http://app", make_config(scenarios=("echo",), models=("virtual",)), None)
    assert asked == ["http://app/virtual/echo"]
    import dataclasses
    from benchlab.model import RunRow
    row = {f.name: None for f in dataclasses.fields(RunRow)}
    row.update(tag="jvm-echo-virtual", scenario="echo", model="virtual", variant="", runtime="jvm", load_model="closed",
               load=7.0, repetition=1, requests=70, errors=0, status_0=0, status_4xx=0, status_5xx=0, dropped=0,
               ok_rps=10.0, window_s=7.0, p50_ms=5.0, p99_ms=9.0)
    runs = pd.DataFrame([row])
    sections = report.sections(runs, pd.DataFrame(columns=["tag", "t", "mean_ms"]), environment(cores=2))
    echoed = [s for s in sections if s.title == "Echo: one row per run"]
    assert echoed and echoed[0].findings == ["echoed"]


def test_every_scenario_module_is_listed_once_in_report_order():
    """A scenario's module under scenarios/ is run and reported only once ORDER names it."""
    import pkgutil
    from benchlab import scenarios
    modules = {m.name for m in pkgutil.iter_modules(scenarios.__path__)}
    assert sorted(scenarios.ORDER) == sorted(modules) and len(set(scenarios.ORDER)) == len(scenarios.ORDER)
    assert list(SCENARIOS) == [importlib_module(m).SCENARIO.name for m in scenarios.ORDER]


def importlib_module(name):
    import importlib
    return importlib.import_module(f"benchlab.scenarios.{name}")


def test_every_view_belongs_to_its_scenario_and_says_nothing_where_it_did_not_run():
    """report/views/<module>.py is the section of scenarios/<module>.py: the same module name, its scenario's NAME,
    and no section (None) for runs of other scenarios."""
    import pkgutil
    from benchlab.report import views
    from conftest import environment
    modules = {m.name for m in pkgutil.iter_modules(views.__path__)}
    for module in modules:
        view = views.VIEWS[importlib_module(module).SCENARIO.name]
        assert view.__name__ == f"benchlab.report.views.{module}"
        others = pd.DataFrame([dict(tag="t", scenario="no-such-scenario", runtime="jvm", model="virtual", variant="",
                                    load_model="closed", load=10.0, repetition=1)])
        assert view.view(others, pd.DataFrame(columns=["tag", "t", "mean_ms"]), environment(cores=2)) is None
    assert len(views.VIEWS) == len(modules)


def test_every_view_has_a_test_of_its_own():
    """A view's sentences are the report's findings: each is tested on runs made up for it (test_sweeps.py,
    test_article001.py)."""
    import glob
    import os
    from benchlab.report import views
    tests = "".join(open(p).read() for p in glob.glob(os.path.join(os.path.dirname(__file__), "test_*.py")))
    for view in views.VIEWS.values():
        module = view.__name__.rsplit(".", 1)[1]
        assert f"{module}.view(" in tests, module


def test_every_scenario_is_described_in_the_readme():
    """bench/README.md names each scenario (the --scenarios row and the table of the articles' experiments)."""
    import os
    from benchlab.project import BENCH
    with open(os.path.join(BENCH, "README.md")) as f:
        readme = f.read()
    for name in SCENARIOS:
        assert f"`{name}`" in readme, name
