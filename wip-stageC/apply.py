import os
os.chdir('/work/wt-gateway')
def edit(path, old, new):
    s = open(path).read()
    assert old in s, (path, old)
    open(path, 'w').write(s.replace(old, new, 1))
edit('k6/lib/http.js', '''function send(method, url, model, name, params) {
  const tags = Object.assign({ model, name }, params.tags);
  const res = http.request(method, url, null, Object.assign({ timeout: TIMEOUT }, params, { tags }));''',
'''function send(method, url, model, name, params, body = null) {
  const tags = Object.assign({ model, name }, params.tags);
  const res = http.request(method, url, body, Object.assign({ timeout: TIMEOUT }, params, { tags }));''')
edit('k6/lib/http.js', '''// A POST without a body (the app takes what it needs from the token).
export function post(url, model, name, params = {}) {
  return send('POST', url, model, name, params);
}''', '''// A POST, without a body unless one is given (the report takes what it needs from the token).
export function post(url, model, name, params = {}, body = null) {
  return send('POST', url, model, name, params, body);
}''')

# --- bench: the gateway scenario ---
edit('bench/benchlab/model.py', '''    needs_tokens: bool = False  # its script sends signed tokens
    k6_timeout_s: float | None = None  # instead of --timeout''', '''    needs_tokens: bool = False  # its script sends signed tokens
    k6_timeout_s: float | None = None  # instead of --timeout
    # Seconds a request takes when nothing queues: a closed-model step's throughput is compared with VUs / this.
    ideal_latency_s: float = 0.6
    backends: bool = False  # the gateway's two backend instances, served by the downstream process''')
edit('bench/benchlab/model.py', '''                          Variant("local-1000+redis", local_cache(1000), redis=True))),
}''', '''                          Variant("local-1000+redis", local_cache(1000), redis=True))),
    # Article 004: the gateway route over two backend instances with the article's 40/35/25 mix; the backends wait on
    # timers in a process of their own, so the gateway is what saturates. Ideal: the mix's mean backend latency,
    # 0.40 x 69 + 0.35 x 21 + 0.25 x 20 ms.
    "gateway": Scenario("gateway", "gateway.js", slo_p99_ms=500.0, limit="offered", ideal_latency_s=0.04,
                        backends=True),
}''')
edit('bench/benchlab/report.py', '''def ideal_share(r) -> str:
    """Closed-model aggregation: successful throughput against VUs / 0.6 s, every user served at the ideal latency."""
    if r.load_model != "closed" or SCENARIOS[r.scenario].limit != "offered":
        return "-"
    return f"{r.ok_rps / (r.load / AGGREGATE_IDEAL_S):.1%}"''', '''def ideal_share(r) -> str:
    """Closed model: successful throughput against VUs / the scenario's ideal latency, every user served at it."""
    scenario = SCENARIOS[r.scenario]
    if r.load_model != "closed" or scenario.limit != "offered":
        return "-"
    return f"{r.ok_rps / (r.load / scenario.ideal_latency_s):.1%}"''')
edit('bench/benchlab/report.py', 'from benchlab.model import AGGREGATE_IDEAL_S, MODELS, SCENARIOS, SLO_MAX_BAD_SHARE',
     'from benchlab.model import MODELS, SCENARIOS, SLO_MAX_BAD_SHARE')
edit('bench/benchlab/cli.py', '''                           "cache": "vus:150,200,800"},''', '''                           "cache": "vus:150,200,800", "gateway": "vus:16,vus:100,200,400,800,1600"},''')
edit('bench/benchlab/cli.py', '''                         "pool-sweep": "vus:50", "cache": "vus:50"},''', '''                         "pool-sweep": "vus:50", "cache": "vus:50", "gateway": "vus:16"},''')
edit('bench/benchlab/runner.py', '''        ds_props = dict(props, **{"quarkus.http.port": ds_port, "lab.seed.users": args.users})''',
     '''        ds_props = dict(props, **{"quarkus.http.port": ds_port, "lab.seed.users": args.users})
        backend_ports = (args.port + 3, args.port + 4)
        gateway = any(SCENARIOS[s].backends for s in args.scenarios)
        if gateway:  # the gateway's two backend instances, beside the downstream service in its process
            ds_props["lab.backend.ports"] = ",".join(map(str, backend_ports))''')
edit('bench/benchlab/runner.py', '''                                   "quarkus.shutdown.delay-enabled": "false", "quarkus.shutdown.timeout": "1s"})''',
     '''                                   "quarkus.shutdown.delay-enabled": "false", "quarkus.shutdown.timeout": "1s"})
        if gateway:
            app_props["lab.gateway.instances"] = ",".join(f"http://127.0.0.1:{p}" for p in backend_ports)''')
