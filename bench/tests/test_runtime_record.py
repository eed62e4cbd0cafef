"""A runtime is one record (model.RuntimeSpec): its name derived from its fields, as results.csv, results.json and the
report have always written it; a recorded name read back for the report alone."""
import csv
import json
import os
from pathlib import Path

import pytest

from benchlab import cli
from benchlab.model import RUNTIME_KINDS, Build, Jdk, RuntimeSpec
from benchlab.run.provision import runtimes

DATA = Path(__file__).parent / "data"

NAMES = [
    (RuntimeSpec("jvm"), "jvm"),
    (RuntimeSpec("target"), "target"),
    (RuntimeSpec("jvm", jdk=Jdk(21)), "jvm-jdk21"),
    (RuntimeSpec("jvm-aot", jdk=Jdk(25, "/opt/jdk-25")), "jvm-aot-jdk25"),
    (RuntimeSpec("jvm", heap_mb=64), "jvm-heap64m"),
    (RuntimeSpec("jvm", heap_mb=1024), "jvm-heap1g"),
    (RuntimeSpec("container-jvm", heap_mb=256), "container-jvm-heap256m"),
    (RuntimeSpec("jvm", jdk=Jdk(21), heap_mb=64), "jvm-jdk21-heap64m"),
    (RuntimeSpec("jvm", cpus=0.25, memory_mb=512), "jvm-cpu0.25"),
    (RuntimeSpec("container-native", cpus=1.0), "container-native-cpu1"),
    (RuntimeSpec("jvm", build=Build("before", "/old/target/quarkus-app")), "jvm-before"),
    (RuntimeSpec("native", build=Build("young-gen", "/old/app-runner", ("-Xmn128m",))), "native-young-gen"),
    (RuntimeSpec("jvm", cpuset=(0, 1)), "jvm"),  # where its app may run is not what it is
]


@pytest.mark.parametrize("spec, name", NAMES)
def test_a_runtimes_name_is_derived_from_its_fields_as_it_was_always_written(spec, name):
    assert spec.name == name


@pytest.mark.parametrize("name", [name for _, name in NAMES] + ["jvm-aot", "native-cpu0.5", "jvm-heap2g"])
def test_a_recorded_name_reads_back_as_the_runtime_it_names(name):
    assert RuntimeSpec.recorded(name).name == name


@pytest.mark.parametrize("name, spec", [
    ("jvm-aot-jdk25-heap64m", RuntimeSpec("jvm-aot", jdk=Jdk(25), heap_mb=64)),
    ("native-cpu0.25", RuntimeSpec("native", cpus=0.25)),
    ("container-jvm-heap1g", RuntimeSpec("container-jvm", heap_mb=1024)),
    ("jvm-before", RuntimeSpec("jvm", build=Build("before", ""))),  # a name holds no build's path
    ("native-v4", RuntimeSpec("native", build=Build("v4", ""))),
    ("gateway", RuntimeSpec("gateway")),  # of no known kind: a kind of its own, not an error in a report
])
def test_a_recorded_name_gives_what_a_name_can_tell(name, spec):
    assert RuntimeSpec.recorded(name) == spec


def test_the_kinds_a_recorded_name_begins_with_are_the_runtimes_the_bench_starts_and_the_target():
    assert set(RUNTIME_KINDS) == {*runtimes.RUNTIMES, "target"}


def test_the_recorded_test_datas_runtimes_read_back_under_the_same_names():
    names = set()
    for path in DATA.rglob("results.csv"):
        with open(path) as f:
            names |= {row["runtime"] for row in csv.DictReader(f)}
    for path in DATA.rglob("results.json"):
        recorded = json.loads(path.read_text())
        names |= set(recorded.get("runtimes", [])) | set(recorded.get("runtime_info", {}))
    assert {"jvm", "jvm-heap2g", "jvm-heap32m"} <= names
    assert all(RuntimeSpec.recorded(name).name == name for name in names)


def test_jdks_are_records_on_each_jdk():
    config = cli.parse_args(["--quick", "--app-cpuset", "none", "--jdk", "21,25"])
    assert config.runtimes == (RuntimeSpec("jvm", jdk=Jdk(21)), RuntimeSpec("jvm", jdk=Jdk(25)))
    assert config.takes_turns


def test_heaps_are_records_at_each_heap():
    config = cli.parse_args(["--quick", "--app-cpuset", "none", "--heap", "64m,1g"])
    assert config.runtimes == (RuntimeSpec("jvm", heap_mb=64), RuntimeSpec("jvm", heap_mb=1024))
    assert config.heap_labels == {"jvm-heap64m": "64 MB", "jvm-heap1g": "1024 MB"} and config.takes_turns


def test_pod_sizes_are_records_with_their_cpus_and_memory(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    config = cli.parse_args(["--quick", "--app-cpuset", "none", "--app-cpus", "0.25,0.5"])
    assert config.runtimes == (RuntimeSpec("jvm", cpus=0.25, memory_mb=512),
                               RuntimeSpec("jvm", cpus=0.5, memory_mb=512))
    assert config.sizes_compared and not config.takes_turns and config.app_cpus is None
    assert [config.cpus_of(spec) for spec in config.runtimes] == [0.25, 0.5]


def test_builds_are_records_beside_this_build(tmp_path):
    (tmp_path / "quarkus-run.jar").write_text("")
    config = cli.parse_args(["--quick", "--app-cpuset", "none", "--builds", f"before={tmp_path} -Xmn128m"])
    assert config.runtimes == (RuntimeSpec("jvm"),
                               RuntimeSpec("jvm", build=Build("before", str(tmp_path), ("-Xmn128m",))))
    assert config.runtime("jvm-before").build.spec == f"{tmp_path} -Xmn128m" and config.takes_turns
    with pytest.raises(KeyError):
        config.runtime("jvm-after")


def test_one_runtime_is_a_plain_record_within_the_runs_budget():
    config = cli.parse_args(["--quick", "--app-cpuset", "none"])
    assert config.runtimes == (RuntimeSpec("jvm"),) and config.runtime_names == ("jvm",)
    assert config.cpus_of(config.runtime("jvm")) == 0.5 and not config.takes_turns and not config.sizes_compared
