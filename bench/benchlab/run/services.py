"""The processes a benchmark needs and how to reach them: JDK, database, tokens, downstream, the app's readiness, and
what the machine and the app's configuration are. Each fact about the app's interface lives in one function here."""
import json
import os
import platform
import re
import resource
import secrets
import subprocess
import threading
import time
import urllib.error
import urllib.request

import psutil

from benchlab.results.environment import Environment
from benchlab.run import jvm, startup
from benchlab.scenarios import SCENARIOS

ROOT = os.environ.get("BENCH_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
ISSUER = "https://concurrency-lab.example/issuer"
# The app's limits printed in the report (a limit hides queueing): property -> what it bounds.
LIMIT_PROPERTIES = {
    "quarkus.datasource.jdbc.max-size": "JDBC pool (virtual, worker)",
    "quarkus.datasource.reactive.max-size": "reactive pool",
    "quarkus.datasource.reactive.mysql.connection-timeout": "reactive wait for a connection (s, 0 = no timer)",
    "lab.datasource.reactive.max-wait-queue-size": "reactive pool wait queue (beyond it 503 database_busy)",
    "quarkus.datasource.jdbc.acquisition-timeout": "JDBC wait for a connection",
    "lab.aggregate.deadline": "aggregation deadline (504 aggregate_deadline)",
    "lab.overload.max-concurrent-lookups": "concurrent /users/me per model (503 service_overloaded)",
    "lab.overload.max-concurrent-aggregations": "concurrent aggregations per model (503 service_overloaded)",
    "quarkus.thread-pool.max-threads": "worker pool threads",
    "quarkus.rest-client.downstream.connection-pool-size": "downstream client connections",
    "lab.worker.branches.executor": "worker model's branch executor",
    'quarkus.cache.caffeine."aggregate".expire-after-write': "cached aggregation: lifetime in the local tier",
    "lab.cache.remote.ttl": "cached aggregation: lifetime in Redis",
}

def find_java_home():
    out = subprocess.run(["bash", "-c", ". .mvn/find-jdk.sh >/dev/null && echo \"$JAVA_HOME\""], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    home = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
    if out.returncode != 0 or not home or not os.path.isfile(os.path.join(home, "bin", "java")):
        raise RuntimeError("no JDK >= 21 found (.mvn/find-jdk.sh): " + (out.stderr.strip() or "no output"))
    return home


def first_line(path, prefix):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(prefix):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def app_properties():
    """key -> value of the app's application.properties (prod values: profile-prefixed keys are skipped)."""
    props = {}
    try:
        with open(os.path.join(ROOT, "src/main/resources/application.properties")) as f:
            for line in f:
                if "=" in line and not line.lstrip().startswith(("#", "%")):
                    k, _, v = line.strip().partition("=")
                    props[k.strip()] = v.strip()
    except OSError:
        pass
    return props


def raise_open_files(wanted=65_536):
    """Each held connection is a file descriptor in k6 and one in the app, and the processes the bench starts inherit
    this process' limit: raised to the hard limit, or past it where the user may (root). Returns the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for limit in (max(wanted, hard), hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
            break
        except (ValueError, OSError):
            continue
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def environment(config, java_home, k6_version) -> Environment:
    """The machine, the software and the limits in force, for the report's header."""
    text = jvm.print_flags(java_home)
    chosen = jvm.ergonomics(text)
    try:
        with open(os.path.join(ROOT, "pom.xml")) as f:
            quarkus = re.search(r"<quarkus.platform.version>([^<]+)<", f.read()).group(1)
    except (OSError, AttributeError):
        quarkus = "unknown"
    props = app_properties()
    return Environment(
        command_line=config.command_line, preset=config.preset, started=time.strftime("%Y-%m-%d %H:%M:%S %z"),
        cpu_model=first_line("/proc/cpuinfo", "model name"), cores=psutil.cpu_count(),
        memory_gib=round(psutil.virtual_memory().total / 2**30, 1), load_average_at_start=os.getloadavg(),
        open_files_limit=raise_open_files(), os=platform.platform(),
        jdk=chosen["jvm"] or text.strip().splitlines()[-1],
        gc=f"{chosen['jvm_gc']} (JVM default)" if chosen["jvm_gc"] else "JVM default", quarkus=quarkus,
        limits={f"{what} ({key})": props.get(key, "not set: the built-in default")
                for key, what in LIMIT_PROPERTIES.items()},
        jdbc_pool_max=props.get("quarkus.datasource.jdbc.max-size", "20"), k6=k6_version,
        git_commit=subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                  text=True, timeout=10).stdout.strip() or None)


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


def start_database(pm, java_home, logs):
    """The project's embedded MariaDB (`./mvnw -q exec:exec@database`): prints its JDBC URL, runs until stopped."""
    return start_embedded(pm, java_home, logs, "database", "jdbc:")


def start_redis(pm, java_home, logs):
    """The project's embedded Redis (`./mvnw -q exec:exec@redis`), the cache scenario's remote tier."""
    return start_embedded(pm, java_home, logs, "redis", "redis://")


def start_embedded(pm, java_home, logs, name, url_prefix):
    """An embedded server started by Maven from the repository: it prints its URL as the first stdout line starting
    with url_prefix and runs until its process group is stopped."""
    argv = [os.path.join(ROOT, "mvnw"), "-q", f"exec:exec@{name}"]
    proc = pm.start(name, argv, os.path.join(logs, f"{name}.log"), cwd=ROOT, pipe_stdout=True,
                    env=dict(os.environ, JAVA_HOME=java_home))
    found = {}

    def read():
        with open(os.path.join(logs, f"{name}.stdout"), "w") as sink:
            for line in proc.popen.stdout:  # keep draining so the pipe never fills
                if "url" not in found and line.startswith(url_prefix):
                    found["url"] = line.strip()
                sink.write(line)
                sink.flush()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.time() + 180
    while "url" not in found:
        if not proc.alive():
            raise RuntimeError(f"embedded {name} exited (code {proc.popen.returncode}); see {proc.log_path}")
        if time.time() > deadline:
            raise RuntimeError(f"embedded {name} printed no URL within 180 s; see {proc.log_path}")
        time.sleep(0.2)
    return proc, found["url"]


class Jwt:
    """A fresh HS256 secret or RS256 key pair per bench run."""

    def __init__(self, alg, workdir):
        self.alg = alg
        self.props, self.env, self.token_props = {}, {}, {}
        if alg == "hs256":
            secret = secrets.token_hex(32)
            # As in article 001: the raw shared secret in JWT_SECRET, and the standard algorithm property.
            self.env["JWT_SECRET"] = secret
            self.props["mp.jwt.verify.publickey.algorithm"] = "HS256"
            self.token_props = {"tokens.alg": "HS256", "tokens.secret": secret}
        else:
            priv, pub = os.path.join(workdir, "jwt-private.pem"), os.path.join(workdir, "jwt-public.pem")
            subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out",
                            priv], check=True, capture_output=True, timeout=60)
            subprocess.run(["openssl", "pkey", "-in", priv, "-pubout", "-out", pub], check=True,
                           capture_output=True, timeout=60)
            self.props["mp.jwt.verify.publickey.location"] = pub
            self.token_props = {"tokens.alg": "RS256", "tokens.key": priv}
        self.props["mp.jwt.verify.issuer"] = ISSUER


