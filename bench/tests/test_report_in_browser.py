"""The HTML report from the recorded quick run and from a recorded quick soak, opened in a real browser (Debian's
Chromium, headless, through Playwright): what a person sees at 1,400 x 900. It loads without a console error, the first
table (and the capacity bars) fit the first screen, every chart is drawn with finite axes bounded by its data, and no
table is wider than the page outside a scrolling box. Screenshots (target/report-<run>-first-screen.png,
target/report-<run>-in-browser.png) show a failing CI run."""
import math
import os
import shutil

import pytest
from playwright.sync_api import sync_playwright

from benchlab.report import render as report
from conftest import DATA

CHROMIUM = "/usr/bin/chromium"
WIDTH, FIRST_SCREEN = 1400, 900
TARGET = os.path.join(os.path.dirname(__file__), "..", "..", "target")
# each recorded run (a directory under data/) and the heading of its first table, the answer
FIRST_TABLE = {"quick": "#the-answer", "soak": "#the-soak"}
# As the browser runs here: no sandbox (root in CI), and none of the background connections a closed network refuses.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

# Per chart, per axis (a chart of subplots has several: xaxis, xaxis2, ...): its type and range as drawn, and the data
# of the traces drawn on it (numbers only: a bar chart's x is categories).
CHARTS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(el => {
  const axes = Object.keys(el._fullLayout).filter(k => /^[xy]axis\\d*$/.test(k)).map(name => {
    const id = name[0] + name.slice(5), k = name[0];
    const values = el._fullData.filter(t => (t[k + 'axis'] || k) === id)
      .flatMap(t => Array.from(t[k] || [])).filter(v => typeof v === 'number');
    return {name, type: el._fullLayout[name].type, range: el._fullLayout[name].range, values};
  });
  return {title: el._fullLayout.title.text, axes};
})"""
# Tables wider than the page, and whether an ancestor scrolls them; and how wide the page itself became.
WIDE_TABLES = """() => [...document.querySelectorAll('table')].filter(t => t.getBoundingClientRect().width > innerWidth)
  .map(t => { let e = t.parentElement, scrolls = false;
    for (; e && e !== document.body; e = e.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.clientWidth <= innerWidth) scrolls = true; }
    return {heading: (t.closest('.table-scroll') || t).previousElementSibling?.textContent, scrolls}; })"""


@pytest.fixture(scope="module", params=sorted(FIRST_TABLE))
def page_seen(request, tmp_path_factory):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to check the report")
    run = request.param
    out = tmp_path_factory.mktemp("report")
    for name in ("results.csv", "results.json", "windows.csv"):
        shutil.copy(os.path.join(DATA, run, name), out)
    report.write_report(str(out))
    errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": FIRST_SCREEN})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"file://{out}/report.html")
            page.wait_for_function("document.querySelectorAll('.js-plotly-plot .main-svg').length > 0")
            seen = dict(errors=errors, charts=page.evaluate(CHARTS), wide_tables=page.evaluate(WIDE_TABLES),
                        page_width=page.evaluate("document.documentElement.scrollWidth"),
                        answer=page.locator(f"{FIRST_TABLE[run]} + .table-scroll table").bounding_box(),
                        first_chart=page.locator(".js-plotly-plot").first.bounding_box(),
                        chart_count=report.render(str(out))["html"].count("Plotly.newPlot"), run=run)
            os.makedirs(TARGET, exist_ok=True)
            page.screenshot(path=os.path.join(TARGET, f"report-{run}-first-screen.png"))
            page.screenshot(path=os.path.join(TARGET, f"report-{run}-in-browser.png"), full_page=True)
        finally:
            browser.close()
    return seen


def test_the_page_loads_without_a_console_error(page_seen):
    assert page_seen["errors"] == []


def test_the_answer_table_and_the_capacity_bars_fit_the_first_screen(page_seen):
    answer, chart = page_seen["answer"], page_seen["first_chart"]
    assert answer["y"] + answer["height"] <= FIRST_SCREEN
    if page_seen["run"] == "quick":  # the capacity bars follow the answer; a soak's charts come further down
        assert answer["y"] + answer["height"] < chart["y"]
        assert chart["y"] + chart["height"] <= FIRST_SCREEN


def test_every_chart_is_drawn_with_finite_axes_bounded_by_its_data(page_seen):
    charts = page_seen["charts"]
    assert len(charts) == page_seen["chart_count"] > 0
    for chart in charts:
        for drawn in chart["axes"]:
            values, axis = drawn["values"], drawn["name"]
            if drawn["type"] == "category" or not values:
                continue
            low, high = drawn["range"]
            assert math.isfinite(low) and math.isfinite(high), chart["title"]
            if drawn["type"] == "log":  # plotly gives a log axis' range in powers of ten
                data_low, data_high = math.log10(min(v for v in values if v > 0)), math.log10(max(values))
                assert data_low - 1 <= low and high <= data_high + 1, (chart["title"], axis, drawn, data_high)
            else:
                # the data's spread, at least a tenth of its largest value (one bar's axis), 1 for all zeros
                span = max(max(values) - min(values), abs(max(values)) * 0.1) or 1
                # from zero at the lowest (bars start there), to a span above the data at the highest
                assert min(min(values), 0) - span <= low and high <= max(values) + span, (chart["title"], axis, drawn)
                assert high - low >= span / 2, (chart["title"], axis, drawn)  # not a hair's width around one value


def test_no_table_is_wider_than_the_page_outside_a_scrolling_box(page_seen):
    assert [t for t in page_seen["wide_tables"] if not t["scrolls"]] == []
    assert page_seen["page_width"] <= WIDTH
