"""A memory search for one model and one fixed load: the smallest -Xmx at which a fresh, warmed app holds it, and what
stops it below. Pure: given each step's outcome, it answers with the next heap, or None. Coarse to fine, 2 GB then
32 MB then bisected: why, in bench/README.md, "The memory search and --heap"."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from benchlab.model import HeapSearchEnd, HeapStep, MemoryCase, MemoryStop
from benchlab.results import why
from benchlab.scenarios import SCENARIOS

# GC pauses above this share of a run's time: the heap is too small for the load even where the SLO still held
# (why.py names GC as the saturated resource at the same level).
GC_SHARE_LEVEL_PCT = next(rule.level for rule in why.RULES if rule.resource == "GC")
# A step's outcome by memory: these stops say that more heap would help; SLO does not.
MEMORY_STOPS = (MemoryStop.START, MemoryStop.OOM, MemoryStop.GC)
# Where the largest heap broke the SLO by latency alone, a smaller heap holds when its p99 is within this share above
# the largest heap's.
LATE_TOLERANCE = 0.10


@dataclass(frozen=True)
class HeapSettings:
    low_mb: int = 32  # the smallest heap tried
    high_mb: int = 2048  # the largest heap tried
    resolution: float = 0.15  # done when the smallest heap that held is at most (1 + resolution) x the largest broke
    max_steps: int = 10  # five halvings, the top, and a few confirmations of late-only breaks

    def __post_init__(self):
        if not 0 < self.low_mb < self.high_mb or not 0 < self.resolution < 1 or self.max_steps < 2:
            raise ValueError(f"bad heap search settings {self}")

    @property
    def middle_mb(self) -> int:
        return round(math.sqrt(self.low_mb * self.high_mb))


@dataclass
class HeapSearch:
    settings: HeapSettings = field(default_factory=HeapSettings)
    steps: list[HeapStep] = field(default_factory=list)
    end: HeapSearchEnd | None = None

    @property
    def outcomes(self) -> list[HeapStep]:
        """Each heap's outcome: its last step (a late-only break measured again is decided by the second run)."""
        return list({s.heap_mb: s for s in self.steps}.values())

    @property
    def held(self) -> int | None:
        """The smallest heap that held."""
        return min((s.heap_mb for s in self.outcomes if s.held), default=None)

    @property
    def broke(self) -> HeapStep | None:
        """The largest heap that broke below the smallest that held (of all steps when none held)."""
        held = self.held
        below = [s for s in self.outcomes if not s.held and (held is None or s.heap_mb < held)]
        return max(below, key=lambda s: s.heap_mb, default=None)

    def next_heap(self) -> int | None:
        if self.end is not None:
            return None
        s = self.settings
        if not self.steps:
            return s.high_mb  # the reference: with all the memory it can use, does the model hold the load at all?
        if len(self.steps) >= s.max_steps:
            return self._end(HeapSearchEnd.BUDGET)
        last = self.steps[-1]
        measured = sum(step.heap_mb == last.heap_mb for step in self.steps)
        if last.late_only and last.heap_mb < s.high_mb and measured == 1:
            return last.heap_mb  # once more, on a fresh app
        held, broke = self.held, self.broke
        if held is None:  # the largest heap broke: no heap holds the load
            return self._end(HeapSearchEnd.NOTHING_HELD)
        if held >= s.high_mb and broke is None and s.low_mb not in {step.heap_mb for step in self.steps}:
            return s.low_mb  # the other end: where the smallest heap holds, two steps tell
        if broke is not None and broke.heap_mb == s.low_mb and held >= s.high_mb:
            return s.middle_mb
        if held <= s.low_mb:
            return self._end(HeapSearchEnd.FLOOR)
        low = broke.heap_mb if broke else s.low_mb
        if held <= low * (1 + s.resolution):
            return s.low_mb if broke is None else self._end(HeapSearchEnd.RESOLVED)
        middle = round(math.sqrt(low * held))
        if not low < middle < held:
            return s.low_mb if broke is None else self._end(HeapSearchEnd.RESOLVED)
        return middle

    def record(self, step: HeapStep) -> None:
        self.steps.append(step)

    def _end(self, why_: HeapSearchEnd) -> None:
        self.end = why_
        return None


