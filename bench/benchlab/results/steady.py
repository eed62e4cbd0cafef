"""Steady state: when a warm-up may end. Steady once, over the last few windows, every request succeeded, the JIT
has all but stopped compiling and neither the CPU per request nor the p99 is still falling; only improvement and
failure hold a warm-up back, not noise. Pure; why: bench/README.md, "Warm-up until steady"."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Window:
    """One short window of a warm-up: what ended in it and what it cost the app."""
    end_s: float  # seconds since the warm-up's load started
    requests: int  # requests that ended in the window
    ok: int
    p99_ms: float | None
    app_cpu_ms_per_req: float | None  # the app's CPU over the window / the requests that ended in it
    jit_ms_per_s: float | None = None  # the JIT compilers' time per second of the window (None: not read)


SLO_SHARE = 0.10  # of a scenario's p99 bound: a smaller fall of the p99 is no sign of warming up (for_slo)


@dataclass(frozen=True)
class SteadyRule:
    windows: int = 3  # over the last this many windows
    tolerance: float = 0.10  # neither figure fell by more than 10 % from the first of them
    # Absolute slack below which two figures count as equal: a p99 of 3 ms jitters by more than 10 % from one window
    # to the next without anything warming up, and so does a CPU figure of a few hundredths of a millisecond.
    p99_slack_ms: float = 2.0
    cpu_slack_ms: float = 0.02
    min_requests: int = 20  # a window with fewer requests says nothing about either figure
    # The JIT is done when it compiles less than this many ms per second: 5 % of one core. It never stops for good
    # (a method becomes hot, a deoptimisation is compiled again), but by then it no longer shows in the figures.
    jit_ms_per_s: float = 50.0

    @classmethod
    def for_slo(cls, slo_p99_ms: float) -> SteadyRule:
        """The rule for a scenario judged at this p99 bound: a p99 falling by less than SLO_SHARE of the bound counts as
        none, since a short window's p99 moves that much with the steal alone (a worker model warmed on for p99s of
        18.5, 15.6 and 35.2 ms against a 50 ms bound)."""
        return cls(p99_slack_ms=max(cls.p99_slack_ms, SLO_SHARE * slo_p99_ms))

    def stopped_falling(self, values: list[float | None], slack: float) -> bool:
        """No later value below the first by more than the tolerance (or the slack, where that is more)."""
        if any(v is None for v in values):
            return False
        first = values[0]
        return all(first - v <= max(self.tolerance * first, slack) for v in values[1:])

    def steady(self, windows: list[Window]) -> bool:
        """Whether the JIT has all but stopped and CPU per request and p99 have stopped falling over the last
        `windows` windows. Without the app's CPU (an app started elsewhere: --target), by its p99 and its JIT."""
        last = windows[-self.windows:]
        if len(last) < self.windows or any(w.requests < self.min_requests for w in last):
            return False
        if any(w.ok < w.requests for w in last):  # a saturated app's p99 sits flat at the timeout: failing, not steady
            return False
        jit = [w.jit_ms_per_s for w in last]
        # a runtime without a JIT (native) or an app whose metrics are not ours to read has no such figure at all
        if any(j is not None for j in jit) and not all(j is not None and j <= self.jit_ms_per_s for j in jit):
            return False
        cpu = [w.app_cpu_ms_per_req for w in last]
        return ((all(c is None for c in cpu) or self.stopped_falling(cpu, self.cpu_slack_ms))
                and self.stopped_falling([w.p99_ms for w in last], self.p99_slack_ms))