edit('bench/benchlab/services.py', '''        if "aggregate-cached.js" in scripts:
            probes.append(("GET", f"/{m}/users/1/aggregate/cached", '"level"'))''', '''        if "aggregate-cached.js" in scripts:
            probes.append(("GET", f"/{m}/users/1/aggregate/cached", '"level"'))
        if "gateway.js" in scripts:
            probes.append(("GET", f"/{m}/gateway/api/data", '"_gateway"'))''')
edit('bench/README.md', '''  1,000 local entries plus Redis: 27 runs, about 9.5 minutes of load with the two restarts after the worker model
  starves; about 11 minutes in all once built.''', '''  1,000 local entries plus Redis; the gateway at 16 users: 30 runs, about 10 minutes of load with the two restarts
  after the worker model starves.''')
edit('bench/README.md', '''  | `cache` | article 000's last step:''', '''  | `gateway` | article 004: `/{model}/gateway/api/{data,process,heavy}` (`k6/gateway.js`, 40 % heavy, 35 % data, 25 % process) over two backend instances that the downstream process serves on port+3 and port+4 (`lab.backend.ports`; the app gets `lab.gateway.instances`); of ideal: against VUs / 40 ms, the mix's mean backend latency | the app as configured | 16 and 100 users (the article's wrk connections), then 200, 400, 800, 1600/s | not measured yet |
  | `cache` | article 000's last step:''')
edit('bench/README.md', '''`executors`, `pool-sweep`, `cache`: the articles' other experiments (below) |''', '''`executors`, `pool-sweep`, `cache`, `gateway`: the articles' other experiments (below) |''')
edit('k6/README.md', '''Six scenarios, one per file,''', '''Seven scenarios, one per file,''')
edit('k6/README.md', '''| `aggregate-cached.js` |''', '''| `gateway.js` | `GET /{model}/gateway/api/{heavy,data}`, `POST /{model}/gateway/api/process` | the gateway (article 004): 40 % heavy, 35 % data, 25 % process, drawn per iteration; requests tagged `backend` |
| `aggregate-cached.js` |''')
edit('k6/README.md', '''MODEL=reactive CPU=2000 OFFLOAD=1 k6 run --no-usage-report k6/mixed.js
```''', '''MODEL=reactive CPU=2000 OFFLOAD=1 k6 run --no-usage-report k6/mixed.js
MODEL=virtual LOAD_MODEL=closed VUS=100 k6 run --no-usage-report k6/gateway.js   # the article's wrk -c100
```''')
edit('k6/README.md', '''`zipf.js` (Zipf-distributed ids), `cache.js` (the app's cache counters).''', '''`zipf.js` (Zipf-distributed ids), `cache.js` (the app's cache counters), `weighted.js` (a weighted choice per
iteration: the gateway's mix).''')
edit('README.md', '''MODEL=reactive CPU=2000 RATE=100 OFFLOAD=1 k6 run --no-usage-report k6/mixed.js
```''', '''MODEL=reactive CPU=2000 RATE=100 OFFLOAD=1 k6 run --no-usage-report k6/mixed.js
# the gateway with article 004's mix, at the article's 16 connections
MODEL=worker LOAD_MODEL=closed VUS=16 k6 run --no-usage-report k6/gateway.js
```''')
edit('k6/README.md', '90 (hold), 60 (mixed) |', '90 (hold), 60 (mixed), 150 (gateway) |')
edit('k6/README.md', '300 (hold) |', '300 (hold), 16 (gateway) |')
edit('k6/README.md', '1000 / 3000 (jwt-mysql, mixed)', '1000 / 3000 (jwt-mysql, mixed, gateway)')

# --- bench: hold and mixed, and the three views ---
edit('bench/benchlab/model.py', '''    redis: bool = False  # the app gets the bench's Redis as its remote cache tier (quarkus.redis.hosts)''',
     '''    redis: bool = False  # the app gets the bench's Redis as its remote cache tier (quarkus.redis.hosts)
    k6_env: tuple[tuple[str, str], ...] = ()  # the script's own variables under this variant (HOLD_MS, CPU, OFFLOAD)''')
edit('bench/benchlab/model.py', '''    # Seconds a request takes when nothing queues: a closed-model step's throughput is compared with VUs / this.
    ideal_latency_s: float = 0.6''', '''    # Seconds a request takes when nothing queues: a closed-model step's throughput is compared with VUs / this
    # (None: the variants differ).
    ideal_latency_s: float | None = 0.6''')
