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
