"""When a warm-up may end (results/steady.py), on series shaped like the ones measured here: a JVM compiling for half a
minute looks flat per request without being steady; once the JIT is done the cost falls, then settles."""
import dataclasses

from benchlab.results.steady import SteadyRule, Window

RULE = SteadyRule()


def series(cpu, p99, jit=None, requests=1000):
    jit = jit or [None] * len(cpu)
    return [Window(2.0 * (i + 1), requests, requests, p, c, j) for i, (c, p, j) in enumerate(zip(cpu, p99, jit))]


def first_steady(windows):
    """The end of the first window at which the rule calls the app steady, or None."""
    return next((w.end_s for i, w in enumerate(windows) if RULE.steady(windows[:i + 1])), None)


def test_a_jvm_still_compiling_is_not_steady_however_flat_its_cost_looks():
    # the quick preset's first step here: 2.0 to 2.3 ms of CPU per request while the compilers ran flat out
    compiling = series(cpu=[2.2, 2.1, 2.3, 2.2, 2.2], p99=[40, 42, 41, 43, 40], jit=[600, 580, 610, 590, 600])
    assert first_steady(compiling) is None


def test_it_is_steady_once_the_jit_is_done_and_the_cost_has_stopped_falling():
    windows = series(cpu=[2.2, 2.0, 0.9, 0.5, 0.3, 0.19, 0.17, 0.18, 0.17],
                     p99=[45, 40, 20, 12, 9, 8, 8, 9, 8],
                     jit=[600, 500, 300, 120, 60, 30, 10, 5, 4])
    # 0.19 -> 0.17 -> 0.18: within 10 %, the JIT under 50 ms/s in each of the three windows
    assert first_steady(windows) == 16.0


def test_noise_upwards_does_not_hold_a_warm_up_back_but_improvement_does():
    gc_pause = series(cpu=[0.18, 0.25, 0.19], p99=[8, 31, 9], jit=[3, 4, 3])  # a pause in the middle window
    assert RULE.steady(gc_pause)
    falling = series(cpu=[0.30, 0.24, 0.20], p99=[8, 8, 8], jit=[3, 4, 3])  # still 33 % cheaper over 4 s
    assert not RULE.steady(falling)


def test_small_latencies_jitter_within_a_slack():
    assert RULE.steady(series(cpu=[0.18, 0.18, 0.18], p99=[4.0, 2.5, 3.1], jit=[0, 0, 0]))  # 1.5 ms < 2 ms slack


def test_windows_with_too_few_requests_say_nothing():
    assert not RULE.steady(series(cpu=[0.5, 0.5, 0.5], p99=[600, 600, 600], jit=[0, 0, 0], requests=5))


def test_without_a_jit_or_without_the_apps_cpu_the_other_figures_decide():
    native = series(cpu=[0.3, 0.31, 0.3], p99=[10, 10, 11])  # no JIT series at all
    assert RULE.steady(native)
    target = series(cpu=[None, None, None], p99=[10, 10, 11], jit=[2, 3, 2])  # an app elsewhere: no process CPU
    assert RULE.steady(target)
    one_read_missed = series(cpu=[0.3, 0.3, 0.3], p99=[10, 10, 10], jit=[2, None, 2])
    assert not RULE.steady(one_read_missed)


def test_a_p99_that_falls_by_less_than_a_tenth_of_the_slo_is_no_sign_of_warming_up():
    # recorded (JWT + MySQL, SLO 50 ms): the worker model's JIT quiet and its cost flat, its p99 18.5, 15.6, 35.2 ms
    worker = series(cpu=[0.807, 0.750, 0.747], p99=[18.45, 15.56, 35.21], jit=[20.7, 10.2, 9.3])
    assert not RULE.steady(worker)  # 2.9 ms down: more than the bare 2 ms slack
    assert SteadyRule.for_slo(50.0).steady(worker)  # less than 5 ms, a tenth of the bound
    # a p99 still falling by more than a tenth of the bound is warming up at any bound
    assert not SteadyRule.for_slo(50.0).steady(series(cpu=[0.5, 0.5, 0.5], p99=[30, 22, 20], jit=[5, 5, 5]))
    # a small bound keeps the bare slack
    assert SteadyRule.for_slo(10.0).p99_slack_ms == RULE.p99_slack_ms


def test_an_app_that_fails_requests_is_not_steady_however_flat_its_figures():
    # recorded: a cold JVM overloaded at 500/s, its requests timing out at 5 s and its JIT figure unread (the app too
    # busy to answer): flat p99 and CPU per request, 426 to 631 of about 1,000 requests failed in each window
    saturated = [Window(2.0 * (i + 1), 1000, ok, p99, cpu) for i, (ok, p99, cpu) in
                 enumerate([(477, 5307.98, 1.62), (369, 5496.23, 1.66), (574, 5040.1, 1.65)])]
    assert not SteadyRule.for_slo(50.0).steady(saturated)
    assert SteadyRule.for_slo(50.0).steady([dataclasses.replace(w, ok=w.requests) for w in saturated])
