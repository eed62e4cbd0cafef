"""--heap as a runtime dimension and --heap-search on the command line; the heap runtimes' options; a heap too small
for the JVM or the app; an OutOfMemoryError in a run of the block's steps."""
import dataclasses
import os
import subprocess
from types import SimpleNamespace

import pytest

from benchlab import cli
from benchlab.model import Jdk, Load, MemoryStop, RuntimeSpec, size_mb
from benchlab.plan.planner import make_plan
from benchlab.project import jvm_fatal_line, oom_line
from benchlab.results.environment import Environment
from benchlab.run.measure import warmup
from benchlab.run.measure.steps import Block, Steps
from benchlab.run.procs import Managed
from benchlab.run.provision import health, heaps, machine, runtimes
from benchlab.run.state import BenchState
from conftest import make_config
from test_steps import FakeK6

OOM = "Terminating due to java.lang.OutOfMemoryError: Java heap space"


@pytest.mark.parametrize("text, mb", [("64m", 64), ("128M", 128), ("1g", 1024), ("2G", 2048)])
def test_a_heap_is_read_as_xmx_writes_it(text, mb):
    assert size_mb(text) == mb and heaps.heap_label(mb) == text.lower()


def test_each_heap_times_runtime_is_a_runtime_of_its_own():
    args = cli.parse_args(["--quick", "--app-cpuset", "none", "--heap", "64m,1g", "--runtime", "jvm,container-jvm"])
    assert args.runtime_names == ("jvm-heap64m", "jvm-heap1g", "container-jvm-heap64m", "container-jvm-heap1g")
    assert args.runtime("container-jvm-heap64m") == RuntimeSpec("container-jvm", heap_mb=64)
    assert args.heap_labels == {"jvm-heap64m": "64 MB", "jvm-heap1g": "1024 MB", "container-jvm-heap64m": "64 MB",
                                "container-jvm-heap1g": "1024 MB"}
    # the heaps take turns within each repetition, as the JDKs of --jdk do: a block each, one app start per block
    jdks = cli.parse_args(["--quick", "--app-cpuset", "none", "--heap", "64m", "--jdk", "21,25"])
    assert jdks.runtime_names == ("jvm-jdk21-heap64m", "jvm-jdk25-heap64m")
    assert jdks.runtime("jvm-jdk21-heap64m") == RuntimeSpec("jvm", jdk=Jdk(21), heap_mb=64)


@pytest.mark.parametrize("argv, said", [
    (["--heap", "64x"], "'64x' is not a size"),
    (["--heap", "0m"], "'0m' is not a size"),
    (["--heap", ","], "a comma list of heap sizes"),
    (["--heap", "64m", "--runtime", "native"], "--heap sets the heap of jvm, jvm-aot, container-jvm only, not of "
                                               "native"),
    (["--heap", "64m", "--runtime", "container-jvm", "--memory", "512m"], "not with --memory"),
    (["--heap", "64m", "--heap-search"], "--heap-search finds each model's heap itself: not with --heap"),
    (["--scenarios", "mixed", "--heap-search"], "no memory case in mixed"),
    (["--runtime", "container-jvm", "--heap-search"], "--heap-search runs the app on the host JVM"),
])
def test_bad_heap_options_are_refused_in_one_line(argv, said, capsys):
    with pytest.raises(SystemExit):
        cli.parse_args(["--quick", *argv])
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert said in error and error.startswith("bench/run: error: ")


def test_the_documented_heap_search_runs_the_hold_case_at_1000_connections():
    args = cli.parse_args(["--quick", "--scenarios", "hold", "--heap-search"])
    assert [(s, c.step, c.variant) for s, c in args.memory_cases] == [("hold", Load("closed", 1000), "10s")]
    assert args.memory_labels == ["hold at 1000 VUs (10s)"]


def test_the_default_preset_searches_hold_at_10000_and_the_aggregation_at_1000_users_quick_none():
    cases = cli.parse_args([]).memory_cases
    assert [(s, c.step) for s, c in cases] == [("aggregate", Load("closed", 1000)), ("hold", Load("closed", 10_000))]
    assert cli.parse_args(["--quick"]).memory_cases == ()
    assert cli.parse_args(["--no-heap-search"]).memory_cases == ()
    # the default preset's search is left out where it cannot run, not refused
    assert cli.parse_args(["--runtime", "container-jvm"]).memory_cases == ()