edit('bench/benchlab/model.py', '''    "gateway": Scenario("gateway", "gateway.js", slo_p99_ms=500.0, limit="offered", ideal_latency_s=0.04,
                        backends=True),
}''', '''    "gateway": Scenario("gateway", "gateway.js", slo_p99_ms=500.0, limit="offered", ideal_latency_s=0.04,
                        backends=True),
    # Article 002: connections held 10 s by closed-model VUs (1 s in the quick preset); the k6 timeout outlasts a hold.
    "hold": Scenario("hold", "hold.js", slo_p99_ms=11_000.0, limit="offered", k6_timeout_s=30.0, ideal_latency_s=None,
                     variants=(Variant("10s", k6_env=(("HOLD_MS", "10000"),)),
                               Variant("1s", k6_env=(("HOLD_MS", "1000"),)))),
    # Article 002: 100 ms of I/O, then 2,000 SHA-256 rounds (a few ms of CPU) on the model's thread or on the app's
    # bounded CPU pool; the same app, so the two variants differ only in the URL k6 calls.
    "mixed": Scenario("mixed", "mixed.js", slo_p99_ms=500.0, limit="offered", ideal_latency_s=None,
                      variants=(Variant("inline", k6_env=(("CPU", "2000"),)),
                                Variant("offload", k6_env=(("CPU", "2000"), ("OFFLOAD", "1"))))),
}''')
edit('bench/benchlab/report.py', '''    scenario = SCENARIOS[r.scenario]
    if r.load_model != "closed" or scenario.limit != "offered":
        return "-"''', '''    scenario = SCENARIOS[r.scenario]
    if r.load_model != "closed" or scenario.limit != "offered" or scenario.ideal_latency_s is None:
        return "-"''')
edit('bench/benchlab/report.py', '''    sweep_views = [v for v in (sweeps.executors(runs, win), sweeps.pool_sweep(runs, int(env.get("cores") or 1)),
                               sweeps.cache(runs, env.get("limits") or {})) if v is not None]''',
     '''    sweep_views = [v for v in (sweeps.executors(runs, win), sweeps.pool_sweep(runs, int(env.get("cores") or 1)),
                               sweeps.cache(runs, env.get("limits") or {}), sweeps.gateway(runs), sweeps.hold(runs),
                               sweeps.mixed(runs)) if v is not None]''')
edit('bench/benchlab/report.py', '''"load_average_at_start", "runtime_info",''', '''"load_average_at_start", "open_files_limit", "runtime_info",''')
edit('bench/benchlab/sweeps.py', 'from benchlab.model import AGGREGATE_IDEAL_S', 'from benchlab.model import AGGREGATE_IDEAL_S, SCENARIOS')
edit('bench/benchlab/sweeps.py', '''"""The articles' sweeps as views of the tidy table: article 000's executor sizes (scenario "executors") and article
003's connection-pool sizes (scenario "pool-sweep"). Each gives one table and sentences derived from its numbers."""''',
     '''"""The articles' sweeps as views of the tidy table: article 000's executor sizes (scenario "executors") and cache,
article 003's connection-pool sizes (scenario "pool-sweep"), article 004's gateway, article 002's long-held connections
(hold) and I/O mixed with CPU work (mixed). Each gives one table and sentences derived from its numbers."""''')
with open('bench/benchlab/sweeps.py', 'a') as f:
    f.write(open('/tmp/stageC/sweeps_add.py').read())
edit('bench/benchlab/runner.py', '''    else:
        env["VUS"] = f"{run.load.value:g}"
    return env''', '''    else:
        env["VUS"] = f"{run.load.value:g}"
    env.update(variant_of(run.scenario, run.variant).k6_env)
    return env''')
edit('bench/benchlab/services.py', '''    env["load_average_at_start"] = os.getloadavg()''', '''    env["load_average_at_start"] = os.getloadavg()
    env["open_files_limit"] = raise_open_files()''')
edit('bench/benchlab/services.py', '''def environment(args, java_home, k6_version):''', '''def raise_open_files(wanted=65_536):
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


def environment(args, java_home, k6_version):''')
edit('bench/benchlab/services.py', 'import re\nimport secrets', 'import re\nimport resource\nimport secrets')
edit('bench/benchlab/services.py', '''        if "gateway.js" in scripts:
            probes.append(("GET", f"/{m}/gateway/api/data", '"_gateway"'))''', '''        if "gateway.js" in scripts:
            probes.append(("GET", f"/{m}/gateway/api/data", '"_gateway"'))
        if "hold.js" in scripts:
            probes.append(("GET", f"/{m}/hold?ms=1", '"heldMs"'))
        if "mixed.js" in scripts:
            probes += [("GET", f"/{m}/mixed?cpu=1", '"digest"'), ("GET", f"/{m}/mixed/offload?cpu=1", '"digest"')]''')
