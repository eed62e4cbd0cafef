"""What the report's template renders: tables as text cells, and the one way numbers are written in them."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchlab.wording import fmt


@dataclass
class Table:
    """What the template renders, in either format: a title, the column headers, the cells as text, a note."""
    title: str
    headers: list[str]
    rows: list[list[str]]
    note: str = ""


def num(v, digits=None) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "-"
    return fmt(float(v)) if digits is None else f"{float(v):.{digits}f}"