def test_a_jvm_gets_its_heap_and_ends_at_its_first_out_of_memory_error():
    rt = heaps.make(RuntimeSpec("jvm", heap_mb=64), {"jvm_args": ["-XX:+UseSerialGC"]})
    argv = rt.command("/repo", "/jdk", 19100, {})
    assert argv[:4] == ["/jdk/bin/java", "-XX:+UseSerialGC", "-Xmx64m", "-XX:+ExitOnOutOfMemoryError"]
    assert (rt.name, rt.base_name, rt.heap_mb) == ("jvm-heap64m", "jvm", 64)


def test_a_container_gets_a_pods_memory_limit_of_twice_the_heap():
    options = {"jvm_args": [], "memory": None}
    rt = heaps.make(RuntimeSpec("container-jvm", heap_mb=256), options)
    assert rt.limits()["memory"] == "512m" and heaps.EXIT_ON_OOM in rt.java_opts({})
    assert options == {"jvm_args": [], "memory": None}  # the other runtimes' options are left as they were
    assert runtimes.make(RuntimeSpec("container-jvm"), options).limits()["memory"] is None


def test_a_heap_too_small_for_the_jvm_is_refused_before_anything_starts_in_its_own_words():
    home = machine.find_java_home()
    rt = heaps.make(RuntimeSpec("jvm", heap_mb=1), {})
    with pytest.raises(RuntimeError) as e:
        heaps.check_starts(rt, home)
    assert str(e.value) == "runtime jvm-heap1m: the JVM does not start with -Xmx1m: Too small maximum heap"
    heaps.check_starts(heaps.make(RuntimeSpec("jvm", heap_mb=64), {}), home)  # starts: no error


def test_an_app_that_ended_says_the_jvms_own_last_word(tmp_path):
    log = tmp_path / "app.log"
    log.write_text("INFO started in 6.1s\n" + OOM + "\n")
    proc = subprocess.Popen(["sh", "-c", "exit 3"])
    proc.wait()
    assert Managed("app", proc, str(log)).exit_info() == f"exited with code 3 ({OOM})"
    log.write_text("Error occurred during initialization of VM\nToo small maximum heap\n")
    assert Managed("app", proc, str(log)).exit_info() == "exited with code 3 (Too small maximum heap)"
    assert oom_line("Exception in thread \"main\" java.lang.OutOfMemoryError: Metaspace") == \
        "Exception in thread \"main\" java.lang.OutOfMemoryError: Metaspace"
    assert jvm_fatal_line("INFO all well") is None and oom_line("INFO all well") is None


class DeadApp:
    """An app that ended, its log saying why."""

    def __init__(self, log_path, said):
        self.name, self.log_path = "app", log_path
        with open(log_path, "w") as f:
            f.write("INFO started in 6.1s\n" + said + "\n")

    def alive(self):
        return False


class LiveApp:
    def __init__(self, name):
        self.name, self.log_path = name, f"/tmp/{name}.log"

    def alive(self):
        return True


class DyingK6(FakeK6):
    """A measured run during which the block's app ends, its log saying why."""

    def __init__(self, block, log_path, said):
        super().__init__()
        self.block, self.log_path, self.said = block, log_path, said

    def measure(self, run, *args, **kwargs):
        self.block.app = DeadApp(self.log_path, self.said)
        return super().measure(run, *args, **kwargs)


def block_steps(tmp_path, monkeypatch, app, said):
    loads = {"hold": [Load("closed", 200)]}
    plan = make_plan(["jvm-heap64m"], ["hold"], loads, ["virtual"], 1, 8, 5, 0, {"hold": ["1s"]})
    config = make_config(out=str(tmp_path), warmup=5, load_levels=loads, models=("virtual",),
                         runtimes=(RuntimeSpec("jvm", heap_mb=64),))
    stopped = []
    state = BenchState(config, plan, SimpleNamespace(stop=stopped.append), env=Environment(cores=2))
    block = Block(app, None, "http://app", None, lambda n: (LiveApp(f"app-restart{n}"), None), None)
    k6 = DyingK6(block, str(tmp_path / "app.log"), said)
    monkeypatch.setattr(warmup, "until_steady", k6.until_steady)
    return Steps(state, k6, {}), plan, block, k6, stopped


