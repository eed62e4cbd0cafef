import numpy as np

from benchlab.results import stats


def runs(mean, n_runs=3, seconds=20, seed=0):
    rng = np.random.default_rng(seed)
    return [mean + rng.normal(0, 1, seconds) for _ in range(n_runs)]


def test_same_distribution_is_no_detectable_difference():
    d = stats.difference(runs(10, seed=1), runs(10, seed=2))
    assert not d.detectable
    assert stats.verdict("a", "b", d, "mean latency", "ms").startswith("no detectable difference")


def test_clear_shift_is_detected_with_the_right_sign_and_percent():
    d = stats.difference(runs(12, seed=3), runs(10, seed=4))
    assert d.detectable and d.low > 0
    share, low, high = d.as_percent()
    assert low < share < high
    assert 0.15 < share < 0.25
    text = stats.verdict("worker", "reactive", d, "mean latency", "ms")
    assert text.startswith(f"worker mean latency is {share * 100:.0f} % higher than reactive")


def test_lower_wording():
    d = stats.difference(runs(8, seed=5), runs(10, seed=6))
    assert "% lower than" in stats.verdict("a", "b", d, "mean latency", "ms")


def test_block_resample_keeps_run_length_and_reproduces():
    rng = np.random.default_rng(7)
    dist = stats.block_resample_means([np.arange(7.0)], rng, resamples=50, block=5)
    assert dist.shape == (50,)
    assert dist.min() >= 0 and dist.max() <= 6
    assert stats.difference(runs(10), runs(11)) == stats.difference(runs(10), runs(11))


def test_short_run_shorter_than_a_block():
    d = stats.difference([np.array([1.0, 2.0])], [np.array([1.0, 2.0])])
    assert d.estimate == 0


def test_small_detectable_difference_is_not_written_as_zero():
    a = [np.full(20, 606.0) + np.linspace(0, 0.1, 20)] * 2
    b = [np.full(20, 604.0) + np.linspace(0, 0.1, 20)] * 2
    text = stats.verdict("virtual", "worker", stats.difference(a, b), "mean latency", "ms")
    assert text.startswith("virtual mean latency is 0.3 % higher than worker")


def test_bounds_of_a_tight_interval_keep_their_size():
    assert stats.percent(-0.0002, "+") == "-0.02"
    assert stats.percent(0.0004, "+") == "+0.04"
    assert stats.percent(0.004) == "0.4"
    assert stats.percent(0.2) == "20"


def test_the_interval_covers_the_variation_between_runs():
    # Three steady runs per side whose levels scatter from run to run (100, 110, 120 against 105, 112, 118): within
    # each run nothing varies, so only the runs' own scatter can tell that a 2 % gap is no detectable difference.
    steady = lambda level: np.full(20, float(level))  # noqa: E731
    d = stats.difference([steady(100), steady(110), steady(120)], [steady(105), steady(112), steady(118)])
    assert not d.detectable
    assert d.low < -0.05 * d.reference and d.high > 0.03 * d.reference



def test_one_run_on_a_side_gives_the_difference_and_no_interval():
    """Recorded in --compare: one run a side, and the bootstrap over its seconds read "+233 % (+233 to +233 %)". The
    seconds of one run do not vary as runs do: the cell gives the estimate and "1 run"."""
    steady = lambda level: np.full(20, float(level))  # noqa: E731
    for a, b in (([steady(333)], [steady(100)]), ([steady(333)] * 3, [steady(100)])):
        d = stats.difference(a, b)
        assert not d.bounded and not d.detectable and d.estimate == 233
        assert stats.share_text(d) == "+233 %, 1 run"
        assert stats.verdict("B", "A", d, "mean latency", "ms") == (
            "B mean latency (333 ms) is 233 % higher than A (100 ms), 1 run")
    assert stats.difference([steady(333)] * 2, [steady(100)] * 2).bounded


def test_a_drift_within_one_run_keeps_its_interval_from_the_runs_seconds():
    rng = np.random.default_rng(3)
    d = stats.within_run(110 + rng.normal(0, 1, 60), 100 + rng.normal(0, 1, 60))
    assert d.bounded and d.detectable and d.low < d.estimate < d.high
