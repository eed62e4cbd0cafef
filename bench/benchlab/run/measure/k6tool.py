"""Finding or installing k6, running one bounded k6 test and reading its summary JSON."""
import json
import os
import shutil
import subprocess
import urllib.request

from benchlab.results import windows
from benchlab.run.procs import log, run_checked

K6_VERSION = "v1.8.1"
TREND_STATS = "avg,min,med,max,p(90),p(95),p(99)"
# Go's collector runs once the heap has grown by GOGC % since the last one (100 by default). k6 allocates per request,
# and at 400 its collections cost a sixth less CPU per request against a server that answers at once (0.42 to 0.36
# ms at 1,400/s); memory is not what k6 lacks here.
K6_GOGC = "400"


def find_or_install_k6(root, log_dir):
    on_path = shutil.which("k6")
    if on_path:
        return on_path
    local = os.path.join(root, ".tools", "bin", "k6")
    if os.access(local, os.X_OK):
        return local
    if not shutil.which("go"):
        raise RuntimeError("k6 is not on PATH and Go is not installed to build it: install k6 " + K6_VERSION)
    log(f"installing k6 {K6_VERSION} into .tools/bin with go install (a cold build takes a few minutes)")
    env = dict(os.environ, GOBIN=os.path.join(root, ".tools", "bin"))
    run_checked(["go", "install", f"go.k6.io/k6@{K6_VERSION}"], os.path.join(log_dir, "k6-install.log"),
                timeout=1200, env=env, what="go install k6")
    return local


def k6_version(k6):
    try:
        return subprocess.run([k6, "version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except Exception as e:  # noqa: BLE001 - only informational
        return f"unknown ({e})"


def start_k6(pm, k6, script, env_vars, summary_file, log_path, api_port, csv_path=None):
    """Starts k6 in its own process group, its REST API on api_port, on the bench's own CPUs (the rig's, where the app
    has CPUs of its own): Go sizes its scheduler from that mask. csv_path: k6 writes every metric sample there
    (gzipped when it ends in .gz; plain text can be read while k6 writes it), for per-second windows."""
    env = dict(os.environ, K6_NO_USAGE_REPORT="true", SUMMARY_FILE=summary_file, K6_CSV_TIME_FORMAT="unix_milli",
               GOGC=K6_GOGC, **env_vars)
    argv = [k6, "run", "--no-usage-report", "--quiet", "--no-color", "--address", f"127.0.0.1:{api_port}",
            "--summary-trend-stats", TREND_STATS, "--system-tags", windows.SYSTEM_TAGS,
            *(["--out", f"csv={csv_path}"] if csv_path else []), script]
    return pm.start("k6", argv, log_path, env=env)


def wait_k6(pm, proc, timeout) -> int:
    """k6's exit code (0 ok, 99 threshold crossed, 103 stopped through its API, other = error); killed after
    timeout seconds."""
    try:
        return proc.popen.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        log(f"k6 did not finish within {timeout:.0f} s: killing it")
        return -9
    finally:
        pm.stop(proc, grace=5)


# k6's exit code when its REST API stopped the test (a warm-up that reached steady state)
STOPPED_BY_API = 103


def stop_k6(api_port) -> None:
    """Ends a running test through k6's REST API: k6 stops its VUs, writes its summary and exits (STOPPED_BY_API)."""
    body = json.dumps({"data": {"type": "status", "id": "default", "attributes": {"stopped": True}}}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{api_port}/v1/status", data=body, method="PATCH",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        response.read()


def read_summary(path, model=None):
    """The numbers we keep from k6's summary JSON (handleSummary's data); a missing metric counts as zero. The per-model
    series ("http_req_duration{model:M}") hold only the measured requests, not setup()'s readiness probe."""
    with open(path) as f:
        data = json.load(f)
    metrics = data.get("metrics", {})

    def values(name):
        if model:
            tagged = metrics.get(f"{name}{{model:{model}}}")
            if tagged and tagged.get("values"):
                return tagged["values"]
        return (metrics.get(name) or {}).get("values") or {}

    dur = values("http_req_duration")
    reqs = values("http_reqs")
    failed = values("http_req_failed")
    checks = values("checks")
    transport = int(values("transport_errors").get("count", 0))
    crossed = []
    for name, metric in metrics.items():
        for expr, outcome in (metric.get("thresholds") or {}).items():
            if isinstance(outcome, dict) and outcome.get("ok") is False:
                crossed.append(f"{name}: {expr}")
    return {
        "requests": int(reqs.get("count", 0)),
        "rps": float(reqs.get("rate", 0.0)),
        "p50_ms": dur.get("med"),
        "p90_ms": dur.get("p(90)"),
        "p95_ms": dur.get("p(95)"),
        "p99_ms": dur.get("p(99)"),
        "max_ms": dur.get("max"),
        "avg_ms": dur.get("avg"),
        # http_req_failed is a Rate of "failed": its "passes" are the failed requests.
        "errors": int(failed.get("passes", 0)),
        "error_rate": float(failed.get("rate", 0.0)),
        # requests that hit the timeout (request_timeouts, when the script counts them apart), else all
        # requests without an HTTP answer (transport_errors: timeouts, refused, reset)
        "timeouts": int(values("request_timeouts").get("count", transport)),
        "transport_errors": transport,
        "dropped_iterations": int((metrics.get("dropped_iterations") or {}).get("values", {}).get("count", 0)),
        "checks_passed": int(checks.get("passes", 0)),
        "checks_failed": int(checks.get("fails", 0)),
        "thresholds_crossed": crossed,
        "error_threshold_crossed": any(c.startswith(("http_req_failed", "checks")) for c in crossed),
        "setup_completed": (data.get("lab") or {}).get("setupCompleted", True),
    }
