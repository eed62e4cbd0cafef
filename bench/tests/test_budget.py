"""The app's CPU budget (--app-cpus, run/provision/budget.py): how it is applied on a cgroup hierarchy laid out as the
lab machine's (a cgroup v1 cpu controller, here a directory of files), what a warm-up lifts and gives back, what is
left behind (nothing), and the one-line answers to a budget that cannot be."""
import os

import pytest

from benchlab import cli
from benchlab.model import RuntimeSpec
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


@pytest.fixture
def v1_with_memory(v1):
    memory = v1 / "memory"
    memory.mkdir()
    for name, value in (("memory.limit_in_bytes", "9223372036854771712"), ("memory.memsw.limit_in_bytes", "max"),
                        ("cgroup.procs", "")):
        (memory / name).write_text(value)
    return v1


def test_a_pod_size_has_its_memory_limit_in_the_memory_hierarchy_without_swap(v1_with_memory):
    pod = budget.make(0.25, "concurrency-lab-bench-19100-cpu0.25", 2, root=str(v1_with_memory), memory_mb=512)
    assert pod.memory_group == str(v1_with_memory / "memory" / "concurrency-lab-bench-19100-cpu0.25")
    # the group's files are the kernel's; here the test writes them, as the kernel would have them
    assert read(pod.memory_group, "memory.limit_in_bytes") == str(512 * 1024 * 1024)
    assert "a memory limit of 512 MB" in pod.describe() and read(pod.group, "cpu.cfs_quota_us") == "2500"
    pod.lift()
    assert read(pod.memory_group, "memory.limit_in_bytes") == str(512 * 1024 * 1024)  # a warm-up lifts the CPU only
    # the JVM sees one processor and takes half the limit for its heap, as the images' JVM does
    assert pod.jvm_options() == ["-XX:ActiveProcessorCount=1", "-XX:MaxRAMPercentage=50"]


def test_a_pod_alongside_another_has_its_size_in_a_group_of_its_own(v1_with_memory, tmp_path):
    """The A/A twin's pod: in the app's group, a memory limit would hold both JVMs."""
    own = budget.make(0.5, "concurrency-lab-bench-19100", 2, root=str(v1_with_memory), memory_mb=512, period_us=20_000)
    twin = budget.alongside(own, "twin", root=str(v1_with_memory))
    assert twin.group == own.group + "-twin" and twin.memory_group == own.memory_group + "-twin"
    assert (twin.cpus, twin.period_us, twin.memory_mb) == (0.5, 20_000, 512)
    assert read(twin.group, "cpu.cfs_quota_us") == "10000" and twin.jvm_options() == own.jvm_options()
    mask = budget.make(1, "lab", 2, root=str(tmp_path / "none"))
    assert budget.alongside(mask, "twin") is mask and budget.alongside(None, "twin") is None  # nothing to share


def test_cgroup_v2_limits_memory_in_the_same_group(tmp_path):
    (tmp_path / "cgroup.subtree_control").write_text("cpuset cpu io memory pids")
    pod = budget.make(0.5, "lab", 2, root=str(tmp_path), memory_mb=1024)
    assert read(pod.group, "memory.max") == str(1024 ** 3) and pod.memory_group is None


@pytest.mark.parametrize("controllers", ["cpu io pids", None])
def test_a_pod_the_machine_cannot_make_is_one_line(tmp_path, controllers):
    if controllers:
        (tmp_path / "cgroup.subtree_control").write_text(controllers)  # cpu, but no memory controller
    with pytest.raises(RuntimeError) as refused:
        budget.make(1, "lab", 2, root=str(tmp_path), memory_mb=512)
    assert str(refused.value).startswith("a pod of 1 CPU and 512 MB needs a cgroup with the cpu and memory controllers")
    assert "\n" not in str(refused.value)
    with pytest.raises(RuntimeError, match="a pod of 0.5 CPU needs a cgroup"):
        budget.make(0.5, "lab", 2, root=str(tmp_path / "none"), strict=True)  # a size, where a mask cannot be


