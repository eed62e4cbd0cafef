import pytest

from benchlab.formatting import compare, percent_change


def test_lower_is_computed_against_the_reference():
    # the example: 10.05 ms against 12.67 ms is 21 % lower (not 26 %)
    assert compare("worker", 10.05, "reactive", 12.67, "p99", "ms") == \
        "worker p99 (10.1 ms) is 21 % lower than reactive (12.7 ms)"


def test_higher_the_other_way_round():
    assert compare("reactive", 12.67, "worker", 10.05, "p99", "ms") == \
        "reactive p99 (12.7 ms) is 26 % higher than worker (10.1 ms)"


def test_within_one_percent():
    assert "within 1 %" in compare("a", 100.2, "b", 100.0, "p99")


def test_percent_change_and_zero_reference():
    assert percent_change(79, 100) == pytest.approx(-0.21)
    with pytest.raises(ValueError):
        percent_change(1, 0)
