"""The memory sections of the report, rendered from a recorded memory search (bench/tests/data/memory: the results.json
and results.csv of `bench/run --quick --scenarios hold --heap-search`, on the 2-core lab machine), and the
readings of jcmd's answers they come from."""
import os
import shutil
from types import SimpleNamespace

import pytest

from benchlab.model import HeapSearchEnd, HeapStep, MemoryStop
from benchlab.plan.heap_search import HeapSearch
from benchlab.report import memory, render
from benchlab.results import table
from benchlab.results.environment import HeapSearchRecord, HeldBytesRecord
from benchlab.run.measure.memory import heap_used_mb, nmt_threads
from conftest import DATA, environment

MEMORY = os.path.join(DATA, "memory")

G1 = """12345:
garbage-first heap   total reserved 2097152K, committed 131072K, used 48213K [0x0000000080000000, 0x0000000100000000)
 region size 1024K, 3 young (3072K), 0 survivors (0K)
 Metaspace       used 61234K, committed 62016K, reserved 1114112K
  class space    used 7890K, committed 8256K, reserved 1048576K
"""
SERIAL = """22272:
DefNew     total 19648K, used 7363K [0x00000000fc000000, 0x00000000fd550000, 0x00000000fd550000)
 eden space 17472K,  29% used [0x00000000fc000000, 0x00000000fc510e18, 0x00000000fd110000)
 from space 2176K, 100% used [0x00000000fd330000, 0x00000000fd550000, 0x00000000fd550000)
Tenured    total 43712K, used 2364K [0x00000000fd550000, 0x0000000100000000, 0x0000000100000000)
 the  space 43712K,   5% used [0x00000000fd550000, 0x00000000fd79f3f8, 0x0000000100000000)
 Metaspace       used 1000K, committed 1100K, reserved 1114112K
"""
NMT = """30928:

Native Memory Tracking:

Total: reserved=1515796KB, committed=97788KB
-                 Java Heap (reserved=65536KB, committed=14336KB)
                            (mmap: reserved=65536KB, committed=14336KB, peak=65536KB)

-                    Thread (reserved=207924KB, committed=10240KB)
                            (threads #203)
                            (stack: reserved=207360KB, committed=9676KB, peak=9676KB)
"""


def test_the_heap_in_use_is_read_from_gc_heap_info_of_each_collector():
    assert heap_used_mb(G1) == round(48213 / 1024, 1)
    assert heap_used_mb(SERIAL) == round((7363 + 2364) / 1024, 1)  # the generations summed, not eden's "29% used"
    assert heap_used_mb(" ZHeap           used 8M, capacity 64M, max capacity 64M") is None


def test_the_threads_native_memory_is_read_from_native_memory_trackings_thread_section():
    assert nmt_threads(NMT) == (10.0, 203)
    assert nmt_threads("30928:\nNative memory tracking is not enabled\n") == (None, None)


def recorded_env():
    return table.read(MEMORY)[2]


def test_the_recorded_quick_run_is_replayed_step_by_step():
    """The steps results.json recorded for each model: fed back their outcomes, the search asks for the same heaps."""
    for record in recorded_env().heap_searches:
        replay = HeapSearch()
        for step in record.steps:
            assert replay.next_heap() == step.heap_mb
            replay.record(step)
        assert replay.next_heap() is None
        assert (replay.end, replay.held, replay.broke.heap_mb if replay.broke else None) == \
            (record.end, record.held_mb, record.broke_mb)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("memory")
    for name in os.listdir(MEMORY):
        shutil.copy(os.path.join(MEMORY, name), out)
    return render.render(str(out))


def test_the_recorded_search_has_a_record_per_model_and_a_heap_per_held_request():
    env = recorded_env()
    assert sorted(r.model for r in env.heap_searches) == ["reactive", "virtual", "worker"]
    assert sorted(r.model for r in env.held_bytes) == ["reactive", "virtual", "worker"]
    for r in env.heap_searches:
        assert r.steps and all(s.tag or s.stop == MemoryStop.START for s in r.steps)


def test_the_answer_is_each_models_smallest_heap_first_then_its_table_and_bars(rendered):
    md = rendered["md"]
    answer = md.index("## The answer on memory")
    section = md.index("## Memory: the smallest heap per model")
    first = md.index("| hold at 1000 VUs (10s) | virtual | 32 MB or less (the smallest heap tried) | - | - |")
    worker = md.index("| hold at 1000 VUs (10s) | worker | none up to 2048 MB | not memory | p99 29,890 ms")
    assert answer < first < worker < section
    assert md.index("| case | model | smallest heap |") > section
    assert "## Heap per held request" in md
    assert rendered["html"].count("The smallest heap that held, per model") == 1  # the bars, in the HTML only


