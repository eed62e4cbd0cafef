"""results.json's environment as the run side writes it: facts not learnt are absent, a fact that is None is kept,
and a name that is no fact is an error rather than a key the report never reads."""
import json
import os

import pytest

from benchlab.model import Stop
from benchlab.report import compare, render
from benchlab.results import table
from benchlab.results.environment import SCHEMA_VERSION, Environment, RuntimeInfo, SearchRecord
from conftest import DATA


def test_only_the_facts_learnt_are_written():
    env = Environment(cores=2, git_commit=None)
    env.update(load_seconds=12, target=None)
    env.append("skipped", "jvm-aggregate-worker-open800-r1 (SLO broken at 400/s)")
    assert env.to_json() == {"schema_version": SCHEMA_VERSION, "load_seconds": 12,
                             "skipped": ["jvm-aggregate-worker-open800-r1 (SLO broken at 400/s)"], "target": None,
                             "cores": 2, "git_commit": None}
    assert env.get("restarts", 0) == 0 and env.get("cores") == 2


def test_a_misspelt_fact_is_an_error():
    with pytest.raises(AttributeError):
        Environment().update(restart=1)
    with pytest.raises(TypeError):
        Environment(core=2)


def test_a_runtimes_prepared_facts_are_written_beside_its_start_up():
    env = Environment(runtime_info={"jvm": RuntimeInfo(java_home="/jdk", limits=None,
                                                       prepared={"jvm": "OpenJDK 25", "heap_max_mb": 1000})})
    env.runtime_info["jvm"].update(first_request_s=1.2, rss_idle_mb=None)
    assert env.to_json()["runtime_info"] == {"jvm": {"jvm": "OpenJDK 25", "heap_max_mb": 1000, "limits": None,
                                                     "java_home": "/jdk", "first_request_s": 1.2, "rss_idle_mb": None}}


# The oldest results directory in the repository's history: the first recorded quick run (commit 78cb6ec,
# 2026-11-22), written before schema_version, searches, variants, open_files_limit or the start-up figures existed;
# its results.json trimmed to one of its runs (the report reads the runs from results.csv).
OLDEST = os.path.join(DATA, "v1")


def test_the_oldest_results_load_into_the_records_they_were_written_from():
    _, _, env = table.read(OLDEST)
    assert env.schema_version == 1 and env.cores == 2 and env.load_average_at_start == (3.2255859375, 2.9560546875,
                                                                                         3.19189453125)
    assert env.searches == [] and env.native_executables == [] and env.point_select["qps"] == 7916.4
    jvm = env.runtime_info["jvm"]
    assert isinstance(jvm, RuntimeInfo) and jvm.prepared == {"jvm_gc": "G1 GC", "jvm_max_heap_mb": 6026, "jvm":
                                                             "OpenJDK Runtime Environment Temurin-25.0.3+9 (build "
                                                             "25.0.3+9-LTS)"}
    assert jvm.cold_starts == [] and jvm.warmup_curve is None  # facts it lacks, as their absence means
    assert "open_files_limit" not in dict(env.settings()) and dict(env.settings())["restarts"] == 1


def test_the_oldest_results_render_and_compare():
    rendered = render.render(OLDEST)["md"]
    assert rendered.startswith("# Concurrency models under load")
    assert "## Capacity at the SLO" in rendered and "| restarts | 1 |" in rendered
    # its steps ran once: a step against itself is the same mean, from 1 run, with no interval
    assert "worker 400/s: B mean latency (14.2 ms) is within 1 % of A (14.2 ms), 1 run" in compare.render(OLDEST,
                                                                                                         OLDEST)


def test_what_is_written_reads_back_the_same():
    with open(os.path.join(DATA, "quick", "results.json")) as f:
        written = json.load(f)["environment"]
    env = Environment.from_json(written)
    assert isinstance(env.searches[0], SearchRecord) and env.searches[0].stop == Stop.RESOLVED
    assert json.loads(json.dumps(env.to_json(recorded=True))) == written
    again = Environment.from_json(env.to_json())
    assert again.to_json() == env.to_json()


def test_results_of_a_newer_bench_or_with_unknown_facts_are_refused():
    with pytest.raises(ValueError, match="schema version 99"):
        Environment.from_json({"schema_version": 99})
    with pytest.raises(ValueError, match="unknown facts"):
        Environment.from_json({"schema_version": 2, "cores": 2, "corse": 2})
    # before schema_version: a fact this bench no longer knows is left out, the directory still loads
    assert Environment.from_json({"cores": 2, "retired_fact": 1}).to_json(recorded=True) == {"cores": 2}
