"""Percent statements that say what they compute. "X is 21 % lower than Y" means (Y - X) / Y = 0.21."""
from __future__ import annotations


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


def fmt(v: float, unit: str = "") -> str:
    text = f"{v:.0f}" if abs(v) >= 100 else f"{v:.1f}" if abs(v) >= 10 else f"{v:.2f}"
    return f"{text} {unit}".rstrip()


def duration(seconds: float) -> str:
    """'6m20s': a planned or remaining time, to the second."""
    seconds = int(max(0, seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s"
