"""The docs say what they refer to, not which issue it came from: a reader outside the tracker cannot follow "issue 44"
or "#51". An issue of another project is named by its full URL, which says where to look."""
import glob
import os
import re

import pytest

from benchlab.project import ROOT

PAGES = ["README.md", "bench/README.md", "k6/README.md",
         *sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))]
ISSUE = re.compile(r"issue \d+|#\d+", re.I)
URL = re.compile(r"https?://[^\s)>\]]+")


def issue_numbers(text: str) -> list[str]:
    """Each line that names an issue by its number, outside a URL."""
    return [line.strip() for line in text.splitlines() if ISSUE.search(URL.sub("link", line))]


def test_an_issue_number_is_found_and_a_url_is_not():
    assert issue_numbers("Issue 44's quick runs.\nSince #51 it does.\nissue 7.\n") == [
        "Issue 44's quick runs.", "Since #51 it does.", "issue 7."]
    assert issue_numbers("fixed upstream ([quarkus](https://github.com/quarkusio/quarkus/issues/51915))\n"
                         "the issue's command\nsection [above](#quick-runs)\n") == []


@pytest.mark.parametrize("path", PAGES)
def test_no_page_names_an_issue_by_its_number(path):
    with open(os.path.join(ROOT, path)) as f:
        assert issue_numbers(f.read()) == []


# A figure as the report writes one: 0.251 ms, 1.25x, 2000/s, 27.7 %, x1.03.
FIGURE = re.compile(r"x\d+(?:\.\d+)?|\d[\d,]*(?:\.\d+)?(?:\s?ms|/s|x|\s?%)")
COMMIT = re.compile(r"`([0-9a-f]{7,40})`")


def readme_answer(text: str) -> tuple[list[str], list[str]]:
    """The figures of the README's answer table (the one that opens on "| scenario | SLO |"), and the commits its
    section names, up to the next heading."""
    section = text[text.index("| scenario | SLO |"):]
    section = section[:section.index("\n## ")]
    table = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    return FIGURE.findall(table), COMMIT.findall(text[:text.index("\n## ")])


def test_the_answer_tables_figures_and_commits_are_read_from_the_readme():
    figures, commits = readme_answer("Run `abc1234`.\n\n| scenario | SLO | capacity |\n|---|---|---|\n"
                                     "| jwt | p99 <= 50 ms | 2000/s (1.25x, 0.251 ms, x1.03, 27.7 %) |\n\n## Next\n")
    assert figures == ["50 ms", "2000/s", "1.25x", "0.251 ms", "x1.03", "27.7 %"] and commits == ["abc1234"]


def test_every_figure_and_commit_the_readme_quotes_is_on_the_results_page():
    with open(os.path.join(ROOT, "README.md")) as f:
        figures, commits = readme_answer(f.read())
    with open(os.path.join(ROOT, "docs", "results.md")) as f:
        results = f.read()
    assert commits, "the README names the run its answer comes from"
    assert [c for c in commits if c not in results] == []
    assert [x for x in figures if x not in results] == []
