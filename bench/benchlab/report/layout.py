"""What the report's template renders: sections of tables whose cells are numbers (or text), and the one way numbers
are written in them (cell_text): the views compute, this module formats, the template lays out."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from benchlab.model import MODELS
from benchlab.report.wording import fmt

MODEL_COLORS = {"virtual": "#1f77b4", "worker": "#d62728", "reactive": "#2ca02c"}


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


# A table cell: a number (written by num(): three significant figures or so, "-" for none), a number with fixed
# decimals, a percentage, or text a view composed (a step label, "a -> b", a reason).
Cell = str | int | float | Fixed | Percent | None


def cell_text(cell: Cell) -> str:
    if isinstance(cell, str):
        return cell
    if isinstance(cell, Fixed):
        return num(cell.value, cell.digits)
    if isinstance(cell, Percent):
        return percent(cell.share, cell.digits)
    return num(cell)


def percent(share: float, digits: int = 1) -> str:
    """A share as a percentage, 0.976 -> '97.6%': the one way the report writes one."""
    return f"{share:.{digits}%}"


@dataclass
class Table:
    """What the template renders, in either format: a title, the column headers, the cells, a note."""
    title: str
    headers: list[str]
    rows: list[list[Cell]]
    note: str = ""

    @property
    def text_rows(self) -> list[list[str]]:
        return [[cell_text(c) for c in row] for row in self.rows]


@dataclass
class Section:
    """A part of the report: what it shows (intro), its one-line findings, its table, its charts (HTML only). A
    folded section is detail: HTML shows it behind <details>. kind names the findings' list (verdicts, findings)."""
    title: str
    table: Table | None = None
    findings: list[str] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)
    intro: str = ""
    folded: bool = False
    kind: str = "findings"


def anchor(title: str) -> str:
    """A heading's HTML id: 'Executors (article 000): ...' -> 'executors-article-000'."""
    return re.sub(r"[^a-z0-9]+", "-", title.split(":")[0].lower()).strip("-")


def num(v, digits=None) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "-"
    return fmt(float(v)) if digits is None else f"{float(v):.{digits}f}"


def model_label(row) -> str:
    """A model under a scenario's app configuration, compared as a model of its own: "worker (article-small)"."""
    return f"{row['model']} ({row['variant']})" if isinstance(row.get("variant"), str) and row["variant"] else row["model"]


def failed_text(g) -> str:
    """Failed requests by kind (no answer/4xx/5xx) and the iterations k6 could not start, summed over rows."""
    return (f"{int(g.errors.sum())} ({int(g.status_0.sum())}/{int(g.status_4xx.sum())}/{int(g.status_5xx.sum())})"
            f" + {int(g.dropped.sum())} dropped")


def model_order(models) -> list[str]:
    return sorted(set(models), key=lambda m: (MODELS.index(m.split()[0]), m))
