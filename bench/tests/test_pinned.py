from benchlab import pinned
from benchlab.model import RunRow
import dataclasses


def row(tag, start, end):
    fields = {f.name: None for f in dataclasses.fields(RunRow)}
    fields.update(tag=tag, started_at=start, ended_at=end)
    return RunRow(**fields)


def test_events_are_counted_in_the_run_whose_window_holds_them(tmp_path, monkeypatch):
    (tmp_path / "a.jfr").write_bytes(b"")
    monkeypatch.setattr(pinned, "event_times", lambda java_home, f: [99.0, 100.5, 101.0, 150.0, 205.0])
    rows = [row("r1", 100.0, 110.0), row("r2", 140.0, 160.0), row("r3", 170.0, 180.0)]
    assert pinned.count("/jdk", str(tmp_path), rows) == []
    assert [r.pinned for r in rows] == [2, 1, 0]


def test_no_recording_leaves_the_count_unknown(tmp_path):
    rows = [row("r1", 100.0, 110.0)]
    assert pinned.count("/jdk", str(tmp_path), rows) == ["no JFR recording was written (did the app stop cleanly?)"]
    assert rows[0].pinned is None
