"""The app's CPU budget (--app-cpus, run/provision/budget.py): how it is applied on a cgroup hierarchy laid out as the
lab machine's (a cgroup v1 cpu controller, here a directory of files), what a warm-up lifts and gives back, what is
left behind (nothing), and the one-line answers to a budget that cannot be."""
import os

import pytest

from benchlab import cli
from benchlab.run.provision import budget


@pytest.fixture
def v1(tmp_path):
    controller = tmp_path / "cpu"
    controller.mkdir()
    for name, value in (("cpu.cfs_quota_us", "-1"), ("cpu.cfs_period_us", "100000"), ("cgroup.procs", "")):
        (controller / name).write_text(value)
    return tmp_path


def read(path, name):
    with open(os.path.join(path, name)) as f:
        return f.read().strip()


def test_a_fraction_of_a_cpu_is_a_quota_per_period_in_a_group_of_its_own(v1):
    chosen = budget.make(0.5, "concurrency-lab-bench-19100", 2, root=str(v1))
    assert chosen.how == "cgroup v1" and chosen.group == str(v1 / "cpu" / "concurrency-lab-bench-19100")
    assert read(chosen.group, "cpu.cfs_quota_us") == "5000" and read(chosen.group, "cpu.cfs_period_us") == "10000"
    assert chosen.processors == 1 and chosen.jvm_options() == ["-XX:ActiveProcessorCount=1"]
    assert "5000 us per 10000 us" in chosen.describe() and "the JVM sees 1 processor" in chosen.describe()
    chosen.lift()
    assert read(chosen.group, "cpu.cfs_quota_us") == "-1"  # a warm-up: the whole machine
    chosen.restore()
    assert read(chosen.group, "cpu.cfs_quota_us") == "5000"
    assert budget.CpuBudget(1.5, "cgroup v1").processors == 2
    pod = budget.make(0.5, "concurrency-lab-bench-19100", 2, root=str(v1), period_us=100_000)  # the kubelet's period
    assert read(pod.group, "cpu.cfs_quota_us") == "50000" and read(pod.group, "cpu.cfs_period_us") == "100000"


def test_a_group_left_by_a_killed_bench_is_taken_over_and_none_is_left_behind(v1, monkeypatch):
    (v1 / "cpu" / "concurrency-lab-bench-19100").mkdir()  # a killed bench's, its processes gone
    chosen = budget.make(1, "concurrency-lab-bench-19100", 2, root=str(v1))
    assert chosen.how == "cgroup v1" and read(chosen.group, "cpu.cfs_quota_us") == "10000"
    with open(os.path.join(chosen.group, "cgroup.procs"), "w") as f:
        f.write("424242\n")  # a process still in it when the bench ends
    removed = []
    monkeypatch.setattr(os, "rmdir", removed.append)  # cgroupfs removes a group with its files; a plain directory not
    chosen.remove()
    assert read(v1 / "cpu", "cgroup.procs") == "424242" and removed == [chosen.group]


def test_cgroup_v2_is_a_cpu_max_line(tmp_path):
    (tmp_path / "cgroup.subtree_control").write_text("cpuset cpu io memory pids")
    chosen = budget.make(0.25, "lab", 4, root=str(tmp_path))
    assert chosen.how == "cgroup v2" and read(chosen.group, "cpu.max") == "2500 10000"
    chosen.lift()
    assert read(chosen.group, "cpu.max") == "max 10000"


def test_without_cgroups_whole_cpus_are_an_affinity_mask_and_a_fraction_is_said_to_be_impossible(tmp_path):
    whole = budget.make(1, "lab", 2, root=str(tmp_path / "none"))
    assert whole.how == "taskset" and whole.cores == (1,) and whole.processors == 1
    fraction = budget.make(0.5, "lab", 2, root=str(tmp_path / "none"))
    assert not fraction.applied and fraction.jvm_options() == []
    assert fraction.describe().startswith("none: 0.5 CPU asked, but no cgroup could be made")
    assert "the app ran unbudgeted" in fraction.describe()


@pytest.mark.parametrize("given, message", [("0", "more than 0"), ("-1", "more than 0"), ("3", "at most this machine"),
                                            ("half", "a number of CPUs")])
def test_a_budget_that_cannot_be_is_one_line(given, message, monkeypatch, capsys):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    with pytest.raises(SystemExit) as stopped:
        cli.parse_args(["--quick", "--app-cpus", given])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("bench/run: error: --app-cpus") and message in err[-1]


def test_the_presets_budget_and_none():
    assert cli.parse_args(["--quick"]).app_cpus == 0.5 and cli.parse_args([]).app_cpus == 0.5
    assert cli.parse_args(["--quick", "--app-cpus", "none"]).app_cpus is None
    assert cli.parse_args(["--quick", "--app-cpus", "1.5"]).app_cpus == 1.5
