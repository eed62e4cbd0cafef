import dataclasses

import numpy as np
import pandas as pd

from conftest import environment

from benchlab.model import RunRow
from benchlab.report.views import article_001


def rows(*specs):
    base = {f.name: None for f in dataclasses.fields(RunRow)}
    defaults = dict(scenario="article-001", load_model="closed", repetition=1, errors=0, status_0=0, status_4xx=0,
                    status_5xx=0, dropped=0, app_cpu_pct=150.0, app_cpu_ms_per_req=0.4)
    return pd.DataFrame([{**base, **defaults, **s} for s in specs])


def windows(per_tag: dict[str, list[int]]) -> pd.DataFrame:
    return pd.DataFrame([{"tag": tag, "t": t, "requests": ok, "ok": ok, "mean_ms": 1.0, "p50_ms": 1.0, "p99_ms": 2.0}
                         for tag, oks in per_tag.items() for t, ok in enumerate(oks)])


def cell(runtime, variant, virtual_ok, worker_ok, pinned, where, trace, loads=(50,), reps=2):
    """A JDK x driver cell: virtual and worker at each load, `reps` runs of 20 s each, with per-second throughputs
    around the means."""
    rng = np.random.default_rng(7)
    specs, per_tag = [], {}
    for load in loads:
        for model, ok in (("virtual", virtual_ok), ("worker", worker_ok)):
            for rep in range(1, reps + 1):
                tag = f"{runtime}-{variant}-{model}-{load}-r{rep}"
                per_tag[tag] = list((ok + rng.normal(0, ok * 0.02, 20)).astype(int))
                specs.append(dict(tag=tag, runtime=runtime, variant=variant, model=model, load=load, ok_rps=ok,
                                  requests=20 * ok, p50_ms=3.0, p99_ms=9.0 if model == "virtual" else 6.0,
                                  pinned=pinned if model == "virtual" else 0,
                                  pinned_where=where if model == "virtual" else None, pinned_trace=trace,
                                  repetition=rep))
    return specs, per_tag


def test_a_cell_that_pins_says_how_often_where_confirmed_and_what_it_cost():
    specs, per_tag = cell("jvm-jdk21", "connector-j-8.3.0", 1500, 2200, pinned=12_000,
                          where="com.mysql.cj.protocol.ReadAheadInputStream.fill", trace=True)
    table, [sentence] = article_001.view(rows(*specs), windows(per_tag), environment())
    assert sentence == ("jvm-jdk21, connector-j-8.3.0: the virtual model pinned 400 times per 1,000 requests, mostly in "
                        "com.mysql.cj.protocol.ReadAheadInputStream.fill; the JVM's pinned-thread trace agrees.")
    virtual_row = next(r for r in table.text_rows if r[3] == "virtual")
    assert virtual_row[7] == "9.00" and virtual_row[10:12] == ["400", "com.mysql.cj.protocol.ReadAheadInputStream.fill"]
    assert virtual_row[12].startswith("-32 % (-3") and virtual_row[13] == "-"  # against worker; no other driver
    specs, per_tag = cell("jvm-jdk21", "connector-j-8.3.0", 1500, 2200, pinned=12_000, where="x.Y.z", trace=True,
                          reps=1)
    table, _ = article_001.view(rows(*specs), windows(per_tag), environment())
    assert next(r for r in table.text_rows if r[3] == "virtual")[12] == "-32 %, 1 run"  # no interval from one run


def test_equal_throughputs_are_no_detectable_difference_and_no_pins_without_a_trace_are_said_so():
    specs, per_tag = cell("jvm-jdk25", "connector-j-8.3.0", 2000, 2000, pinned=0, where=None, trace=None)
    table, [sentence] = article_001.view(rows(*specs), windows(per_tag), environment())
    assert "the virtual model did not pin; no second witness" in sentence
    assert next(r for r in table.text_rows if r[3] == "virtual")[12].startswith("none detectable (")


def test_a_count_the_trace_contradicts_is_not_confirmed():
    assert article_001.witness(0.0, True).endswith("not confirmed")
    assert article_001.witness(3.0, False).endswith("not confirmed")
    assert article_001.witness(0.0, False) == "the JVM's pinned-thread trace saw none either"
    assert article_001.witness(None, True) == "pins not recorded"


def test_one_sentence_per_jdk_and_driver_and_a_row_per_load_and_model():
    specs, per_tag = [], {}
    for runtime in ("jvm-jdk21", "jvm-jdk25"):
        for variant in ("connector-j-8.3.0", "connector-j-9.5.0"):
            s, w = cell(runtime, variant, 2000, 2000, pinned=0, where=None, trace=False, loads=(50, 100, 300))
            specs += s
            per_tag.update(w)
    table, sentences = article_001.view(rows(*specs), windows(per_tag), environment())
    assert len(sentences) == 4 and len(table.text_rows) == 4 * 3 * 2
    later = [r for r in table.text_rows if r[1] == "connector-j-9.5.0"]
    assert all(r[13] != "-" for r in later) and all(r[13] == "-" for r in table.text_rows if r not in later)


def test_no_article_001_runs_no_section():
    one_run = rows(dict(tag="a", scenario="jwt-mysql", model="virtual", load=100))
    assert article_001.view(one_run, windows({}), environment()) is None


def test_per_jdk_the_later_driver_is_set_against_the_earlier_for_virtual_and_worker():
    pinning, w1 = cell("jvm-jdk21", "connector-j-8.3.0", 1500, 2200, pinned=12_000, where="x.Y.z", trace=True)
    plain, w2 = cell("jvm-jdk21", "connector-j-9.5.0", 2200, 2200, pinned=0, where=None, trace=False)
    table, _ = article_001.view(rows(*pinning, *plain), windows({**w1, **w2}), environment())
    effect = {r[3]: r[13] for r in table.text_rows if r[1] == "connector-j-9.5.0"}
    assert effect["virtual"].startswith("+4") and effect["worker"].startswith("none detectable")


def test_driver_versions_order_by_their_numbers():
    assert sorted(["connector-j-10.0.1", "connector-j-9.5.0", "connector-j-8.3.0"], key=article_001.driver_order) == [
        "connector-j-8.3.0", "connector-j-9.5.0", "connector-j-10.0.1"]