def test_an_out_of_memory_error_ends_its_run_restarts_the_app_and_is_that_runs_stop(tmp_path, monkeypatch):
    monkeypatch.setattr(health, "wait_drained", lambda app, base_url, timeout=15: 0.1)
    s, plan, block, k6, stopped = block_steps(tmp_path, monkeypatch, LiveApp("app"), OOM)
    row = s.step(plan.runs[0], block, "run 1 of 1")
    assert row.oom == OOM and row.heap_mb == 64
    assert [a.name for a in stopped] == ["app"] and block.app.name == "app-restart1"  # restarted ...
    assert k6.runs[-1].startswith("rewarm1-")  # ... and warmed again
    assert s.state.env.out_of_memory == [f"{plan.runs[0].tag}: {OOM}"] and s.state.failures == []
    assert [r.tag for r in s.state.rows] == [plan.runs[0].tag]  # the row is kept, and written
    with open(os.path.join(tmp_path, "results.csv")) as f:
        assert OOM in f.read()


def test_an_app_that_died_of_something_else_still_stops_the_benchmark(tmp_path, monkeypatch):
    monkeypatch.setattr(health, "wait_drained", lambda app, base_url, timeout=15: 0.1)
    s, plan, block, k6, _ = block_steps(tmp_path, monkeypatch, LiveApp("app"), "Killed")
    with pytest.raises(RuntimeError, match="the app died during"):
        s.step(plan.runs[0], block, "run 1 of 1")
    assert len(s.state.rows) == 1  # measured before it stopped, and kept


class FakeRuntime:
    name, java_home = "jvm-heap48m", None

    def probe(self, app):
        return None


def memory_search(tmp_path, monkeypatch, start):
    """A memory search's Memory with a fake app start (start(rt, log_path) -> app or raise), warm-up and k6."""
    from benchlab.run.measure import memory
    case = dict(cli.parse_args(["--quick", "--scenarios", "hold", "--heap-search"]).memory_cases)["hold"]
    config = make_config(out=str(tmp_path), memory_cases=(("hold", case),))
    os.makedirs(tmp_path / "logs", exist_ok=True)
    stopped = []
    state = BenchState(config, None, SimpleNamespace(stop=lambda app, grace=15: stopped.append(app)),
                       env=Environment(cores=2))
    up = SimpleNamespace(app_props={}, child_env={}, tokens_file=None, sampled=lambda: {})
    m = memory.Memory(state, FakeK6(), SimpleNamespace(), up, lambda heap, extra: FakeRuntime(), "/jdk")
    monkeypatch.setattr(memory.Memory, "start", lambda self, rt, scenario, case, log_name: start(
        rt, os.path.join(state.logs, log_name)))
    monkeypatch.setattr(memory.Memory, "warm", lambda *args: None)
    monkeypatch.setattr(health, "wait_drained", lambda app, base_url, timeout=15: 0.1)
    return m, case, stopped


def test_a_memory_step_whose_app_does_not_start_is_stopped_by_its_heap_in_the_jvms_words(tmp_path, monkeypatch):
    def start(rt, log_path):
        with open(log_path, "w") as f:
            f.write("INFO booting\n" + OOM + "\n")
        raise RuntimeError("app (jvm-heap48m) exited with code 3 before it answered")
    m, case, _ = memory_search(tmp_path, monkeypatch, start)
    step, _ = m.step("hold", case, "virtual", 48, 1)
    assert (step.heap_mb, step.stop, step.detail, step.tag) == (48, MemoryStop.START, OOM, None)
    assert m.state.rows == []


