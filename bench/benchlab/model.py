"""What a benchmark is made of, defined once: the models, the scenarios with their SLOs, and the typed records."""
from __future__ import annotations

from dataclasses import dataclass

MODELS = ("virtual", "worker", "reactive")


@dataclass(frozen=True)
class Variant:
    """An app configuration a scenario is measured under: the app is (re)started with these properties for it."""
    name: str  # shown beside the model, "worker (article-small)"; "" = the app as configured
    props: tuple[tuple[str, str], ...] = ()
    models: tuple[str, ...] = MODELS  # the models measured under it
    script: str | None = None  # instead of the scenario's script (the cache scenario's uncached reference)
    redis: bool = False  # the app gets the bench's Redis as its remote cache tier (quarkus.redis.hosts)
    k6_env: tuple[tuple[str, str], ...] = ()  # the script's own variables under this variant (HOLD_MS, CPU, OFFLOAD)
    opt_in: bool = False  # measured only when --variants names it
    driver: str | None = None  # the MySQL Connector/J version the app is packaged with (drivers.py); None: as shipped


@dataclass(frozen=True)
class Scenario:
    name: str
    script: str
    slo_p99_ms: float
    # The "physical limit" a capacity is compared with: "point_select" (the database's measured point-select rate)
    # or "offered" (every offered request answered at the ideal latency, so the limit is the highest offered rate).
    limit: str
    # Requests in flight above which a run of the worker model is expected to starve its pool and leave a backlog
    # that costs an app restart (for the planned duration only): 200 worker threads (Quarkus' default) / 3 threads
    # per aggregation (1 request + 2 branches) = 67, i.e. 67 VUs or 111/s at 0.6 s each.
    worker_starves_above_in_flight: float | None = None
    # The worker model's request holds a worker thread while it waits for branches that need worker threads too (the
    # aggregation): the report names that as the reason when the worker pool's queue fills.
    worker_branches_nest: bool = False
    variants: tuple[Variant, ...] = (Variant(""),)
    needs_tokens: bool = False  # its script sends signed tokens
    k6_timeout_s: float | None = None  # instead of --timeout
    backends: bool = False  # the gateway's two backend instances, served by the downstream process
    # A fresh app per model, the models one after the other: where threads and RSS are the result, a model must not
    # inherit the threads and heap another model left behind (their interleaving is given up for it).
    app_per_model: bool = False
    # Warm up at this many closed-model VUs instead of the scenario's lowest load (hold: 1,000 held connections would
    # starve the worker model before its first run).
    warmup_vus: int | None = None


# Article 000 let latencies grow to 22 s: its executor scenario lifts the 6 s deadline so that the growth shows.
NO_EARLY_DEADLINE = (("lab.aggregate.deadline", "60s"),)


def branch_executor(core: int, max_size: int, queue: int) -> tuple[tuple[str, str], ...]:
    """The worker model's branches on a dedicated ThreadPoolExecutor (io.concurrencylab.worker.BranchExecutor)."""
    return (("lab.worker.branches.executor", "dedicated"), ("lab.worker.branches.core-size", str(core)),
            ("lab.worker.branches.max-size", str(max_size)), ("lab.worker.branches.queue-size", str(queue)))


def connection_pools(size: int) -> tuple[tuple[str, str], ...]:
    return (("quarkus.datasource.jdbc.max-size", str(size)), ("quarkus.datasource.reactive.max-size", str(size)))


POOL_SIZES = (4, 8, 16, 32, 64)


DOWNSTREAM_HTTP2 = (("quarkus.rest-client.downstream.http2", "true"),)


def local_cache(entries: int) -> tuple[tuple[str, str], ...]:
    return (('quarkus.cache.caffeine."aggregate".maximum-size', str(entries)),)

# Article 001's kind of driver: Connector/J before 9.0 reads its socket inside synchronized (MySQL bug 109346), which
# pins a virtual thread to its carrier on JDK 21-23; 8.3.0 is the version Quarkus 3.30.6 manages. The lab ships 9.x
# (pom.xml's mysql-connector-j.version, which a test keeps equal to SHIPPED_DRIVER).
PINNING_DRIVER = "8.3.0"
SHIPPED_DRIVER = "9.5.0"

