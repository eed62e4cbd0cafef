"""A capacity search for one model and repetition, pure: given each step's outcome, the next rate, or None. It climbs
x2 until the SLO breaks, then bisects to the resolution; it stops early at a ceiling or where k6 was the limit, and
halves down to MIN_FACTOR of the start where the first step breaks (bench/README.md, "The plan and its steps")."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from benchlab.model import Stop

MIN_FACTOR = 1 / 8  # below start/8 the search gives up: "none of the steps held"


@dataclass(frozen=True)
class SearchSettings:
    start: float  # requests/s of the first step
    factor: float = 2.0  # growth per step until the SLO breaks
    resolution: float = 0.10  # done when the lowest rate that broke is at most (1 + 2 x resolution) x the highest held
    max_steps: int = 10

    def __post_init__(self):
        if self.start <= 0 or self.factor <= 1 or not 0 < self.resolution < 1 or self.max_steps < 1:
            raise ValueError(f"bad search settings {self}")


@dataclass
class Search:
    settings: SearchSettings
    ceiling: float | None = None  # a known rate the app cannot be measured beyond (None: none known)
    steps: list[tuple[float, bool]] = field(default_factory=list)  # (rate, held the SLO), in the order offered
    stop: Stop | None = None

    @property
    def held(self) -> float | None:
        """The highest rate that held, below the lowest that broke (a pass above a failure is luck, not capacity)."""
        broke = self.broke
        passed = [r for r, ok in self.steps if ok and (broke is None or r < broke)]
        return max(passed) if passed else None

    @property
    def broke(self) -> float | None:
        failed = [r for r, ok in self.steps if not ok]
        return min(failed) if failed else None

    def next_rate(self) -> float | None:
        if self.stop is not None:
            return None
        s = self.settings
        if not self.steps:
            return self._capped(s.start)
        held, broke = self.held, self.broke
        if len(self.steps) >= s.max_steps:
            return self._stop(Stop.BUDGET)
        if held is None:  # nothing held yet: go down, to a whole rate (k6's arrival rates are integers)
            lower = broke / s.factor
            return self._stop(Stop.NOTHING_HELD) if lower < s.start * MIN_FACTOR * (1 - 1e-9) else round_rate(lower)
        if broke is None:
            if self.ceiling is not None and held >= self.ceiling * (1 - s.resolution):
                return self._stop(Stop.CEILING)
            return self._capped(held * s.factor)
        middle = round_rate(math.sqrt(held * broke))
        if broke <= held * (1 + 2 * s.resolution) or not held < middle < broke:
            return self._stop(Stop.RESOLVED)
        return middle

    def record(self, rate: float, held: bool, load_generator_limited: bool = False) -> None:
        """The outcome of the step at `rate`. A broken step that k6 itself limited ends the search: the app's
        capacity is at least the highest rate that held, and the rest would measure k6."""
        self.steps.append((rate, held))
        if not held and load_generator_limited:
            self.stop = Stop.LOAD_GENERATOR

    def _capped(self, rate: float) -> float:
        return round_rate(min(rate, self.ceiling) if self.ceiling else rate)

    def _stop(self, why: Stop) -> None:
        self.stop = why
        return None


def round_rate(rate: float) -> float:
    """Two significant digits above 100/s, whole requests below: rates that read well in a table (1,700/s, 45/s)."""
    if rate >= 100:
        magnitude = 10 ** (math.floor(math.log10(rate)) - 1)
        return float(round(rate / magnitude) * magnitude)
    return float(max(1, round(rate)))


# Where a block's search found a capacity below its verdict's cost rate, the verdict's rate moves to this share of the
# lowest: near the knee, as the cost is meant to be read, with room for a step's scatter (a 4 s step that held).
KNEE_SHARE = 0.8


def cost_rate(planned: float, verdict: float, capacities: list[float]) -> float:
    """A cost rate within a block's knees: as planned where the block's lowest capacity is at least the verdict's rate
    (the highest), else scaled with the others so that the verdict's sits at KNEE_SHARE of it. Past a knee a run
    measures a backlog, not what a request costs."""
    lowest = min(capacities, default=None)
    if lowest is None or verdict <= lowest:
        return planned
    return round_rate(planned * KNEE_SHARE * lowest / verdict)
