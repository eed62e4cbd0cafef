"""What the report's template renders: sections of tables whose cells are numbers (or text), written by
formatting.cell_text: the views compute, formatting writes, the template lays out."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from benchlab.formatting import Cell, Code, cell_text
from benchlab.model import MODEL_COLORS, MODELS


@dataclass
class Table:
    """What the template renders, in either format: a title, the column headers, the cells, a caption (note)."""
    title: str
    headers: list[str]
    rows: list[list[Cell]]
    note: str = ""

    @property
    def text_rows(self) -> list[list[str]]:
        return [[cell_text(c) for c in row] for row in self.rows]

    def marked_rows(self, fmt: str) -> list[list[str]]:
        """The cells as the template writes them: code marked as code (Markdown's backticks, HTML's <code>), the
        rest escaped for HTML."""
        return [[marked(c, fmt) for c in row] for row in self.rows]


def marked(cell: Cell, fmt: str) -> str:
    text = cell_text(cell)
    if fmt == "md":
        return f"`{text}`" if isinstance(cell, Code) else text.replace("|", "/")
    text = html.escape(text)
    return f"<code>{text}</code>" if isinstance(cell, Code) else text


@dataclass
class Section:
    """A part of the report: its findings (one line each), its table with its caption, its charts (HTML only). The
    answer comes first, on the first screen; a folded section is detail, behind <details> in HTML."""
    title: str
    table: Table | None = None
    findings: list[str] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)
    folded: bool = False
    answer: bool = False


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


def model_rank(label: str) -> tuple[int, str]:
    """A model label's place in the models' own order: "worker (article-small)" after "virtual", before "reactive"."""
    return MODELS.index(label.split()[0]), label


def model_order(models) -> list[str]:
    return sorted(set(models), key=model_rank)