def test_a_list_of_sizes_is_a_runtime_per_size_each_with_512_mb_unless_given(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    config = cli.parse_args(["--quick", "--runtime", "jvm,native", "--app-cpus", "0.25,0.5"])
    assert config.runtime_names == ("jvm-cpu0.25", "jvm-cpu0.5", "native-cpu0.25", "native-cpu0.5")
    assert config.app_cpus is None and config.app_memory_mb == 512
    assert config.runtime("native-cpu0.25") == RuntimeSpec("native", cpus=0.25, memory_mb=512, cpuset=(1,))
    assert config.cpus_of(config.runtime("native-cpu0.25")) == 0.25
    assert config.size_labels["jvm-cpu0.5"] == "0.5 CPU, 512 MB"
    given = cli.parse_args(["--quick", "--runtime", "jvm,native", "--app-cpus", "0.25,0.5", "--app-memory", "1g"])
    assert given.app_memory_mb == 1024
    one = cli.parse_args(["--quick", "--app-memory", "768m"])  # one size keeps the runtimes' names
    assert one.runtimes == (RuntimeSpec("jvm", cpuset=(1,)),) and one.app_cpus == 0.5 and one.app_memory_mb == 768
    assert not one.sizes_compared and one.cpus_of(one.runtimes[0]) == 0.5
    assert cli.parse_args(["--quick"]).app_memory_mb is None


@pytest.mark.parametrize("argv, message", [
    (["--app-cpus", "0.25,3"], "--app-cpus 3: more than 0 and at most this machine"),
    (["--app-cpus", "0.25,none"], "--app-cpus: a list of sizes in CPUs"),
    (["--app-cpus", "0.25,0.5", "--heap", "128m"], "not with --target, --jdk, --heap or --builds"),
    (["--app-memory", "lots"], "--app-memory lots: a size in megabytes or gigabytes"),
    (["--app-cpus", "none", "--app-memory", "512m"], "--app-memory limits a pod beside its CPU budget"),
])
def test_a_pod_size_that_makes_no_sense_is_one_line(argv, message, monkeypatch, capsys):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    with pytest.raises(SystemExit) as stopped:
        cli.parse_args(["--quick", *argv])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err.strip().splitlines()[-1]


V1_STAT = "nr_periods 600\nnr_throttled 150\nthrottled_time 4500000000\n"  # cgroup v1's cpu.stat: nanoseconds
V2_STAT = ("usage_usec 900000\nuser_usec 600000\nsystem_usec 300000\nnr_periods 600\nnr_throttled 150\n"
           "throttled_usec 4500000\nnr_bursts 0\nburst_usec 0\n")  # cgroup v2's: microseconds, beside its usage


def test_the_quotas_throttling_is_read_from_the_groups_cpu_stat_in_either_cgroup_version(tmp_path):
    for version, text in (("v1", V1_STAT), ("v2", V2_STAT)):
        (tmp_path / version).mkdir()
        (tmp_path / version / "cpu.stat").write_text(text)
    assert budget.read_cpu_stat(str(tmp_path / "v1")) == budget.read_cpu_stat(str(tmp_path / "v2")) == \
        budget.Throttling(600, 150, 4500.0)
    pod = budget.CpuBudget(0.5, "cgroup v2", group=str(tmp_path / "v2"))
    assert pod.throttling() == budget.Throttling(600, 150, 4500.0)
    # over a 6 s run: 30 of its 60 periods throttled, 600 ms waited
    assert pod.throttling().since(budget.Throttling(540, 120, 3900.0), 6.0) == (50.0, 100.0)
    assert budget.Throttling(540, 120, 3900.0).since(budget.Throttling(540, 120, 3900.0), 0) == (None, None)


def test_no_group_or_no_cpu_stat_reads_no_throttling(tmp_path):
    assert budget.read_cpu_stat(str(tmp_path)) is None  # no cpu.stat
    (tmp_path / "cpu.stat").write_text("usage_usec 900000\n")  # a group without the cpu controller's counters
    assert budget.read_cpu_stat(str(tmp_path)) is None
    assert budget.CpuBudget(1, "taskset", cores=(1,)).throttling() is None
    assert budget.CpuBudget(0.5, "none", why_not="no cgroup").throttling() is None


def test_a_list_of_sizes_runs_at_the_kubelets_period_unless_given_and_one_size_keeps_the_benchs(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pods = ["--quick", "--runtime", "jvm,native", "--app-cpus", "0.25,0.5"]
    assert cli.parse_args(pods).app_cpu_period == 100
    assert cli.parse_args([*pods, "--app-cpu-period", "20"]).app_cpu_period == 20
    assert cli.parse_args(["--quick"]).app_cpu_period == budget.PERIOD_US / 1000 == 10
