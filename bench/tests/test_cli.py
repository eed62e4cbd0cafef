import pytest

from benchlab import cli
from benchlab.model import Build, Load, RuntimeSpec
from benchlab.plan.planner import APP_START_S, RUN_OVERHEAD_S, start_up_seconds
from benchlab.results.environment import Environment
from benchlab.run.provision import runtimes


def test_a_plain_quick_run_measures_no_cold_starts_and_no_curve():
    args = cli.parse_args(["--quick"])
    assert (args.cold_starts, args.warmup_curve) == (0, 0)


@pytest.mark.parametrize("runtimes", ["jvm,jvm-aot", "jvm-aot", "jvm,container-jvm"])
def test_comparing_runtimes_measures_cold_starts_and_the_curve_by_default(runtimes):
    args = cli.parse_args(["--quick", "--runtime", runtimes])
    assert (args.cold_starts, args.warmup_curve) == (3, 60)
    env = Environment()
    env.copy_settings(args)
    assert env.cold_starts == 3 and env.warmup_curve_s == 60 and env.cold_start_budget_s == 60
    assert cli.parse_args(["--runtime", runtimes]).cold_starts == 5  # the default preset's


def test_asked_for_on_one_runtime_or_switched_off_on_several():
    assert cli.parse_args(["--quick", "--cold-starts", "7"]).cold_starts == 7
    args = cli.parse_args(["--quick", "--runtime", "jvm,jvm-aot", "--cold-starts", "0", "--warmup-curve", "0"])
    assert (args.cold_starts, args.warmup_curve) == (0, 0)


@pytest.mark.parametrize("argv, named", [(["--cold-starts", "-1"], "--cold-starts"),
                                         (["--warmup-curve", "10"], "--warmup-curve"),
                                         (["--cold-start-budget", "-5"], "--cold-start-budget"),
                                         (["--target", "http://10.0.0.5:8080", "--cold-starts", "5"], "--cold-starts")])
def test_impossible_start_up_measurements_are_refused(argv, named, capsys):
    with pytest.raises(SystemExit):
        cli.parse_args(["--quick", *argv])
    assert named in capsys.readouterr().err


def test_the_start_up_measurement_is_planned_per_runtime():
    assert start_up_seconds(2, 5, 60) == 2 * (5 * APP_START_S + 60 + RUN_OVERHEAD_S)
    assert start_up_seconds(1, 5, 0) == 5 * APP_START_S
    assert start_up_seconds(3, 0, 0) == 0


@pytest.mark.parametrize("argv", [["--quick"], []], ids=["quick", "default"])
def test_both_presets_search_each_models_capacity_on_the_core_cases_after_their_cost(argv):
    args = cli.parse_args(argv)
    for scenario in ("jwt-mysql", "aggregate"):
        levels = [level for level in args.load_levels[scenario] if level.kind != "closed"]
        # the costs on the steady app first, before any model is overloaded; three rates, the verdict's the highest,
        # but quick's aggregation: the verdict's alone (test_planner, the quick aggregation's added runs)
        rates = 1 if argv and scenario == "aggregate" else 3
        assert [level.kind for level in levels] == ["cost"] * rates + ["search"]
        assert [level.value for level in levels[:rates]] == sorted(level.value for level in levels[:rates])
    assert args.cost_repeat >= 3 and args.app_cpus == 0.5


def test_the_default_preset_repeats_the_search_and_keeps_the_articles_closed_steps():
    args = cli.parse_args([])
    assert args.repeat == 3
    assert args.load_levels["aggregate"][4:] == [Load("closed", 150), Load("closed", 1000)]


def test_a_cost_rate_given_twice_is_refused():
    with pytest.raises(SystemExit, match="given twice"):
        cli.parse_args(["--loads", "jwt-mysql=cost:500,cost:500"])


@pytest.mark.parametrize("text", ["search:100,200", "search:100,search:200"])
def test_a_search_is_alone_among_open_rates(text):
    with pytest.raises(SystemExit, match="one search"):
        cli.parse_loads(text)


def test_article_001_runs_on_the_jvm_runtime_only(capsys):
    assert cli.parse_args(["--scenarios", "article-001", "--jdk", "21,25"]).runtime_names == ("jvm-jdk21", "jvm-jdk25")
    with pytest.raises(SystemExit):
        cli.parse_args(["--scenarios", "article-001", "--runtime", "jvm,container-jvm"])
    assert "the jvm runtime only (not container-jvm)" in capsys.readouterr().err


def test_article_001_is_left_out_of_quick_and_default_but_has_the_articles_connections():
    assert "article-001" not in cli.parse_args(["--quick"]).scenarios
    assert "article-001" not in cli.parse_args([]).scenarios
    args = cli.parse_args(["--scenarios", "article-001"])
    assert args.load_levels["article-001"] == [Load("closed", 50), Load("closed", 100), Load("closed", 300)]


def test_another_build_is_a_runtime_of_its_own_taking_turns_with_this_build(tmp_path):
    (tmp_path / "quarkus-run.jar").write_text("")
    args = cli.parse_args(["--quick", "--builds", f"before={tmp_path}"])
    assert args.runtime_names == ("jvm", "jvm-before")
    assert args.build_specs == {"jvm-before": str(tmp_path)}


def test_a_native_build_or_the_same_executable_with_options_takes_turns_with_the_native_runtime(tmp_path):
    exe = tmp_path / "app-runner"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    args = cli.parse_args(["--quick", "--runtime", "native", "--native-exe", str(exe),
                           "--builds", f"young='{exe}' -Xmn128m,march={exe}"])
    assert args.runtime_names == ("native", "native-young", "native-march")
    assert args.build_specs == {"native-young": f"{exe} -Xmn128m", "native-march": str(exe)}
    young = runtimes.make(args.runtime("native-young"), {})
    assert young.name == "native-young"
    assert young.command("/root", None, 19100, {"quarkus.http.port": 19100}) == \
        [str(exe), "-Xmn128m", "-Dquarkus.http.port=19100"]  # a runtime option before the properties
    jvm = runtimes.make(RuntimeSpec("jvm", build=Build("serial", str(tmp_path), ("-XX:+UseSerialGC",))), {})
    assert (jvm.packaged_app, jvm.jvm_args) == (str(tmp_path), ["-XX:+UseSerialGC"])


@pytest.mark.parametrize("argv", [["--builds", "before=/nowhere"], ["--builds", "Before=."],
                                  ["--builds", "before=.", "--runtime", "jvm-aot"],
                                  ["--builds", "before=.", "--runtime", "native"],  # a directory beside native
                                  ["--builds", "before=. -Xmn64m", "--runtime", "jvm,native"]])
def test_a_build_that_is_not_a_packaged_app_or_beside_another_runtime_is_refused(argv, capsys, tmp_path):
    (tmp_path / "quarkus-run.jar").write_text("")
    with pytest.raises(SystemExit):
        cli.parse_args(["--quick", *[a.replace("=.", f"={tmp_path}") for a in argv]])
    assert "--builds" in capsys.readouterr().err


def test_a_profile_needs_a_cost_rate_to_profile(capsys):
    assert cli.parse_args(["--quick", "--profile"]).profile
    with pytest.raises(SystemExit):
        cli.parse_args(["--quick", "--profile", "--loads", "search:500"])
    assert "--profile" in capsys.readouterr().err
