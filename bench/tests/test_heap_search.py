"""The memory search (plan/heap_search.py) on outcomes given to it, the outcome of a step, and its planned time."""
import math

import pytest

from benchlab.model import HeapSearchEnd, HeapStep, MemoryCase, MemoryStop
from benchlab.plan import heap_search
from benchlab.plan.heap_search import GC_SHARE_LEVEL_PCT, HeapSearch, HeapSettings, step_stop


def run(outcome, settings=HeapSettings()) -> HeapSearch:
    """A search whose steps come out as outcome(heap MB) says: None (held) or a MemoryStop."""
    search = HeapSearch(settings)
    while (heap := search.next_heap()) is not None:
        search.record(HeapStep(heap, outcome(heap)))
    return search


def needs(min_mb, below=MemoryStop.OOM):
    """A model that holds from min_mb up and runs out of memory below it."""
    return lambda heap: None if heap >= min_mb else below


@pytest.mark.parametrize("min_mb", [33, 47, 50, 90, 255, 256, 257, 700, 1500, 2000])
def test_the_smallest_heap_that_held_is_found_within_15_percent_in_at_most_seven_steps(min_mb):
    search = run(needs(min_mb))
    assert search.end == HeapSearchEnd.RESOLVED
    assert search.broke.heap_mb < min_mb <= search.held <= search.broke.heap_mb * 1.15
    # the two ends, then 256 MB (the middle of 32 MB to 2 GB on a log scale) and its halvings
    assert [s.heap_mb for s in search.steps[:3]] == [2048, 32, 256] and 256 == round(math.sqrt(32 * 2048))
    assert len(search.steps) <= (8 if min_mb < 40 else 7)  # 37 / 32 is 1.156: one halving more next to the floor


def test_a_model_that_needs_no_more_than_the_smallest_heap_says_so_after_two_steps():
    search = run(needs(20))
    assert search.end == HeapSearchEnd.FLOOR and search.held == 32 and search.broke is None
    assert [s.heap_mb for s in search.steps] == [2048, 32]


def test_a_model_that_breaks_with_all_the_memory_it_can_use_is_measured_once():
    """The worker pool's 200 threads under 1,000 held connections: the SLO breaks at 2 GB, so at any heap. One step,
    and the search names the stop of the largest heap."""
    search = run(lambda heap: MemoryStop.SLO)
    assert [s.heap_mb for s in search.steps] == [2048]
    assert search.end == HeapSearchEnd.NOTHING_HELD and search.held is None
    assert search.broke.heap_mb == 2048 and search.broke.stop == MemoryStop.SLO
    short = run(lambda heap: MemoryStop.OOM)  # more than 2 GB needed: said the same way, with its stop
    assert [s.heap_mb for s in short.steps] == [2048] and short.broke.stop == MemoryStop.OOM


def test_a_heap_too_small_to_start_counts_as_any_break():
    search = run(lambda heap: None if heap >= 80 else MemoryStop.START if heap < 50 else MemoryStop.GC)
    assert search.end == HeapSearchEnd.RESOLVED and search.broke.heap_mb < 80 <= search.held
    assert {s.stop for s in search.steps if not s.held} <= {MemoryStop.START, MemoryStop.GC}


def test_a_late_only_break_is_measured_again_and_the_second_run_decides():
    """A 10 s hold answered after 11.3 s with every request answered, on a machine busy with other work: once more."""
    search = HeapSearch()
    search.record(HeapStep(2048, None))
    search.record(HeapStep(32, MemoryStop.OOM))
    search.record(HeapStep(256, None))
    assert search.next_heap() == 91
    search.record(HeapStep(91, MemoryStop.SLO, failed=0))
    assert search.next_heap() == 91  # the same heap, on a fresh app
    search.record(HeapStep(91, None))
    assert search.held == 91 and search.next_heap() == 54  # decided by the second run: held, so lower
    search.record(HeapStep(54, MemoryStop.SLO, failed=0))
    search.record(HeapStep(54, MemoryStop.SLO, failed=0))  # late again: the break stands
    assert search.broke.heap_mb == 54 and search.next_heap() == 70