def generate_tokens(pm, count, path, jwt, logs):
    argv = [os.path.join(ROOT, "mvnw"), "-B", "-q", "test-compile", "exec:java@tokens", f"-Dtokens.count={count}",
            f"-Dtokens.out={path}", *[f"-D{k}={v}" for k, v in jwt.token_props.items()]]
    pm.run("token generation", argv, os.path.join(logs, "tokens.log"), timeout=900, cwd=ROOT)
    with open(path) as f:
        n = sum(1 for line in f if line.strip())
    if n != count:
        raise RuntimeError(f"expected {count} tokens in {path}, found {n}")


def point_select_rate(pm, java_home, db_url, config, threads, logs):
    argv = [os.path.join(java_home, "bin", "java"), "-cp", os.path.join(ROOT, "target/quarkus-app/lib/main/*"),
            os.path.join(ROOT, "bench", "PointSelectRate.java"), "--url", db_url, "--user", config.db_user,
            "--password", config.db_password, "--threads", str(threads), "--seconds", str(config.pointselect_seconds),
            "--warmup", "2", "--users", str(config.users)]
    log_path = os.path.join(logs, f"pointselect-{threads}.log")
    pm.run("point-select measurement", argv, log_path, timeout=300)
    with open(log_path) as f:
        line = next((l for l in f if l.startswith("{")), None)
    if line is None:
        raise RuntimeError(f"PointSelectRate failed; see {logs}/pointselect-{threads}.log")
    return json.loads(line)


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


def first_success(app, base_url, config, tokens_file, t0, timeout, what):
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
    return startup.started_in(text)


def smoke_test(base_url, config, tokens_file):
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


def empty_reports(db_url, user, password):
    """Deletes the rows the report scenario inserts, so that every run starts from the same table."""
    import pymysql  # only the pool-sweep scenario needs it

    m = re.match(r"jdbc:(?:mysql|mariadb)://([^:/]+)(?::(\d+))?/([^?]+)", db_url)
    if not m:
        raise RuntimeError(f"cannot read host, port and database from {db_url}")
    with pymysql.connect(host=m.group(1), port=int(m.group(2) or 3306), user=user, password=password,
                         database=m.group(3), autocommit=True) as conn, conn.cursor() as cur:
        cur.execute("DELETE FROM reports")