def test_an_out_of_memory_error_during_a_memory_step_ends_that_step_as_its_stop(tmp_path, monkeypatch):
    app = LiveApp("app")
    app.log_path = str(tmp_path / "app.log")
    m, case, stopped = memory_search(tmp_path, monkeypatch, lambda rt, log_path: app)
    measured = m.k6.measure

    def measure(run, *args, **kwargs):  # the app runs out of memory during the run
        app.alive = lambda: False
        with open(app.log_path, "w") as f:
            f.write(OOM + "\n")
        # the measured run records the bench's CPU budget, which a memory step's app runs outside of
        return dataclasses.replace(measured(run, *args, **kwargs), app_cpus=0.5)
    m.k6.measure = measure
    step, _ = m.step("hold", case, "virtual", 48, 1)
    assert (step.stop, step.detail) == (MemoryStop.OOM, OOM)
    row = m.state.rows[-1]
    assert (row.oom, row.heap_mb, row.memory_search, row.runtime) == (OOM, 48, True, "jvm-heap48m")
    assert row.app_cpus is None
    assert stopped == [app]  # its app stopped; the next step starts a fresh one


def test_the_heap_per_held_request_is_held_after_the_steps_measured_run_against_the_idle_app_before_it(tmp_path, monkeypatch):
    from benchlab.run.measure import memory
    app = LiveApp("app")
    m, case, _ = memory_search(tmp_path, monkeypatch, lambda rt, log_path: app)
    events = []

    class Snapshot:
        def __init__(self, *args):
            events.append("idle snapshot")

        def start(self):
            events.append("held snapshot waits")

        def record(self, model, heap_mb):
            events.append(f"held snapshot of {model} at {heap_mb} MB")
    monkeypatch.setattr(memory, "HeldSnapshot", Snapshot)
    measured, held_run = m.k6.measure, m.k6.k6
    m.k6.measure = lambda run, *args, **kw: events.append("measured run") or measured(run, *args, **kw)
    m.k6.k6 = lambda run, *args, **kw: events.append(f"k6 holding, {run.seconds:g} s") or held_run(run, *args, **kw)
    step, _ = m.step("hold", case, "virtual", 2048, 1, first=True, held_bytes=True)
    # idle before the measured run (after it a worker pool keeps the threads it started), held after it
    assert step.held and events == ["idle snapshot", "measured run", "held snapshot waits", "k6 holding, 1 s",
                                    "held snapshot of virtual at 2048 MB"]


def test_an_app_that_runs_out_of_memory_before_its_measured_run_is_that_steps_stop(tmp_path, monkeypatch):
    """At 32 MB the aggregation's app ended during its warm-up: the warm-up's drain found it gone."""
    from benchlab.run.measure import memory
    app = LiveApp("app")
    app.log_path = str(tmp_path / "app.log")
    m, case, stopped = memory_search(tmp_path, monkeypatch, lambda rt, log_path: app)

    def warm(*args):
        app.alive = lambda: False
        with open(app.log_path, "w") as f:
            f.write(OOM + "\n")
        raise RuntimeError("the app exited with code 3; see app.log")
    monkeypatch.setattr(memory.Memory, "warm", warm)
    step, p99 = m.step("hold", case, "reactive", 32, 2)
    assert (step.stop, step.detail, p99) == (MemoryStop.OOM, f"before the measured run: {OOM}", None)
    assert m.state.rows == [] and stopped == [app]


def test_a_step_keeps_its_outcome_when_its_app_is_too_busy_for_the_heap_per_held_request(tmp_path, monkeypatch):
    """The worker pool still works off its queued holds after the measured run: no snapshot, the step's stop kept."""
    from benchlab.run.measure import memory
    app = LiveApp("app")
    m, case, _ = memory_search(tmp_path, monkeypatch, lambda rt, log_path: app)
    drained = iter([0.1])  # drained after the warm-up, then still busy after the measured run

    def wait_drained(app, base_url, timeout=15):
        if next(drained, None) is None:
            raise health.StillBusy(f"busy after {timeout} s")
        return 0.1
    monkeypatch.setattr(health, "wait_drained", wait_drained)
    snapshots = []
    monkeypatch.setattr(memory, "HeldSnapshot", lambda *args: snapshots.append("idle") or SimpleNamespace(
        start=lambda: pytest.fail("no held snapshot of a busy app")))
    step, _ = m.step("hold", case, "worker", 2048, 1, first=True, held_bytes=True)
    assert step.held and step.tag == m.state.rows[-1].tag  # FakeK6's row held; the held bytes left out
    assert m.state.env.get("held_bytes") is None and snapshots == ["idle"]