SCENARIOS = {
    "jwt-mysql": Scenario("jwt-mysql", "jwt-mysql.js", slo_p99_ms=50.0, limit="point_select", needs_tokens=True),
    # http2: the same REST clients over HTTP/2 (h2c), a few multiplexed connections instead of one per call in flight
    "aggregate": Scenario("aggregate", "aggregate.js", slo_p99_ms=700.0, limit="offered",
                          worker_starves_above_in_flight=200 / 3, worker_branches_nest=True,
                          variants=(Variant(""), Variant("http2", DOWNSTREAM_HTTP2, opt_in=True))),
    # Article 001 to its root: JWT + MySQL at the article's 50, 100 and 300 connections (closed model), the app packaged
    # with each driver; run with --jdk 21,25 for its JDK x driver matrix. Worker and reactive are the controls: only
    # virtual threads can pin.
    "article-001": Scenario("article-001", "jwt-mysql.js", slo_p99_ms=50.0, limit="point_select", needs_tokens=True,
                            variants=tuple(Variant(f"connector-j-{v}", driver=v)
                                           for v in (PINNING_DRIVER, SHIPPED_DRIVER))),
    # Article 000's executor sizes for the worker model's branches, virtual and reactive beside them.
    "executors": Scenario(
        "executors", "aggregate.js", slo_p99_ms=700.0, limit="offered", worker_starves_above_in_flight=200 / 3,
        worker_branches_nest=True, k6_timeout_s=60.0, variants=(
            Variant("", NO_EARLY_DEADLINE, ("virtual", "reactive")),
            Variant("worker-pool", NO_EARLY_DEADLINE, ("worker",)),
            Variant("article-small", NO_EARLY_DEADLINE + branch_executor(6, 12, 500), ("worker",)),
            Variant("article-50-150", NO_EARLY_DEADLINE + branch_executor(50, 150, 500), ("worker",)),
            Variant("article-100-300", NO_EARLY_DEADLINE + branch_executor(100, 300, 500), ("worker",)))),
    # Article 003: a report of eight reads and an insert per request, the connection pools of both stacks swept.
    "pool-sweep": Scenario("pool-sweep", "report.js", slo_p99_ms=500.0, limit="offered", needs_tokens=True,
                           variants=tuple(Variant(f"pool-{n}", connection_pools(n)) for n in POOL_SIZES)),
    # Article 000's last step: the aggregation behind a local (Caffeine) and a remote (Redis) tier, ids drawn from a
    # Zipf distribution; the uncached aggregation is the reference, measured in the same run.
    "cache": Scenario("cache", "aggregate-cached.js", slo_p99_ms=700.0, limit="offered",
                      worker_starves_above_in_flight=200 / 3, worker_branches_nest=True, variants=(
                          Variant("uncached", script="aggregate.js"),
                          Variant("local-1000", local_cache(1000)),
                          Variant("local-10000", local_cache(10000)),
                          Variant("local-1000+redis", local_cache(1000), redis=True))),
    # Article 004: the gateway route over two backend instances with the article's 40/35/25 mix; the backends wait on
    # timers in a process of their own, so the gateway is what saturates. Ideal: the mix's mean backend latency,
    # 0.40 x 69 + 0.35 x 21 + 0.25 x 20 ms.
    "gateway": Scenario("gateway", "gateway.js", slo_p99_ms=500.0, limit="offered", backends=True,
                        app_per_model=True),
    # Article 002: connections held 10 s by closed-model VUs (1 s in the quick preset); the k6 timeout outlasts a hold.
    # The worker model holds a worker thread per connection: past its 200 threads the holds queue, and the queue
    # outlives k6's timeouts (a restart follows).
    "hold": Scenario("hold", "hold.js", slo_p99_ms=11_000.0, limit="offered", k6_timeout_s=30.0,
                     worker_starves_above_in_flight=200, app_per_model=True, warmup_vus=100,
                     variants=(Variant("10s", k6_env=(("HOLD_MS", "10000"),)),
                               Variant("1s", k6_env=(("HOLD_MS", "1000"),)))),
    # Article 002: 100 ms of I/O, then 2,000 SHA-256 rounds (a few ms of CPU) on the model's thread or on the app's
    # bounded CPU pool; the same app, so the two variants differ only in the URL k6 calls.
    "mixed": Scenario("mixed", "mixed.js", slo_p99_ms=500.0, limit="offered",
                      variants=(Variant("inline", k6_env=(("CPU", "2000"),)),
                                Variant("offload", k6_env=(("CPU", "2000"), ("OFFLOAD", "1"))))),
}
# CPU per request means something only when the app is busy: below half a core, background work (JIT, GC, the
# sampler's own scrapes) dominates and the figure grows as the load falls.
CPU_PER_REQUEST_MIN_APP_CPU_PCT = 50.0


def app_busy(app_cpu_pct: float | None) -> bool:
    """Whether the app's average CPU makes a CPU-per-request figure meaningful (NaN and None: not sampled)."""
    return app_cpu_pct is not None and app_cpu_pct >= CPU_PER_REQUEST_MIN_APP_CPU_PCT
