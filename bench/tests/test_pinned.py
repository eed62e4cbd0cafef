import dataclasses
import glob
import subprocess

import pandas as pd

from benchlab.model import RunRow
from benchlab.run.measure import pinned
from benchlab.run.provision import machine

# A virtual thread that parks inside a class initializer stays pinned to its carrier on every JDK (JEP 491 left that
# case): a 2 ms pin, as short as a database round trip under a driver that reads its socket inside synchronized.
# Thread.sleep, not parkNanos, which may return early for no reason; sleep parks again for the rest, a pin each time.
PINS = """
public class Pins {
    static class Slow {
        static {
            try { Thread.sleep(2); } catch (InterruptedException e) { throw new IllegalStateException(e); }
        }
        static void load() {}
    }
    public static void main(String[] args) throws Exception {
        Thread.ofVirtual().start(Slow::load).join();
    }
}
"""


def row(tag, start, end):
    fields = {f.name: None for f in dataclasses.fields(RunRow)}
    fields.update(tag=tag, started_at=start, ended_at=end)
    return RunRow(**fields)


def test_a_millisecond_pin_is_recorded_and_read_with_where_it_pinned(tmp_path):
    java_home = machine.find_java_home()
    (tmp_path / "Pins.java").write_text(PINS)
    subprocess.run([f"{java_home}/bin/java", pinned.jvm_option(str(tmp_path / "jfr")), "Pins.java"], cwd=tmp_path,
                   check=True, capture_output=True, timeout=120)
    [recording] = glob.glob(str(tmp_path / "jfr" / "*.jfr"))
    events = pinned.events(java_home, recording)
    assert set(events["where"]) == {"Pins$Slow.<clinit>"}
    assert events.duration_us.sum() >= 1_000


def test_events_are_counted_in_the_run_whose_window_holds_them_with_the_commonest_place(tmp_path, monkeypatch):
    (tmp_path / "a.jfr").write_bytes(b"")
    recorded = pd.DataFrame({"start": [99.0, 100.5, 101.0, 105.0, 150.0, 205.0], "duration_us": [900] * 6,
                             "where": ["a.B.c", "com.mysql.X.read", "com.mysql.X.read", "a.B.c", "a.B.c", "a.B.c"]})
    monkeypatch.setattr(pinned, "events", lambda java_home, f: recorded)
    rows = [row("r1", 100.0, 110.0), row("r2", 140.0, 160.0), row("r3", 170.0, 180.0)]
    assert pinned.count("/jdk", str(tmp_path), rows) == []
    assert [r.pinned for r in rows] == [3, 1, 0]
    assert [r.pinned_where for r in rows] == ["com.mysql.X.read", "a.B.c", None]


def test_no_recording_leaves_the_count_unknown(tmp_path):
    rows = [row("r1", 100.0, 110.0)]
    assert pinned.count("/jdk", str(tmp_path), rows) == ["no JFR recording was written (did the app stop cleanly?)"]
    assert rows[0].pinned is None


def test_the_trace_is_asked_for_where_the_jdk_has_it():
    assert pinned.trace_options(21) == ["-Djdk.tracePinnedThreads=short"]
    assert pinned.trace_options(23) == ["-Djdk.tracePinnedThreads=short"]
    assert pinned.trace_options(24) == pinned.trace_options(25) == pinned.trace_options(None) == []


def test_the_trace_is_read_from_the_apps_log(tmp_path):
    log = tmp_path / "app.log"
    log.write_text("started\nThread[#61,ForkJoinPool-1-worker-2,5,CarrierThreads]\n"
                   "    com.mysql.cj.protocol.ReadAheadInputStream.fill(ReadAheadInputStream.java:78) <== monitors:1\n")
    assert pinned.read_trace(str(log), traced=True) == pinned.Trace(
        True, "com.mysql.cj.protocol.ReadAheadInputStream.fill(ReadAheadInputStream.java:78) <== monitors:1")
    (tmp_path / "quiet.log").write_text("started\n")
    assert pinned.read_trace(str(tmp_path / "quiet.log"), traced=True).pinned is False
    assert pinned.read_trace(str(log), traced=False).pinned is None
