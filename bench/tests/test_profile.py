"""Where a request's CPU goes (results/profile.py): the classifier on stacks async-profiler recorded from the app
(JWT + MySQL at 1,000/s and the aggregation at 80/s, one stack per line), and the breakdown's table and chart."""
import gzip
import os

import pandas as pd

from benchlab.report.breakdown import breakdown_charts, breakdown_table
from benchlab.results import profile
from benchlab.results.cost import Cost
from conftest import DATA

RECORDED = os.path.join(DATA, "profile", "jwt-mysql-and-aggregate.collapsed.gz")

# Each recorded stack, in the file's order: the frame it was picked for (within its last six), and its component.
EXPECTED = [
    ("java.util.regex.Matcher.matches in the token's shape check", profile.JWT),
    ("jose4j's HMAC over the token", profile.JWT),
    ("Connector/J sending the query (a worker thread's socket write)", profile.ORM),
    ("a virtual thread yielding its carrier inside the driver's read", profile.SCHEDULING),
    ("the reactive MySQL client decoding a row", profile.ORM),
    ("Jackson writing the answer", profile.JSON),
    ("Quarkus REST's route template for the metrics", profile.METRICS),
    ("Vert.x ending an HTTP response", profile.HTTP),
    ("the event loop's epoll wait", profile.HTTP),
    ("a worker thread waiting for a task", profile.SCHEDULING),
    ("Serial GC's young collection", profile.GC),
    ("the C2 compiler", profile.REST),
    ("the REST client's HTTP/1.1 connection", profile.CLIENT),
    ("a Micrometer timer recording", profile.METRICS),
]


def recorded_stacks() -> list[list[str]]:
    with gzip.open(RECORDED, "rt") as f:
        return [line.rstrip("\n").rpartition(" ")[0].split(";") for line in f]


def test_each_recorded_stack_goes_to_its_component():
    stacks = recorded_stacks()
    assert len(stacks) == len(EXPECTED)
    for stack, (what, component) in zip(stacks, EXPECTED):
        assert profile.classify(stack) == component, what


def test_a_file_is_summed_per_component():
    totals = profile.read_collapsed(RECORDED)
    assert set(totals) <= set(profile.COMPONENTS) and totals[profile.JWT] > 0 and totals[profile.GC] > 0
    with gzip.open(RECORDED, "rt") as f:
        assert sum(totals.values()) == sum(int(line.rpartition(" ")[2]) for line in f)


def test_the_breakdown_splits_the_cost_runs_cpu_per_request_by_the_profiles_shares(tmp_path):
    path = tmp_path / "jvm-jwt-mysql-reactive-profile1000-cpu-r1.collapsed"
    path.write_text("a;org/jose4j/jwt/JwtClaims.parse 300\na;io/netty/channel/nio/NioEventLoop.run 700\n")
    runs = pd.DataFrame([dict(tag=path.name[:-len(".collapsed")], scenario="jwt-mysql", runtime="jvm", model="reactive",
                              load_model="profile", load=1000.0, ok_rps=1000.0, planned_s=20.0, profile=path.name)])
    found = profile.breakdowns(runs, str(tmp_path))
    assert [(b.event, b.share(profile.JWT)) for b in found] == [("cpu", 0.3)]
    cost = Cost("jwt-mysql", "reactive", 1000.0, 6, 0.2, 0.19, 0.21, 1, 1, 1, 6, True, None, None, None)
    table = breakdown_table(found, [cost], several=False)
    assert table.headers == ["scenario", "component", "reactive CPU ms", "reactive KB allocated"]
    rows = {row[1]: row for row in table.text_rows}
    assert rows[profile.JWT][2] == "0.060" and rows[profile.HTTP][2] == "0.140" and rows["all"][2] == "0.200"
    assert len(breakdown_charts(found, [cost], several=False)) == 1


def test_a_build_is_compared_with_this_one_per_model_from_the_cost_runs_of_both():
    from benchlab.report.breakdown import gains_table
    from benchlab.results.cost import gains
    rows = [dict(scenario="jwt-mysql", model="worker", runtime=rt, load_model="cost", load=1000.0, repetition=rep,
                 requests=5000, errors=0, app_cpu_ms_per_req=ms)
            for rt, values in (("jvm-b0", [0.35, 0.36, 0.34, 0.35]), ("jvm", [0.31, 0.32, 0.31, 0.30]))
            for rep, ms in enumerate(values, start=1)]
    found, = gains(pd.DataFrame(rows), "jvm-b0", "jvm", cost_repeat=2)
    assert (found.before, found.after, round(found.ratio, 3)) == ("jvm-b0", "jvm", round(0.31 / 0.35, 3))
    assert found.low < found.ratio < found.high < 1 and len(found.per_app) == 2
    row, = gains_table([found]).text_rows
    assert row[3:7] == ["jvm-b0", "0.350", "0.310", "-11.4%"]
