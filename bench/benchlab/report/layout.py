"""What the report's template renders: sections of tables whose cells are numbers (or text), written by
formatting.cell_text: the views compute, formatting writes, the template lays out."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from benchlab.formatting import Cell, cell_text
from benchlab.model import MODEL_COLORS, MODELS


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


def model_label(row) -> str:
    """A model under a scenario's app configuration, compared as a model of its own: "worker (article-small)"."""
    return f"{row['model']} ({row['variant']})" if isinstance(row.get("variant"), str) and row["variant"] else row["model"]


def failed_text(g) -> str:
    """Failed requests by kind (no answer/4xx/5xx) and the iterations k6 could not start, summed over rows."""
    return (f"{int(g.errors.sum())} ({int(g.status_0.sum())}/{int(g.status_4xx.sum())}/{int(g.status_5xx.sum())})"
            f" + {int(g.dropped.sum())} dropped")


def model_color(label: str) -> str | None:
    """The chart colour of a model's label: "worker (article-small)" is drawn in the worker model's."""
    return MODEL_COLORS.get(label.split()[0])


def model_order(models) -> list[str]:
    return sorted(set(models), key=lambda m: (MODELS.index(m.split()[0]), m))