edit('bench/benchlab/cli.py', '''"gateway": "vus:16,vus:100,200,400,800,1600"},
                    variants={}),''', '''"gateway": "vus:16,vus:100,200,400,800,1600",
                           "hold": "vus:1000,vus:5000,vus:10000", "mixed": "50,100,200,400,800"},
                    variants={"hold": ["10s"]}),''')
edit('bench/benchlab/cli.py', '''"cache": "vus:50", "gateway": "vus:16"},''', '''"cache": "vus:50", "gateway": "vus:16",
                         "hold": "vus:200", "mixed": "100"},''')
edit('bench/benchlab/cli.py', '''                            "pool-sweep": ["pool-4", "pool-32"], "cache": ["uncached", "local-1000+redis"]}),''',
     '''                            "pool-sweep": ["pool-4", "pool-32"], "cache": ["uncached", "local-1000+redis"],
                            "hold": ["1s"]}),''')
edit('bench/README.md', '''  1,000 local entries plus Redis; the gateway at 16 users: 30 runs, about 10 minutes of load with the two restarts
  after the worker model starves.''', '''  1,000 local entries plus Redis; the gateway at 16 users; 200 connections held 1 s; mixed at 100/s inline and
  offloaded: 39 runs (the planned duration is printed at the start).''')
edit('bench/README.md', '''  | `cache` | article 000's last step:''', '''  | `hold` | article 002: `GET /{model}/hold?ms=N` (`k6/hold.js`), closed-model VUs each holding one connection; the bench raises its open-files limit (inherited by k6 and the app) to the hard limit, past it as root (`open_files_limit` in the settings) | `10s`, `1s` (`HOLD_MS`) | 1,000, 5,000, 10,000 connections held 10 s | not measured yet |
  | `mixed` | article 002: `GET /{model}/mixed?cpu=2000` (`k6/mixed.js`), 100 ms of I/O then 2,000 SHA-256 rounds, inline or on the bounded CPU pool | `inline`, `offload` | 50, 100, 200, 400, 800/s | not measured yet |
  | `cache` | article 000's last step:''')
edit('bench/README.md', '''`executors`, `pool-sweep`, `cache`, `gateway`: the articles' other experiments (below) |''', '''`executors`, `pool-sweep`, `cache`, `gateway`, `hold`, `mixed`: the articles' other experiments (below) |''')
edit('docs/experiments.md', '''parameters (400 beyond the configured maximum). `k6/hold.js` and `k6/mixed.js` drive them by hand; the benchmark's
scenarios for them (connections held at 1,000 / 5,000 / 10,000, a sweep per model and variant) are not written yet.''',
     '''parameters (400 beyond the configured maximum). `k6/hold.js` and `k6/mixed.js` drive them by hand;
`bench/run --scenarios hold,mixed` holds 1,000, 5,000 and 10,000 connections 10 s each (raising its open-files limit
for the processes it starts) and reports connections held, RSS and threads per held connection and what failed first,
and sweeps arrival rates per model with the rounds inline and offloaded, with the app's CPU per request. No figures
from this machine yet.''')
edit('docs/experiments.md', '''bottleneck; their documents are generated from a seed and serialised for every answer. The k6 script and the
benchmark's scenario (16 and 100 closed VUs, an open sweep, threads, allocation and CPU per request) are not written yet.''',
     '''bottleneck; their documents are generated from a seed and serialised for every answer. `k6/gateway.js` draws the
article's 40/35/25 mix per request; `bench/run --scenarios gateway` runs it at the article's 16 and 100 connections and
on an arrival-rate ladder, the backends in a process of their own, and reports every request's latency with the
failures beside it, the app's threads, RSS, CPU per request and GC share. Allocation rate is not measured yet.''')
edit('bench/tests/test_sweeps.py', '''    base = {f.name: None for f in dataclasses.fields(RunRow)}
    return pd.DataFrame([dict(base, runtime="jvm", repetition=1, errors=0, **s) for s in specs])''',
     '''    base = {f.name: None for f in dataclasses.fields(RunRow)}
    defaults = dict(runtime="jvm", repetition=1, errors=0, status_0=0, status_4xx=0, status_5xx=0, dropped=0)
    return pd.DataFrame([{**base, **defaults, **s} for s in specs])''')
with open('bench/tests/test_sweeps.py', 'a') as f:
    f.write(open('/tmp/stageC/test_views_body.py').read())
import shutil
shutil.copy('/tmp/stageC/k6/gateway.js', 'k6/gateway.js')
shutil.copy('/tmp/stageC/k6/lib/weighted.js', 'k6/lib/weighted.js')
shutil.copy('/tmp/stageC/test_gateway_scenario.py', 'bench/tests/test_scenarios.py')
