"""How the bench asks the app: readiness, its first successful answer after a start, its drain after a run, Quarkus's
own start-up time and the smoke test. One polling helper serves them all."""
import subprocess
import time
import urllib.error
import urllib.request

from benchlab.config import Config
from benchlab.project import started_in
from benchlab.scenarios import SCENARIOS


def http_get(url, timeout=5.0, headers=None, method="GET"):
    req = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")

def poll_until_ok(proc, url, timeout, interval, gone, headers=None, since=None, request_timeout=2.0) -> float | None:
    """Asks url every interval seconds until it answers 200: the seconds since `since` (default: now), or None once
    timeout seconds from then have passed. Refused connections, timeouts and error answers mean "not yet"; the
    process ending meanwhile raises RuntimeError(gone, its {exit} filled in)."""
    since = time.time() if since is None else since
    while time.time() < since + timeout:
        if not proc.alive():
            raise RuntimeError(f"{gone.format(exit=proc.exit_info())}; see {proc.log_path}")
        try:
            if http_get(url, timeout=request_timeout, headers=headers)[0] == 200:
                return time.time() - since
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(interval)
    return None

def wait_ready(proc, url, timeout, what):
    if poll_until_ok(proc, url, timeout, 0.5, what + " {exit} before it was ready") is None:
        raise RuntimeError(f"{what} not ready at {url} within {timeout:.0f} s; see {proc.log_path}")

class StillBusy(RuntimeError):
    """The app did not work off the previous run's backlog in time."""

def wait_drained(app, base_url, timeout=15):
    """After an overload the app may still be working through queued requests (a starved worker pool takes up to
    the aggregation deadline per request to give up). The next run starts only when readiness answers within 2 s,
    so that no run pays for the previous one. Returns the seconds waited."""
    waited = poll_until_ok(app, f"{base_url}/q/health/ready", timeout, 1, "the app {exit}")
    if waited is None:
        raise StillBusy(f"the app did not become responsive within {timeout} s after a run; see {app.log_path}")
    return waited

def first_success(app, base_url, config: Config, tokens_file, t0, timeout, what) -> float:
    """Seconds from t0 (the start command) to the first 200 on a real endpoint: /<model>/users/me with a token, or
    the aggregate without one. Polled every 50 ms; connection refused and 5xx just mean "not yet"."""
    m = config.models[0]
    if tokens_file:
        with open(tokens_file) as f:
            url, headers = f"{base_url}/{m}/users/me", {"Authorization": "Bearer " + f.readline().strip()}
    else:
        url, headers = f"{base_url}/{m}/users/1/aggregate", {}
    first = poll_until_ok(app, url, timeout, 0.05, what + " {exit} before it answered", headers, since=t0,
                          request_timeout=5.0)
    if first is None:
        raise RuntimeError(f"{what} did not answer {url} with 200 within {timeout:.0f} s; see {app.log_path}")
    return first

def quarkus_started(app):
    """Quarkus's own "started in X s" (JVM start to HTTP listening), from the app's log."""
    try:
        if hasattr(app, "engine"):
            out = app.engine("logs", app.name, timeout=30)
            text = out.stdout + out.stderr
        else:
            with open(app.log_path, errors="replace") as f:
                text = f.read()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return started_in(text)

def smoke_test(base_url, config: Config, tokens_file) -> None:
    """One request per endpoint and model before any load, so a broken setup fails in seconds, not minutes."""
    probes = list(dict.fromkeys(probe for s in config.scenarios for probe in SCENARIOS[s].probes))
    token = None
    if tokens_file:
        with open(tokens_file) as f:
            token = f.readline().strip()
    headers = {"Authorization": "Bearer " + token} if token else {}
    for m in config.models:
        for probe in probes:
            path = probe.path.format(model=m)
            code, body = http_get(base_url + path, timeout=10, headers=headers, method=probe.method)
            if code != 200 or probe.expect not in body:
                raise RuntimeError(f"smoke test {probe.method} {path} answered {code}: {body[:200]}")
