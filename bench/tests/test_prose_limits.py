"""The limits a reader's page keeps (issue 43): no sentence over 40 words in the docs and the golden report, a README
of at most 150 lines that gives the prerequisites and the two commands in its first 40, and a report that opens on
its answer as a table."""
import glob
import os
import re

import pytest

from benchlab.project import ROOT
from prose import long_sentences, sentences, words

DOCS = ["README.md", "bench/README.md", "k6/README.md", "deploy/README.md",
        *sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))),
        "bench/tests/data/quick/report.md.golden"]


def read(path: str) -> str:
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def test_a_sentence_is_what_a_reader_reads_as_one():
    text = ("# A heading\n\nOne sentence here. Another one, with `a --long --command` in it.\n\n"
            "```sh\nnot prose at all, however long it runs on and on\n```\n"
            "- an item\n- [a link](https://example.org/x) item\n\n| a cell | b. Two |\n|---|---|\n")
    assert sentences(text) == ["A heading", "One sentence here.", "Another one, with `a --long --command` in it.",
                               "an item", "a link item", "a cell", "b.", "Two"]
    assert words("Another one, with `a --long --command` in it.") == 6 and words("p99 <= 50 ms") == 3
    assert sentences("It ends. `TwinsTest` starts the next, `hit\\|miss` in a cell.") == [
        "It ends.", "`TwinsTest` starts the next, `hit\\|miss` in a cell."]
    assert long_sentences(" ".join(["word"] * 41) + ".") and not long_sentences(" ".join(["word"] * 40) + ".")


@pytest.mark.parametrize("path", DOCS)
def test_no_sentence_runs_over_40_words(path):
    assert long_sentences(read(path)) == []


def test_the_readme_is_a_front_page_with_the_prerequisites_and_two_commands_first():
    lines = read("README.md").splitlines()
    assert len(lines) <= 150
    first = "\n".join(lines[:40])
    for needed in ("JDK", "21", "Python", "3.11", "k6", "Go", "bench/run --quick --out bench-results/quick",
                   "./mvnw verify"):
        assert needed in first, needed


def answer_section(report: str) -> str:
    return report[report.index("## The answer\n"):report.index("\n## ", report.index("## The answer\n") + 1)]


def test_the_report_opens_on_its_answer_as_a_table_in_short_lines():
    report = read("bench/tests/data/quick/report.md.golden")
    assert re.findall(r"^## (.+)$", report, flags=re.M)[0] == "The answer"
    answer = answer_section(report)
    table = [line for line in answer.splitlines() if line.startswith("|")]
    assert table[0].startswith("| scenario |") and len(table) >= 4  # headers, rule, a row per scenario
    assert not [line for line in answer.splitlines() if line.startswith("- ")]  # no list of verdicts
    assert max(len(line) for line in answer.splitlines()) <= 250
    assert all(words(row.strip("|").split("|")[-1]) <= 15 for row in table[2:])  # what stopped the best model
