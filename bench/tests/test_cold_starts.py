"""A runtime's cold starts (run/provision/app.py) within --cold-starts and --cold-start-budget, with fake starts."""
import types

import pytest

from benchlab.run.provision import app as app_module


@pytest.mark.parametrize("firsts, budget, measured", [
    ([26.6, 27.7, 24.3], 60, 3),  # a jar within 0.5 CPU: three starts, 54 s before the third
    ([113.3, 114.8, 89.4], 60, 1),  # within 0.25 CPU: the first took the budget
    ([40.0, 30.0, 20.0], 60, 2),
    ([113.3, 114.8, 89.4], 0, 1),  # no budget: the first start still runs
    ([0.45, 0.44, 0.46], 60, 3),
])
def test_cold_starts_stop_once_they_took_the_budget(monkeypatch, firsts, budget, measured):
    config = types.SimpleNamespace(cold_starts=3, cold_start_budget=budget)
    state = types.SimpleNamespace(config=config, pm=types.SimpleNamespace(stop=lambda proc: None))
    apps = app_module.Apps(state)
    started = iter(firsts)
    monkeypatch.setattr(apps, "launch", lambda *a, **k: (types.SimpleNamespace(pid=1), next(started)))
    monkeypatch.setattr(app_module, "rss_mb", lambda pid: 200.0)
    monkeypatch.setattr(app_module.health, "quarkus_started", lambda proc: None)
    starts = apps.cold_starts(types.SimpleNamespace(name="jvm-cpu0.25"), None, types.SimpleNamespace(app_props={}))
    assert [s["first_request_s"] for s in starts] == firsts[:measured]