def test_a_break_with_failed_requests_or_out_of_memory_is_not_measured_again():
    for stop, failed in ((MemoryStop.SLO, 12), (MemoryStop.OOM, 0)):
        search = HeapSearch()
        search.record(HeapStep(2048, None))
        search.record(HeapStep(32, MemoryStop.OOM))
        search.record(HeapStep(256, stop, failed=failed))
        assert search.next_heap() == 724  # halfway up to the smallest heap that held, on a log scale


def test_out_of_steps_the_search_says_so():
    search = run(needs(50), HeapSettings(max_steps=3))
    assert search.end == HeapSearchEnd.BUDGET and len(search.steps) == 3


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        HeapSettings(low_mb=64, high_mb=32)


def row(**figures):
    base = dict(scenario="hold", requests=1000, errors=0, dropped=0, p99_ms=10_050.0, gc_share_pct=0.4)
    return dict(base, **figures)


def test_a_step_held_with_the_slo_no_failure_and_gc_within_its_level():
    assert step_stop(row()) is None


@pytest.mark.parametrize("figures, oom, stop", [
    ({}, "Terminating due to java.lang.OutOfMemoryError: Java heap space", MemoryStop.OOM),
    ({"gc_share_pct": GC_SHARE_LEVEL_PCT + 0.1}, None, MemoryStop.GC),
    ({"errors": 1}, None, MemoryStop.SLO),  # one failed request of 1,000 is within the SLO's 0.1 %, not "0 failures"
    ({"dropped": 1}, None, MemoryStop.SLO),
    ({"p99_ms": 11_001.0}, None, MemoryStop.SLO),
    ({"errors": 600, "gc_share_pct": 30.0}, "Terminating due to java.lang.OutOfMemoryError: Java heap space",
     MemoryStop.OOM),
])
def test_a_steps_stop_is_the_first_of_oom_gc_and_slo(figures, oom, stop):
    assert step_stop(row(**figures), oom=oom) == stop


def test_below_a_late_reference_a_step_is_judged_against_the_largest_heaps_p99():
    """The largest heap answered every held request, but in 11.4 s at p99: the machine's latency, not the heap's. A
    smaller heap holds within 10 % of that."""
    assert step_stop(row(p99_ms=12_000.0), reference_p99_ms=11_400.0) is None
    assert step_stop(row(p99_ms=12_600.0), reference_p99_ms=11_400.0) == MemoryStop.SLO
    assert step_stop(row(p99_ms=10_900.0), reference_p99_ms=9_000.0) is None  # the SLO itself always holds
    assert step_stop(row(errors=1, p99_ms=10_100.0), reference_p99_ms=11_400.0) == MemoryStop.SLO


def test_an_app_that_did_not_start_is_stopped_by_its_heap():
    assert step_stop(None, start_error="Too small maximum heap") == MemoryStop.START


def test_a_slo_stop_names_what_saturated():
    detail = heap_search.stop_detail(MemoryStop.SLO, row(errors=640, p99_ms=30_000.0, worker_queue_max=800.0), 2)
    assert detail.startswith("p99 30,000 ms, 640 failed, 0 dropped of 1000; worker-pool starvation: up to 800 tasks")


def test_the_memory_search_is_planned_per_case_and_model():
    case = MemoryCase("vus:1000", "10s", warmup_variant="1s", held_bytes=True)
    assert heap_search.run_seconds("hold", case, 6) == 10.0  # each VU's request is held 10 s
    step = heap_search.STEP_OVERHEAD_S + 4 + 10
    expected = 3 * (heap_search.USUAL_STEPS * step + heap_search.HELD_BYTES_EXTRA_S)
    assert heap_search.planned_seconds((("hold", case),), 3, 6, 4) == expected
    assert heap_search.planned_seconds((("hold", case),), 3, 6, 4, upper_bound=True) > expected
