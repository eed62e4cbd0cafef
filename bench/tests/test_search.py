import pytest

from benchlab.plan.search import Search, SearchSettings, Stop, cost_rate, round_rate


def drive(search: Search, capacity: float, generator_limit: float | None = None) -> list[float]:
    """Runs a search against a model that holds the SLO up to `capacity` (and a k6 that tops out at its limit)."""
    offered = []
    while (rate := search.next_rate()) is not None:
        offered.append(rate)
        limited = generator_limit is not None and rate > generator_limit
        search.record(rate, held=rate <= capacity and not limited, load_generator_limited=limited)
    return offered


def test_it_climbs_until_the_slo_breaks_then_bisects_to_the_resolution():
    search = Search(SearchSettings(start=100))
    offered = drive(search, capacity=1000)
    assert offered[:5] == [100, 200, 400, 800, 1600]
    assert search.stop is Stop.RESOLVED
    assert search.held <= 1000 < search.broke <= search.held * 1.2
    assert len(offered) <= 9


def test_a_known_ceiling_ends_the_climb_there_and_says_so():
    search = Search(SearchSettings(start=500), ceiling=3000)
    offered = drive(search, capacity=10_000)
    assert offered == [500, 1000, 2000, 3000]
    assert search.stop is Stop.CEILING and search.held == 3000 and search.broke is None


def test_a_break_the_load_generator_caused_is_not_the_apps():
    search = Search(SearchSettings(start=100))
    drive(search, capacity=10_000, generator_limit=700)
    assert search.stop is Stop.LOAD_GENERATOR and search.held == 400 and search.broke == 800


def test_a_model_that_breaks_at_the_start_is_searched_downwards():
    search = Search(SearchSettings(start=400))
    offered = drive(search, capacity=120)
    assert offered[:3] == [400, 200, 100]
    assert search.stop is Stop.RESOLVED and search.held <= 120 < search.broke


def test_nothing_held_stops_below_an_eighth_of_the_start():
    search = Search(SearchSettings(start=400))
    assert drive(search, capacity=1) == [400, 200, 100, 50]
    assert search.stop is Stop.NOTHING_HELD and search.held is None


def test_going_down_offers_whole_rates_only():
    # k6 refuses a fractional arrival rate (exit 107): a pod of 0.25 CPU once went 500, 250, 125, then 62.5/s
    assert drive(Search(SearchSettings(start=500)), capacity=1) == [500, 250, 120]
    offered = drive(Search(SearchSettings(start=350)), capacity=80)
    assert offered == [350, 180, 90, 45, 64, 76] and all(rate == int(rate) for rate in offered)


def test_the_budget_ends_a_search_that_has_not_found_its_answer():
    search = Search(SearchSettings(start=10, max_steps=4))
    assert drive(search, capacity=1e9) == [10, 20, 40, 80]
    assert search.stop is Stop.BUDGET and search.held == 80


def test_a_pass_above_a_failure_is_luck_not_capacity():
    search = Search(SearchSettings(start=100))
    for rate, ok in ((100, True), (200, False), (141, True)):
        search.record(rate, ok)
    search.steps.append((300, True))  # a lucky pass above the failure
    assert search.held == 141 and search.broke == 200


@pytest.mark.parametrize("rate, rounded", [(1234, 1200), (99.6, 100), (45.4, 45), (0.2, 1), (1650, 1600)])
def test_rates_read_well(rate, rounded):
    assert round_rate(rate) == rounded


def test_nonsense_settings_are_refused():
    with pytest.raises(ValueError):
        SearchSettings(start=0)
    with pytest.raises(ValueError):
        SearchSettings(start=10, factor=1)


def test_cost_rates_stay_as_planned_below_every_knee():
    # the quick preset's JWT + MySQL rates in a 0.5 CPU jar: knees at 1,200 to 1,700/s
    assert [cost_rate(r, 1000, [1200, 1700, 1500]) for r in (250, 500, 1000)] == [250, 500, 1000]
    assert cost_rate(1000, 1000, [1000]) == 1000  # at the highest rate that held: within the knee
    assert cost_rate(500, 1000, []) == 500  # no search: as given


def test_cost_rates_past_a_knee_move_below_the_lowest_together():
    # a 0.25 CPU pod whose worker held 380/s: the verdict's rate at 80 % of it, the ladder's shape kept, whole rates
    assert [cost_rate(r, 1000, [380, 420, 700]) for r in (250, 500, 1000)] == [76, 150, 300]
