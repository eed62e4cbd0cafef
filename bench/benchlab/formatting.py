"""How the bench writes a number, a share, a ratio, a duration or a range: the one way every layer uses. Standard
library only and beneath the rest of benchlab, so that bench/startup runs without the venv. Percent wording: "X is
21 % lower than Y" means (Y - X) / Y = 0.21."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass


def fmt(v: float, unit: str = "") -> str:
    """About three significant figures: 1234 -> '1234', 12.34 -> '12.3', 1.234 -> '1.23'."""
    text = f"{v:.0f}" if abs(v) >= 100 else f"{v:.1f}" if abs(v) >= 10 else f"{v:.2f}"
    return f"{text} {unit}".rstrip()


def num(v, digits=None) -> str:
    """A table's number: fmt's figures, or a fixed number of decimals; '-' for none (None, NaN)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return fmt(float(v)) if digits is None else f"{float(v):.{digits}f}"


def percent(share: float, digits: int = 1) -> str:
    """A share as a percentage, 0.976 -> '97.6%': the one way the report writes one."""
    return f"{share:.{digits}%}"


# What a cell says in place of an interval: one repetition says nothing of the scatter from run to run, and an
# interval unbounded or wider than its estimate (a cost at a low rate, from the CPU clock's ticks) bounds nothing.
ONE_RUN = "1 run"
TOO_FEW_REQUESTS = "too few requests to tell"


def one_run(estimate: str) -> str:
    """An estimate from one repetition: '+233 %, 1 run', never an interval of width 0."""
    return f"{estimate}, {ONE_RUN}"


def ratio(value: float, low: float | None = None, high: float | None = None) -> str:
    """A multiple of a reference with the range it may lie in: '0.21x (0.18 to 0.22)', '0.40x (at most 0.50)'."""
    text = f"{value:.2f}x"
    if low is None or high is None:
        return text
    return text + (f" (at most {high:.2f})" if low <= 0 else f" ({low:.2f} to {high:.2f})")


def throttling(share_pct: float | None, ms_per_s: float | None) -> str:
    """A CPU quota's throttling: '12 % of periods, 8 ms/s'; '-' where it was not read."""
    if share_pct is None or share_pct != share_pct:
        return "-"
    return f"{share_pct:.0f} % of periods, {num(ms_per_s, 0)} ms/s"


def duration(seconds: float) -> str:
    """'6m20s': a planned or remaining time, to the second."""
    seconds = int(max(0, seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s"


def percent_change(x: float, y: float) -> float:
    """How much x differs from y, as a share of y (the reference)."""
    if y == 0:
        raise ValueError("no percent difference against zero")
    return (x - y) / y


def compare(x_name: str, x: float, y_name: str, y: float, what: str, unit: str = "") -> str:
    """'worker p99 (10.05 ms) is 21 % lower than reactive (12.67 ms)'."""
    change = percent_change(x, y)
    if round(abs(change) * 100) == 0:
        return f"{x_name} {what} ({fmt(x, unit)}) is within 1 % of {y_name} ({fmt(y, unit)})"
    direction = "higher" if change > 0 else "lower"
    return f"{x_name} {what} ({fmt(x, unit)}) is {abs(change) * 100:.0f} % {direction} than {y_name} ({fmt(y, unit)})"


@dataclass(frozen=True)
class Fixed:
    """A number written with a fixed number of decimals: 0 for counts and MB, 1 or 2 for small ratios."""
    value: float | None
    digits: int


@dataclass(frozen=True)
class Percent:
    """A share written as a percentage: 0.976 -> 97.6%."""
    share: float
    digits: int = 1


@dataclass(frozen=True)
class Code:
    """A command or an option, shown as code: not prose to be read sentence by sentence."""
    text: str


# A table cell: a number (written by num(): three significant figures or so, "-" for none), a number with fixed
# decimals, a percentage, code, or text a view composed (a step label, "a -> b", a reason).
Cell = str | int | float | Fixed | Percent | Code | None


def cell_text(cell: Cell) -> str:
    if isinstance(cell, str):
        return cell
    if isinstance(cell, Fixed):
        return num(cell.value, cell.digits)
    if isinstance(cell, Percent):
        return percent(cell.share, cell.digits)
    if isinstance(cell, Code):
        return cell.text
    return num(cell)


def summary(values) -> dict:
    """n, median, min and max of a list of seconds (None where nothing was measured)."""
    if not values:
        return {"n": 0, "median": None, "min": None, "max": None}
    return {"n": len(values), "median": round(statistics.median(values), 3), "min": round(min(values), 3),
            "max": round(max(values), 3)}


def describe(s: dict, unit: str = "s", digits: int = 2) -> str:
    """A summary as '2.41 s (2.30-2.77, n=5)'."""
    if not s["n"]:
        return "not measured"
    return f"{s['median']:.{digits}f} {unit} ({s['min']:.{digits}f}-{s['max']:.{digits}f}, n={s['n']})"
