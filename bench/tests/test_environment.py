"""results.json's environment as the run side writes it: facts not learnt are absent, a fact that is None is kept,
and a name that is no fact is an error rather than a key the report never reads."""
import pytest

from benchlab.results.environment import Environment, RuntimeInfo


def test_only_the_facts_learnt_are_written():
    env = Environment(cores=2, git_commit=None)
    env.update(load_seconds=12, target=None)
    env.append("skipped", "jvm-aggregate-worker-open800-r1 (SLO broken at 400/s)")
    assert env.to_json() == {"cores": 2, "git_commit": None, "target": None, "load_seconds": 12,
                             "skipped": ["jvm-aggregate-worker-open800-r1 (SLO broken at 400/s)"]}
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
    assert env.to_json() == {"runtime_info": {"jvm": {"jvm": "OpenJDK 25", "heap_max_mb": 1000, "java_home": "/jdk",
                                                      "limits": None, "first_request_s": 1.2, "rss_idle_mb": None}}}