def step_stop(row: dict | None, start_error: str | None = None, oom: str | None = None,
              reference_p99_ms: float | None = None) -> MemoryStop | None:
    """A step's outcome: None if the app held the load (bench/README.md, "The memory search and --heap"), else the
    first of: it did not start, it ran out of memory, GC, the SLO. row: the measured run's figures and its scenario
    (None where the app did not start)."""
    if start_error is not None or row is None:
        return MemoryStop.START
    if oom:
        return MemoryStop.OOM
    if (row.get("gc_share_pct") or 0) > GC_SHARE_LEVEL_PCT:
        return MemoryStop.GC
    if row["errors"] or row["dropped"] or not row["requests"] or row["p99_ms"] is None:
        return MemoryStop.SLO
    return None if row["p99_ms"] <= p99_limit(row["scenario"], reference_p99_ms) else MemoryStop.SLO


def p99_limit(scenario: str, reference_p99_ms: float | None) -> float:
    """The p99 a step must keep: the scenario's SLO, or the largest heap's p99 + LATE_TOLERANCE where that was over."""
    limit = SCENARIOS[scenario].slo_p99_ms
    return max(limit, reference_p99_ms * (1 + LATE_TOLERANCE)) if reference_p99_ms else limit


def stop_detail(stop: MemoryStop | None, row: dict | None, cores: int, message: str | None = None) -> str:
    """What names a step's stop: the JVM's message (START, OOM), the GC share, or the resource that saturated first
    with the p99 and the failures (SLO)."""
    if stop is None:
        return ""
    if stop in (MemoryStop.START, MemoryStop.OOM):
        return message or ""
    if stop == MemoryStop.GC:
        return f"{row['gc_share_pct']:.1f} % of the run in GC pauses"
    p99 = "-" if row.get("p99_ms") is None else f"{row['p99_ms']:,.0f}"
    return (f"p99 {p99} ms, {int(row['errors'])} failed, {int(row['dropped'])} dropped of "
            f"{int(row['requests'] + row['dropped'])}; "
            + why.explain(row, cores, SCENARIOS[row["scenario"]].worker_branches_nest))


# What a step costs beyond its load: the app's start to its first answer, the warm-up's k6 start and stop, the stop.
STEP_OVERHEAD_S = 12.0
USUAL_STEPS = 6  # the two ends and five halvings; two where the smallest heap holds, one where the largest does not
# on a model's first step, after its measured run: a drain, the idle snapshot (a full GC, the heap and native memory by
# jcmd), a k6 run that holds the connections (a hold, k6's start and stop) and the held snapshot
HELD_BYTES_EXTRA_S = 18.0


def run_seconds(scenario: str, case: MemoryCase, duration: float) -> float:
    """A measured step's length: the run's duration, or a held connection's hold where that is longer (each VU's
    request is held to its end)."""
    hold = dict((k, v) for variant in SCENARIOS[scenario].variants if variant.name == case.variant
                for k, v in variant.k6_env).get("HOLD_MS")
    return max(duration, float(hold) / 1000 if hold else 0.0)


def planned_seconds(cases: tuple[tuple[str, MemoryCase], ...], models: int, duration: float, warmup: float,
                    upper_bound: bool = False) -> float:
    """The memory searches: per case and model its usual steps (at most its budget), each a fresh app, a warm-up and
    the measured run; and the heap per held request where the case measures it (on the first step's app)."""
    steps = HeapSettings().max_steps if upper_bound else USUAL_STEPS
    total = 0.0
    for scenario, case in cases:
        step = STEP_OVERHEAD_S + warmup + run_seconds(scenario, case, duration)
        total += models * (steps * step + (HELD_BYTES_EXTRA_S if case.held_bytes else 0))
    return total