# Failed requests plus iterations k6 could not start in time, as a share of the offered ones, that an SLO allows.
SLO_MAX_BAD_SHARE = 0.001
AGGREGATE_IDEAL_S = 0.6  # base 100 ms, then detail 300 ms and extra 500 ms in parallel
# What one request of a k6 script takes when nothing queues, where that is known: a closed model's throughput is
# compared with VUs / it. The report and the cached aggregation have none (their latency is what is measured).
IDEAL_LATENCY_S = {"aggregate.js": AGGREGATE_IDEAL_S,
                   # the gateway's mix of backend latencies: 0.40 x 69 + 0.35 x 21 + 0.25 x 20 ms
                   "gateway.js": 0.04}


def ideal_latency_s(scenario: str, variant: str) -> float | None:
    """The ideal latency of a scenario's requests under one of its variants (which may run another script)."""
    return IDEAL_LATENCY_S.get(script_of(scenario, variant))


@dataclass(frozen=True)
class Load:
    # "open" (arrival rate, requests/s), "closed" (VUs) or "search" (a capacity search of arrival rates starting at
    # value, search.py: the runner measures each of its steps as an open-model run)
    kind: str
    value: float

    @property
    def label(self) -> str:
        value = int(self.value) if float(self.value).is_integer() else self.value
        return {"open": f"{value}/s", "closed": f"{value} VUs"}.get(self.kind, f"search from {value}/s")


@dataclass(frozen=True)
class PlannedRun:
    index: int
    runtime: str
    scenario: str
    load: Load
    repetition: int
    model: str
    seconds: float
    variant: str = ""

    @property
    def tag(self) -> str:
        variant = f"-{self.variant}" if self.variant else ""
        return (f"{self.runtime}-{self.scenario}-{self.model}{variant}-{self.load.kind}{self.load.value:g}"
                f"-r{self.repetition}")

    @property
    def props(self) -> dict[str, str]:
        """The app properties this run needs beyond the bench's own."""
        return dict(variant_of(self.scenario, self.variant).props)


def variant_of(scenario: str, name: str) -> Variant:
    return next(v for v in SCENARIOS[scenario].variants if v.name == name)


def script_of(scenario: str, variant: str) -> str:
    return variant_of(scenario, variant).script or SCENARIOS[scenario].script


@dataclass
class RunRow:
    """One row of the tidy results table: one measured run of one model at one load and repetition."""
    tag: str
    runtime: str
    scenario: str
    model: str
    variant: str
    load_model: str
    load: float
    repetition: int
    planned_s: float
    window_s: float  # first to last second in which a request finished: the rate's denominator
    requests: int  # every request k6 sent and finished, failed ones included
    errors: int  # failed requests (http_req_failed), all kinds
    status_0: int  # no HTTP answer (timeout, refused, reset)
    status_4xx: int
    status_5xx: int
    dropped: int  # iterations k6 could not start in time (open model): offered but never sent
    ok_rps: float  # successful requests / window_s
    p50_ms: float | None  # over every finished request, failed ones included
    p99_ms: float | None
    max_ms: float | None
    k6_exit: int
    checks_failed: int
    app_cpu_pct: float | None  # average over the run; 100 = one core
    k6_cpu_pct: float | None
    db_cpu_pct: float | None
    downstream_cpu_pct: float | None  # the downstream service's process (the aggregation's timers, its HTTP)
    host_cpu_pct: float | None  # all cores together = 100
    app_cpu_ms_per_req: float | None
    rss_peak_mb: float | None
    threads_peak: float | None
    worker_queue_max: float | None
    worker_threads_max: float | None
    jdbc_awaiting_max: float | None
    jdbc_blocking_ms_avg: float | None
    sql_queue_max: float | None
    gc_share_pct: float | None
    metrics_missed_pct: float | None  # samples in which /lab/saturation (event loop) did not answer within 1.5 s
    drain_wait_s: float = 0.0
    pinned: int | None = None  # JFR jdk.VirtualThreadPinned events during the run (None: not recorded)
    pinned_where: str | None = None  # where most of them pinned: the first frame outside the JDK
    pinned_trace: bool | None = None  # the JVM's pinned-thread trace (JDK 21-23) printed a pinned stack in the run's app
    started_at: float | None = None  # epoch seconds: k6 started
    ended_at: float | None = None  # epoch seconds: k6 ended
    local_hit_pct: float | None = None  # cache scenario: lookups the local tier answered
    remote_hit_pct: float | None = None  # cache scenario: local misses the Redis tier answered
    alloc_mb_per_s: float | None = None  # the app's allocation rate (the JVM's allocated-bytes counter)
    downstream_waiting_max: float | None = None  # downstream calls waiting for a REST client connection (HTTP/1.1)
