import pandas as pd

from benchlab.results import slo


def rows(model, scenario, results):
    """results: (load, repetition, p99_ms, errors, dropped) with 1000 requests each."""
    return [dict(scenario=scenario, model=model, load_model="open", load=l, repetition=r, p99_ms=p, errors=e,
                 dropped=d, requests=1000) for l, r, p, e, d in results]


def test_capacity_is_the_highest_step_held_with_the_ladder_interval():
    t = pd.DataFrame(rows("worker", "aggregate", [
        (50, 1, 610, 0, 0), (100, 1, 650, 0, 0), (200, 1, 6000, 300, 0),
        (50, 2, 610, 0, 0), (100, 2, 1200, 0, 0), (200, 2, 6000, 300, 0),
        (50, 3, 612, 0, 0), (100, 3, 690, 1, 0), (200, 3, 6000, 300, 0)]))
    (c,) = slo.capacities(t)
    assert (c.rate, c.low, c.high) == (100, 50, 200)


def test_errors_and_dropped_count_against_the_slo():
    t = pd.DataFrame(rows("virtual", "jwt-mysql", [(100, 1, 5, 1, 0), (200, 1, 5, 1, 1), (400, 1, 5, 0, 0)]))
    (c,) = slo.capacities(t)
    # 2 of 1001 offered at 200/s breaks 0.1 %; the pass at 400/s above a failure is not capacity
    assert (c.rate, c.low, c.high) == (100, 100, 200)


def test_no_step_held_and_top_of_ladder():
    t = pd.DataFrame(rows("worker", "jwt-mysql", [(100, 1, 80, 0, 0)]) + rows("reactive", "jwt-mysql",
                                                                             [(100, 1, 3, 0, 0)]))
    caps = {c.model: c for c in slo.capacities(t)}
    assert caps["worker"].rate == 0 and caps["worker"].high == 100
    assert caps["reactive"].rate == 100 and caps["reactive"].high == 100


def test_a_row_is_judged_against_the_bound_it_was_measured_with():
    # the aggregation measured under its earlier 700 ms bound, read back after the bound became 1 s
    old = dict(rows("virtual", "aggregate", [(400, 1, 820, 0, 0)])[0], variant="", slo_p99_ms=700.0)
    assert not slo.holds_slo(old) and slo.holds_slo(dict(old, slo_p99_ms=None))  # unrecorded: the bound now
    assert slo.scenario_bound_ms(pd.DataFrame([old]), "aggregate") == 700.0
    # only a variant measured (the quick preset's 1 s holds): its bound, not the 10 s holds'
    held = dict(rows("worker", "hold", [(200, 1, 1500, 0, 0)])[0], variant="1s", load_model="closed")
    assert slo.scenario_bound_ms(pd.DataFrame([held]), "hold") == 2000.0 and slo.holds_slo(held)


def test_a_knee_is_flat_where_a_measurement_of_the_next_step_came_within_reach_of_the_bound():
    from benchlab.report.capacity import flat_knees
    # worker's JWT + MySQL steps of one quick run: 1,400/s measured again (50.1, then 105.5 ms) and 1,200/s held at 41
    worker = rows("worker", "jwt-mysql", [(1000, 1, 29, 0, 0), (1200, 1, 41, 0, 0), (1400, 1, 50.1, 0, 0),
                                          (1400, 1, 105.5, 0, 0), (2000, 1, 157, 0, 125)])
    # reactive: a clear knee, 20 ms below it and 160 ms above it
    reactive = rows("reactive", "jwt-mysql", [(1000, 1, 12, 0, 0), (1400, 1, 20, 0, 0), (2000, 1, 160, 0, 90)])
    all_runs = pd.DataFrame(worker + reactive).assign(slo_p99_ms=50.0)
    final = all_runs.drop(index=2)  # the superseded first measurement of 1,400/s
    caps = slo.capacities(final)
    assert {c.model: c.rate for c in caps} == {"worker": 1200, "reactive": 1400}
    (note,) = flat_knees(all_runs, caps)
    assert note.startswith("jwt-mysql, worker: a flat knee, p99 41 ms at 1200/s and 50 ms at 1400/s against 50 ms")
    assert flat_knees(final, caps) == []  # the last measurement alone (105.5 ms) hides it
