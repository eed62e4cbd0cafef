"""When a step is measured again, and what disturbed a measurement: other processes and the hypervisor's steal, or
the app's JIT still compiling. Pure rules over a run's row: the run side applies them as it measures
(run/measure/steps.py), and the report reads them back to flag a step that held in spite of a disturbance."""
from __future__ import annotations

from benchlab.model import LoadKind
from benchlab.results import slo, why
from benchlab.results.steady import SteadyRule

# A breach of a search step measured again beside the same kind of disturbance confirms nothing: it gets one more
# measurement (recorded: virtual broke 500/s with 70 % of a core stolen by the hypervisor, then again in the same
# spell, and its search ended at 420/s where seven other runs found 600 to 1,000/s). Everything else: at most two.
MAX_ATTEMPTS = 3


def generator_limited(row: dict, cores: int) -> bool:
    """Whether k6 itself was the first resource to saturate in a run (why.py): then a breach is not the app's."""
    hits = why.saturated(row, cores)
    return bool(hits) and hits[0][1].resource == "k6 CPU"


def interference(row: dict, max_interference: float) -> str | None:
    """Whether other processes (and the hypervisor's steal, on a virtual machine) took more of the machine during a
    step than the limit (% of one core), in words; None if not."""
    other, steal = row.get("other_cpu_pct"), row.get("steal_cpu_pct")
    steal = steal if steal is not None and steal == steal else 0.0  # a row read back has NaN for "not measured"
    if other is not None and other + steal > max_interference:
        return (f"other processes used {other:.0f} % of one core" + (f" and the hypervisor kept {steal:.0f} %"
                                                                       if steal >= 1 else "")
                + f" (more than {max_interference:g} % in all)")
    return None


def compiling(row: dict) -> str | None:
    """Whether the app's JIT was still compiling during a step (over a steady app's rate), in words; None if not. It
    comes in bursts after the warm-up: bench/README.md, "Measuring a step again"."""
    jit, limit = row.get("jit_ms_per_s"), SteadyRule().jit_ms_per_s
    if jit is not None and jit == jit and jit > limit:
        return f"the JIT compiled {jit:.0f} ms per second during it (a steady app: at most {limit:g})"
    return None


def disturbance(row: dict, max_interference: float) -> str | None:
    """What disturbed a measurement, in words (interference first), or None."""
    return interference(row, max_interference) or compiling(row)


def measure_again(row: dict, cores: int, max_interference: float, kind: str) -> str | None:
    """Why a step of this load kind must be measured again, or None: interference or the JIT where they tell (any cost
    run; a breach, the JIT only short of a margin), or an open-model breach that neither k6 nor a margin explains.
    Why a pass is never measured again: bench/README.md, "Measuring a step again"."""
    if row.get("p99_ms") is None:  # k6 measured nothing (its failure is the bench's, and said as such)
        return None
    if kind == LoadKind.COST:
        return disturbance(row, max_interference)
    # a profile is read for its shares, not its figures; a soak over minutes, for what grows in them
    if kind in (LoadKind.PROFILE, LoadKind.SOAK) or slo.holds_slo(row):
        return None
    if disturbed := interference(row, max_interference) or (not slo.breach_by_margin(row) and compiling(row)):
        return disturbed
    if kind == LoadKind.OPEN and not generator_limited(row, cores) and not slo.breach_by_margin(row):
        return (f"to confirm a breach: p99 {row['p99_ms']:.1f} ms, {row['errors']} failed and {row['dropped']} dropped "
                f"of {row['requests'] + row['dropped']}")
    return None


def measure_once_more(row: dict, max_interference: float, kind: str) -> str | None:
    """Why a step measured again needs one more measurement, or None: an open-model step (a capacity is read from it)
    that broke the SLO again, short of a margin, while disturbed again (a starved step's losses are its own)."""
    if kind != LoadKind.OPEN or slo.holds_slo(row) or slo.breach_by_margin(row):
        return None
    return disturbance(row, max_interference)
