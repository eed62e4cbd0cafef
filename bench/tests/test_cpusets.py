"""Each tier on CPUs of its own (--app-cpuset): the app on its CPU set within its quota, k6, the database, the other
services and the bench on the rest."""
import os

import pytest

from benchlab import cli
from benchlab.model import CpuSplit, cpu_list, cpu_split, parse_cpu_list
from benchlab.run.provision import budget, host


def test_a_budgeted_app_gets_the_last_whole_cpus_its_budget_needs_and_the_rig_the_rest():
    assert cpu_split(2, 0.5, None) == CpuSplit(app=(1,), rig=(0,))
    assert cpu_split(8, 0.5, None) == CpuSplit(app=(7,), rig=tuple(range(7)))
    assert cpu_split(8, 2.5, None) == CpuSplit(app=(5, 6, 7), rig=tuple(range(5)))


def test_no_split_without_a_budget_or_where_the_budget_needs_every_cpu_or_none_is_asked():
    assert cpu_split(2, None, None) is None
    assert cpu_split(2, 2, None) is None
    assert cpu_split(2, 1.5, None) is None
    assert cpu_split(8, 0.5, "none") is None


def test_a_given_cpu_set_is_the_apps_and_the_rig_has_every_other():
    assert cpu_split(8, 0.5, "4-7") == CpuSplit(app=(4, 5, 6, 7), rig=(0, 1, 2, 3))
    assert cpu_split(4, None, "0,2") == CpuSplit(app=(0, 2), rig=(1, 3))


@pytest.mark.parametrize("given", ["0-1", "2", "x", "3-1", ""])
def test_a_cpu_set_that_leaves_no_cpu_to_the_rig_or_is_not_a_list_is_refused(given):
    with pytest.raises(ValueError):
        cpu_split(2, 0.5, given)


def test_cpu_lists_read_and_write_as_taskset_does():
    assert parse_cpu_list("0,2-3,7") == (0, 2, 3, 7)
    assert cpu_list((0, 2, 3, 7)) == "0,2-3,7"
    assert cpu_list((4, 5, 6)) == "4-6"


def test_the_cli_puts_every_runtime_on_the_apps_cpus_and_says_so(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    config = cli.parse_args(["--quick", "--runtime", "jvm,native", "--app-cpus", "0.25,0.5"])
    assert config.cpu_split == CpuSplit(app=(1,), rig=(0,))
    assert {spec.cpuset for spec in config.runtimes} == {(1,)}
    assert config.cpu_split.describe() == ("the app (within its quota) and the database on CPU 1; k6, the downstream "
                                           "service and the bench on CPU 0")
    assert cli.parse_args(["--quick", "--app-cpuset", "none"]).cpu_split is None


def test_a_wrong_cpu_set_stops_the_bench_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    with pytest.raises(SystemExit) as stop:
        cli.parse_args(["--quick", "--app-cpuset", "0-1"])
    assert stop.value.code == 2
    assert "--app-cpuset 0-1: CPUs of this machine's 0-1, leaving at least one to k6" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.parse_args(["--quick", "--target", "http://127.0.0.1:1", "--app-cpuset", "1"])


def test_the_app_enters_its_cpu_set_and_an_unbudgeted_app_leaves_the_benchs_own(monkeypatch, tmp_path):
    placed = []
    monkeypatch.setattr(os, "sched_setaffinity", lambda pid, cpus: placed.append(tuple(cpus)))
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    group = tmp_path / "group"
    group.mkdir()
    budget.CpuBudget(0.5, "cgroup v1", group=str(group), cpuset=(3,)).enter()
    assert placed == [(3,)] and (group / "cgroup.procs").read_text() == str(os.getpid())
    rt = host.JvmRuntime()
    rt.before_exec()()  # no budget, no CPU set: every CPU, not the rig's that the bench runs on
    rt.cpuset = (2, 3)
    rt.before_exec()()
    assert placed[1:] == [(0, 1, 2, 3), (2, 3)]


def test_a_warm_up_lifts_the_cpu_set_with_the_quota_and_the_budget_puts_both_back(monkeypatch, tmp_path):
    moved = []
    monkeypatch.setattr(budget, "set_affinity", lambda pid, cpus: moved.append((pid, sorted(cpus))))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    group = tmp_path / "group"
    group.mkdir()
    chosen = budget.CpuBudget(0.5, "cgroup v1", group=str(group), period_us=10_000, cpuset=(1,))
    chosen.lift(42)
    assert (group / "cpu.cfs_quota_us").read_text() == "-1" and moved == [(42, [0, 1])]
    chosen.restore(42)
    assert (group / "cpu.cfs_quota_us").read_text() == "5000" and moved[-1] == (42, [1])
    assert "on CPU 1" in chosen.describe() and chosen.describe().endswith("lift the quota and the CPU set")