def test_the_memory_search_steps_stay_out_of_the_common_tables(rendered):
    """The recorded run is the memory search alone: its hold steps (closed model, 1,000 VUs) are not runs of the hold
    scenario's own section, nor of the step table."""
    md = rendered["md"]
    assert "## Long-held connections" not in md and "## Every step" not in md
    assert "| hold at 1000 VUs (10s) | virtual | 32 MB |" in md


def search(model, held, broke, stop, end=HeapSearchEnd.RESOLVED, detail=""):
    steps = [HeapStep(256, None if held and held <= 256 else stop)]
    return HeapSearchRecord("jvm", "hold", "10s", "1000 VUs", model, end, held, broke, stop, detail, steps)


def test_a_model_that_no_heap_lets_hold_the_load_is_named_with_what_stops_it():
    records = [search("worker", None, 2048, MemoryStop.SLO, HeapSearchEnd.NOTHING_HELD,
                      "p99 30,000 ms, 600 failed, 0 dropped of 1000; worker-pool starvation: up to 800 tasks queued; "
                      "the app at 40 % of its budget"),
               search("virtual", 54, 48, MemoryStop.OOM, detail="Terminating due to java.lang.OutOfMemoryError: "
                                                                 "Java heap space")]
    table = memory.answer_table(SimpleNamespace(heap_searches=records))
    assert table.text_rows == [
        ["hold at 1000 VUs (10s)", "virtual", "between 48 and 54 MB", "OutOfMemoryError",
         "Terminating due to java.lang.OutOfMemoryError: Java heap space"],
        ["hold at 1000 VUs (10s)", "worker", "none up to 256 MB", "not memory",
         "p99 30,000 ms, 600 failed, 0 dropped of 1000; worker-pool starvation: up to 800 tasks queued"]]
    assert "Not memory: it broke the SLO with the largest heap, without an OutOfMemoryError." in table.note


def test_a_model_that_held_at_the_smallest_heap_tried_says_or_less():
    r = search("reactive", 32, None, None, HeapSearchEnd.FLOOR)
    assert memory.interval(r) == "32 MB or less (the smallest heap tried)"


def test_the_heap_per_held_request_is_the_growth_after_a_full_gc_over_the_requests_held():
    r = HeldBytesRecord("jvm-heap2g", "hold", "10s", "worker", 1000, 1000, 2048, 40.0, 50.0, 30, 230, 2.0, 12.0,
                        200.0, 260.0)
    assert r.heap_bytes_per_held == 10 * 2**20 / 1000
    assert r.native_bytes_per_held == 10 * 2**20 / 1000  # NMT's Thread committed
    no_nmt = HeldBytesRecord("jvm-heap2g", "hold", "10s", "virtual", 1000, 500, 2048, 40.0, 45.0, 30, 30, None, None,
                             200.0, 210.0)
    assert no_nmt.native_bytes_per_held == 10 * 2**20 / 500  # the RSS's growth where NMT was not read


def test_a_run_without_heap_data_has_no_memory_section():
    env = environment(cores=2)
    assert memory.sections(None, None, env, []) == [] and memory.answer_table(env) is None


def test_density_at_each_models_knee_is_its_successful_requests_per_mib_of_rss(tmp_path):
    """The recorded quick run, as if it had heap data: each model's knee (its run at its capacity) over its RSS."""
    import json
    for name in ("results.csv", "windows.csv", "results.json"):
        shutil.copy(os.path.join(DATA, "quick", name), tmp_path)
    with open(tmp_path / "results.json") as f:
        data = json.load(f)
    data["environment"]["out_of_memory"] = ["jvm-jwt-mysql-virtual-open2400-r1: Terminating due to "
                                            "java.lang.OutOfMemoryError: Java heap space"]
    with open(tmp_path / "results.json", "w") as f:
        json.dump(data, f)
    runs, _, env = table.read(str(tmp_path))
    runs["variant"] = runs.variant.fillna("")
    from benchlab.results import slo
    caps = slo.capacities(runs)
    section = memory.sections(runs.iloc[0:0], runs, env, caps)[-1]
    assert section.title == "Requests per MiB at the knee"
    assert section.findings[0].startswith("OutOfMemoryError: jvm-jwt-mysql-virtual-open2400-r1: Terminating")
    knees = memory.knee_runs(runs, caps)
    for row in section.table.rows:
        knee = knees[row[0], row[1]]
        assert row[5].value == knee.ok_rps / knee.rss_peak_mb
    assert [r[0] for r in section.table.text_rows].count("aggregate") == 3  # a row per model at its knee
