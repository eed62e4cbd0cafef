"""What a benchmark is made of, defined once: the models, the records a scenario is made of (each scenario in its
module under scenarios/), the load kinds, and the typed records of the plan and the results."""
from __future__ import annotations

from dataclasses import dataclass, replace
import math
import re
import shlex
from enum import StrEnum

# The models, in the order every table, chart and plan lists them. This line is parsed as it is by a Java test (the
# app's endpoints per model); everything else about a model derives from it.
MODELS = ("virtual", "worker", "reactive")
VIRTUAL, WORKER, REACTIVE = MODELS  # by name, where one model plays a part of its own (the worker pool's starvation)
# Each model's colour in the charts (plotly's blue, red and green), one per model in MODELS' order.
MODEL_COLORS = dict(zip(MODELS, ("#1f77b4", "#d62728", "#2ca02c"), strict=True))


class LoadKind(StrEnum):
    OPEN = "open"  # an arrival rate, requests/s
    CLOSED = "closed"  # VUs, each sending its next request when the previous one is answered
    SEARCH = "search"  # a capacity search of arrival rates from a start rate (plan/search.py): each step an open run
    # An arrival rate below every model's saturation, measured in short interleaved repetitions on the steady app for
    # its CPU per request (the cost verdict); not a capacity step.
    COST = "cost"
    # A cost rate measured once more per model under async-profiler (--profile): where its CPU and allocations go, not
    # how much (the profiler's own share would bias the cost verdict).
    PROFILE = "profile"
    # An arrival rate held for minutes on an app of its own, its series read from the first tenth to the last (a
    # soak); 0: SOAK_SHARE of the capacity the model's search found just before.
    SOAK = "soak"
    # One replica at SOAK_SHARE of its capacity behind a load balancer, then twice that rate and a second replica
    # started cold (run/measure/scale_out.py); 0: the share of the capacity its search found just before.
    SCALE_OUT = "scale-out"


SOAK_SHARE = 0.7  # a soak's or a scale-out's load, as a share of the model's capacity, where no rate is given


class Stop(StrEnum):
    """Why a capacity search (plan/search.py) ended; results.json's searches record it."""
    RESOLVED = "resolved"  # held and broke within the resolution of each other
    CEILING = "ceiling"  # held at the known ceiling: a higher rate would measure what sets the ceiling, not the app
    LOAD_GENERATOR = "load generator"  # the step that broke was limited by k6, not by the app
    NOTHING_HELD = "nothing held"  # not even start x plan.search.MIN_FACTOR held
    BUDGET = "budget"  # out of steps before any of the above


class MemoryStop(StrEnum):
    """Why a step of a memory search (--heap-search, plan/heap_search.py) did not hold its load at its heap."""
    START = "too small to start"  # the JVM or the app did not start with that heap (the JVM's own message beside it)
    OOM = "OutOfMemoryError"  # the app ran out of memory during the step (-XX:+ExitOnOutOfMemoryError ended it)
    GC = "GC share"  # the run spent more than plan.heap_search.GC_SHARE_LEVEL_PCT of its time in GC pauses
    SLO = "SLO"  # p99 over the SLO or a failed request, with none of the above: not memory (the why names it)


class HeapSearchEnd(StrEnum):
    """Why a memory search ended; results.json's memory searches record it."""
    RESOLVED = "resolved"  # the smallest heap that held and the largest that broke are within the resolution
    FLOOR = "floor"  # held at the smallest heap the search tries: the answer is that heap or less
    NOTHING_HELD = "nothing held"  # not even the largest heap held: what stopped it is named by its stop
    BUDGET = "budget"  # out of steps before any of the above


@dataclass(frozen=True)
class HeapStep:
    """One step of a memory search: the heap, and why it did not hold (None: it held), with what names it (the JVM's
    message, or the resource that saturated); results.json's memory searches record each."""
    heap_mb: int
    stop: MemoryStop | None
    detail: str = ""
    tag: str | None = None  # the measured run's tag in results.csv (None: the app did not start)
    rss_peak_mb: float | None = None
    failed: int | None = None  # failed requests and dropped iterations of the measured run (None: not measured)

    @property
    def held(self) -> bool:
        return self.stop is None

    @property
    def late_only(self) -> bool:
        """Broke the SLO by its latency alone: no failed request, no sign of memory (a busy machine can do that)."""
        return self.stop == MemoryStop.SLO and self.failed == 0

    @classmethod
    def from_json(cls, data: dict) -> HeapStep:
        return cls(**dict(data, stop=MemoryStop(data["stop"]) if data.get("stop") else None))


class Limit(StrEnum):
    """The "physical limit" a capacity is compared with."""
    POINT_SELECT = "point_select"  # the database's measured point-select rate
    OFFERED = "offered"  # every offered request answered at the ideal latency: the highest offered rate


def step_label(kind: str, value: float) -> str:
    """A load step as every table and sentence writes it: "200/s", "150 VUs", "search from 500/s", "300/s (cost)"."""
    if kind in (LoadKind.SOAK, LoadKind.SCALE_OUT) and not value:
        return f"{SOAK_SHARE * 100:g} % of capacity ({kind})"
    return {LoadKind.OPEN: f"{value:g}/s", LoadKind.CLOSED: f"{value:g} VUs", LoadKind.COST: f"{value:g}/s (cost)",
            LoadKind.PROFILE: f"{value:g}/s (profile)", LoadKind.SOAK: f"{value:g}/s (soak)",
            LoadKind.SCALE_OUT: f"{value:g}/s, then twice it (scale-out)"}.get(
        kind, f"search from {value:g}/s")


@dataclass(frozen=True)
class Variant:
    """An app configuration a scenario is measured under: the app is (re)started with these properties for it."""
    name: str  # shown beside the model, "worker (article-small)"; "" = the app as configured
    props: tuple[tuple[str, str], ...] = ()
    models: tuple[str, ...] = MODELS  # the models measured under it
    script: str | None = None  # instead of the scenario's script (the cache scenario's uncached reference)
    ideal_latency_s: float | None = None  # with its own script: that script's ideal latency
    redis: bool = False  # the app gets the bench's Redis as its remote cache tier (quarkus.redis.hosts)
    k6_env: tuple[tuple[str, str], ...] = ()  # the script's own variables under this variant (HOLD_MS, CPU, OFFLOAD)
    opt_in: bool = False  # measured only when --variants names it
    # the Connector/J version the app is packaged with (run/provision/drivers.py); None: as shipped
    driver: str | None = None
    slo_p99_ms: float | None = None  # the SLO's p99 under this variant, where it is not the scenario's (hold's 1 s)
    # its loads per preset ((preset, loads as --loads writes them), ...) where not the scenario's: a soak's rate is
    # the case's own
    preset_loads: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class MemoryCase:
    """A fixed load that a memory search (--heap-search) offers a fresh, warmed app at ever smaller heaps, per model:
    the smallest heap at which the model still holds it."""
    load: str  # one load as --loads writes it: "vus:1000" (closed model), "500" (requests/s)
    variant: str = ""  # the scenario's variant it runs under (hold: "10s")
    warmup_variant: str | None = None  # warm up under this variant instead (hold: 1 s holds, many requests)
    warmup: str | None = None  # warm up at this load instead (the aggregation: 100/s, not 1,000 users at once)
    held_bytes: bool = False  # also measure the heap per held request at this load (the requests wait, unanswered)
    # in the preset's memory search without --scenarios (with --scenarios: every case of the scenarios named)
    selected: bool = True

    @property
    def step(self) -> Load:
        """Its one load: "vus:1000" -> 1,000 closed-model VUs, "500" -> 500 requests/s."""
        return one_load(self.load)

    @property
    def warmup_step(self) -> Load:
        return one_load(self.warmup or self.load)


def one_load(text: str) -> Load:
    """One closed ("vus:N") or open ("N", requests/s) load."""
    kind, _, value = text.rpartition(":")
    return Load(LoadKind.CLOSED if kind == "vus" else LoadKind.OPEN, float(value))


@dataclass(frozen=True)
class InPreset:
    """A scenario in a preset (cli.PRESETS): its loads, its variants, and whether it runs without --scenarios."""
    loads: str  # as --loads writes them: "search:500", "vus:50,vus:100", "100,200"
    variants: tuple[str, ...] | None = None  # None: every variant but the opt-in ones
    selected: bool = True
    memory: tuple[MemoryCase, ...] = ()  # its memory search's loads in this preset (--heap-search)


@dataclass(frozen=True)
class Probe:
    """The smoke test's request to a scenario's endpoint on each model before any load: a 200 whose body has expect."""
    method: str
    path: str  # "{model}" is the model's path segment
    expect: str


@dataclass(frozen=True)
class Scenario:
    """Everything about one scenario, in its module under scenarios/: what k6 runs, what the SLO is, how the presets
    load it, how the smoke test probes it and how the app is configured for it (its section of the report, if it has one
    of its own: report/views/)."""
    name: str
    script: str
    slo_p99_ms: float
    limit: Limit
    quick: InPreset
    default: InPreset
    probes: tuple[Probe, ...]
    # What one request takes when nothing queues, where known: a closed model's throughput is compared with VUs / it.
    ideal_latency_s: float | None = None
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
    # Its requests insert rows into the reports table, emptied before each run so that every run starts alike.
    inserts_reports: bool = False
    # A fresh app per model, the models one after the other: where threads and RSS are the result, a model must not
    # inherit the threads and heap another model left behind (their interleaving is given up for it).
    app_per_model: bool = False
    # Warm up at this load (as MemoryCase.load writes it) instead of a search's first rate or the scenario's lowest
    # load: where that would overload a model before its first run (hold's 1,000 held connections), or where a faster
    # one warms the JIT sooner. C2 compiles a method after some 10,000 calls: at twice the rate, in half the seconds.
    warmup_load: str | None = None
    # The worker model's, where warmup_load would starve its pool (the aggregation's 300/s: 180 in flight)
    worker_warmup_load: str | None = None
    # The warm-up curve's load on a fresh app (closed model), where this scenario can be that load.
    curve_vus: int | None = None
    # The report's differences compare the models under each variant apart, not the variants with each other.
    compare_within_variant: bool = False
    # Its loads are soaks (LoadKind.SOAK): one case (variant) at a time, each model in an app of its own, for
    # --soak-minutes.
    soaks: bool = False
    # Its load is a scale-out (LoadKind.SCALE_OUT): one model per runtime, on replicas of this many CPUs, each a pod
    # of its own (config.POD_MEMORY_MB) behind HAProxy; the search before it runs on the first replica.
    scale_out_cpus: float | None = None

    @property
    def held_load(self) -> LoadKind | None:
        """The kind of load held at one rate that is this scenario's own (a soak, a scale-out), if it has one."""
        return LoadKind.SOAK if self.soaks else LoadKind.SCALE_OUT if self.scale_out_cpus else None

    def warmup_for(self, model: str) -> Load | None:
        """A model's own warm-up load, if the scenario sets one."""
        own = self.worker_warmup_load if model == WORKER and self.worker_warmup_load else self.warmup_load
        return one_load(own) if own is not None else None

    def in_preset(self, preset: str) -> InPreset:
        return {"quick": self.quick, "default": self.default}[preset]


# CPU per request means something only when the app is busy: below half a core, background work (JIT, GC, the
# sampler's own scrapes) dominates and the figure grows as the load falls.
SIZE = re.compile(r"(\d+)([mg])", re.I)


def size_mb(text: str) -> int:
    """A heap or memory limit as -Xmx writes it, in MB: "64m" -> 64, "1g" -> 1024. ValueError for anything else."""
    m = SIZE.fullmatch(text.strip())
    if not m or int(m.group(1)) == 0:
        raise ValueError(f"{text!r} is not a size: a whole number of megabytes or gigabytes, 64m or 1g")
    return int(m.group(1)) * (1024 if m.group(2).lower() == "g" else 1)


def heap_label(mb: float) -> str:
    """How a runtime's name writes its heap: 64 -> "64m", 1024 -> "1g"."""
    mb = int(mb)
    return f"{mb // 1024}g" if mb % 1024 == 0 else f"{mb}m"


# The kinds of runtime (run/provision/runtimes.RUNTIMES, and an app started elsewhere, --target): a recorded name
# begins with one of them.
RUNTIME_KINDS = ("jvm", "jvm-aot", "native", "container-jvm", "container-native", "target")


@dataclass(frozen=True)
class Jdk:
    """The JDK a runtime runs on (--jdk): its feature version, and its home where one was given (None: bench/jdk's)."""
    version: int
    home: str | None = None


@dataclass(frozen=True)
class Build:
    """Another build a runtime runs (--builds NAME=PATH [OPTIONS]): its packaged app directory or executable, and the
    options its process gets."""
    name: str
    path: str
    options: tuple[str, ...] = ()

    @property
    def spec(self) -> str:
        """Its path and options as one shell-quoted line, as results.json records it."""
        return shlex.join([self.path, *self.options])


@dataclass(frozen=True)
class RuntimeSpec:
    """One runtime of a bench run: a kind of runtime, and where --jdk, --heap, a pod size of --app-cpus or --builds
    made it a runtime of its own, what it changes. Its name is derived from these, and results.csv, results.json and
    the report know a runtime by it alone."""
    base: str  # one of RUNTIME_KINDS
    jdk: Jdk | None = None
    heap_mb: int | None = None  # its maximum heap (--heap, a memory search's step)
    cpus: float | None = None  # its pod's CPUs, where --app-cpus lists sizes (None: the run's one budget, if any)
    memory_mb: int | None = None  # its pod's memory limit, beside its pod's CPUs
    build: Build | None = None
    cpuset: tuple[int, ...] | None = None  # the CPUs its app may run on (None: any)

    @property
    def name(self) -> str:
        """jvm, jvm-jdk21, jvm-aot-jdk25-heap64m, native-cpu0.25, jvm-before."""
        return "".join([self.base, f"-jdk{self.jdk.version}" if self.jdk else "",
                        f"-heap{heap_label(self.heap_mb)}" if self.heap_mb else "",
                        f"-cpu{self.cpus:g}" if self.cpus is not None else "",
                        f"-{self.build.name}" if self.build else ""])

    @classmethod
    def recorded(cls, name: str) -> RuntimeSpec:
        """The runtime a name recorded in results.csv or results.json stands for, as far as a name tells: no JDK's
        home, pod memory or build path. For recorded data only: a run's own runtimes are its Config's records. A name
        of no known kind is a runtime of that kind."""
        base = max((kind for kind in RUNTIME_KINDS if name == kind or name.startswith(kind + "-")), key=len,
                   default=name)
        spec = cls(base)
        rest = name[len(base):]
        for field, pattern, value in (("jdk", r"-jdk(\d+)(?=-|$)", lambda version: Jdk(int(version))),
                                      ("heap_mb", r"-heap(\d+[mg])(?=-|$)", size_mb),
                                      ("cpus", r"-cpu(\d+(?:\.\d+)?)(?=-|$)", float)):
            m = re.match(pattern, rest)
            if m:
                spec, rest = replace(spec, **{field: value(m.group(1))}), rest[m.end():]
        return replace(spec, build=Build(rest[1:], "")) if rest else spec


def cpu_list(cpus: tuple[int, ...]) -> str:
    """CPUs as taskset and cpuset write them: (0, 1, 2, 5) -> "0-2,5"."""
    runs: list[list[int]] = []
    for cpu in sorted(cpus):
        if runs and cpu == runs[-1][-1] + 1:
            runs[-1].append(cpu)
        else:
            runs.append([cpu])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def parse_cpu_list(text: str) -> tuple[int, ...]:
    """A taskset list ("1", "4-7", "0,2-3") as sorted CPU numbers; ValueError for anything else."""
    cpus: set[int] = set()
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+)(?:-(\d+))?\s*", part)
        if not m or (m.group(2) and int(m.group(2)) < int(m.group(1))):
            raise ValueError(f"{text!r} is not a list of CPUs such as 1, 4-7 or 0,2-3")
        cpus.update(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
    return tuple(sorted(cpus))


@dataclass(frozen=True)
class CpuSplit:
    """Which CPUs the app and its database run on, and which the rig: k6, the downstream service, Redis, HAProxy and
    the bench itself. The Quarkus perf lab gives each tier CPUs of its own: on shared CPUs, the CPU a model frees at its
    knee goes to k6, and every model meets the same ceiling, the machine's. The database shares the app's CPUs, in the
    part its quota leaves: beside k6 on one CPU, each waited for the other, and p99 broke at 60 % of the app's budget."""
    app: tuple[int, ...]
    rig: tuple[int, ...]

    def describe(self) -> str:
        return (f"the app (within its quota) and the database on CPU {cpu_list(self.app)}; k6, the downstream service "
                f"and the bench on CPU {cpu_list(self.rig)}")


def cpu_split(machine_cpus: int, app_cpus: float | None, given: str | None) -> CpuSplit | None:
    """--app-cpuset: the app's CPUs as given (a taskset list), none ("none": every process may run on every CPU), or
    by default the last ceil(N) CPUs of a budgeted app (N: its largest budget) where the machine has more, the rest
    the rig's. ValueError in one line where the list leaves the app or the rig no CPU."""
    if given == "none" or (given is None and (app_cpus is None or math.ceil(app_cpus) >= machine_cpus)):
        return None
    app = parse_cpu_list(given) if given is not None else \
        tuple(range(machine_cpus - math.ceil(app_cpus), machine_cpus))
    rig = tuple(c for c in range(machine_cpus) if c not in app)
    if app[-1] >= machine_cpus or not rig:
        raise ValueError(f"{given}: CPUs of this machine's 0-{machine_cpus - 1}, leaving at least one to k6 and the "
                         f"database")
    return CpuSplit(app, rig)


CPU_PER_REQUEST_MIN_APP_CPU_PCT = 50.0


def app_busy(app_cpu_pct: float | None, app_cpus: float | None = None) -> bool:
    """Whether the app's average CPU makes a CPU-per-request figure meaningful (NaN and None: not sampled): half a
    core, or half its CPU budget where that is less (app_cpus, --app-cpus)."""
    budget = min(1.0, app_cpus) if app_cpus is not None and app_cpus == app_cpus else 1.0
    return app_cpu_pct is not None and app_cpu_pct >= CPU_PER_REQUEST_MIN_APP_CPU_PCT * budget
# Failed requests plus iterations k6 could not start in time, as a share of the offered ones, that an SLO allows.
SLO_MAX_BAD_SHARE = 0.001
# A measured run's first seconds are load but not measurement: k6 opens its connections and the app's JIT compiles
# what accepts them (bench/README.md, "The plan and its steps").
SETTLE_S = 2.0
# A soak settles longer: its app warmed outside the CPU budget still compiles within it. At 600/s the per-second p99 fell
# from 181 ms to 20 ms over its first 10 s here; counted, that start reads as the soak's drift.
SOAK_SETTLE_S = 10.0


def settle_s(kind: str) -> float:
    """The seconds of a run's load before its measured part."""
    return SOAK_SETTLE_S if kind == LoadKind.SOAK else SETTLE_S
AGGREGATE_IDEAL_S = 0.6  # base 100 ms, then detail 300 ms and extra 500 ms in parallel
# The aggregation's SLO: p99 within 1 s, 400 ms above the ideal, above the band a warm app's p99 already reaches
# within 0.5 CPU (Serial GC pauses, quota waits): bench/README.md, "The aggregation's SLO".
AGGREGATE_SLO_P99_MS = 1000.0


@dataclass(frozen=True)
class Load:
    kind: LoadKind
    value: float

    @property
    def label(self) -> str:
        return step_label(self.kind, self.value)


TWIN_SUFFIX = " twin"  # the A/A twin's model label: "virtual twin"


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
    event: str = ""  # a profiled run's async-profiler event (LoadKind.PROFILE): "cpu" or "alloc"
    # a cost run on the twin: a second app of the same build, started apart, for the A/A control (results/cost.py)
    twin: bool = False

    @property
    def label(self) -> str:
        """The model as the results name it: the twin's runs apart from its model's ("virtual twin")."""
        return f"{self.model}{TWIN_SUFFIX}" if self.twin else self.model

    @property
    def tag(self) -> str:
        variant = f"-{self.variant}" if self.variant else ""
        event = f"-{self.event}" if self.event else ""
        return (f"{self.runtime}-{self.scenario}-{self.label.replace(' ', '-')}{variant}-{self.load.kind}"
                f"{self.load.value:g}{event}-r{self.repetition}")


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
    jit_ms_per_s: float | None = None  # the app's JIT compilers' time per second (a JVM's; None: not read)
    slo_p99_ms: float | None = None  # the SLO's p99 bound the run was measured against (its scenario's or variant's)
    # Failed requests over the whole k6 run, its settling seconds included (model.SETTLE_S): the span of k6's own
    # counts, such as checks_failed. None: not recorded (errors then).
    failed_all: int | None = None
    downstream_waiting_max: float | None = None  # downstream calls waiting for a REST client connection (HTTP/1.1)
    app_cpus: float | None = None  # the CPU budget the app ran within (--app-cpus); None: the whole machine
    bench_cpu_pct: float | None = None  # bench/run's own process (the sampler among it)
    # Other processes' CPU (% of one core): the machine's, less the app's, k6's, the database's, the downstream
    # service's, the bench's own, the kernel's interrupt work and the hypervisor's steal. Above the run's limit the
    # step is measured again (run/measure/steps.py).
    other_cpu_pct: float | None = None
    steal_cpu_pct: float | None = None  # what the hypervisor kept from this virtual machine (% of one core)
    # The rig's CPUs (k6, the database, the services, the bench; --app-cpuset): how many, and how busy they were, all
    # of them together = 100. None: no CPU split, every process on every CPU.
    rig_cpus: int | None = None
    rig_cpu_pct: float | None = None
    # The app's CPUs, which its database shares: how many, and how busy they were, all of them together = 100.
    app_set_cpus: int | None = None
    app_set_cpu_pct: float | None = None
    attempt: int = 1  # the measurement of this step it is: 2 after a breach to confirm or other processes' load
    remeasured: str | None = None  # why this step was measured again (attempt 2 and later)
    superseded: bool = False  # a later attempt at the same step replaced this one: kept, but not read as the step
    heap_mb: float | None = None  # the app's maximum heap where the bench set it (--heap, a memory search's step)
    memory_search: bool = False  # a step of a memory search (--heap-search): the report's Memory section reads it
    oom: str | None = None  # the JVM's OutOfMemoryError line: the app ran out of memory during the run, which ended it
    profile: str | None = None  # a profiled run's collapsed stacks, relative to the results directory (--profile)
    twin: bool = False  # a cost run on the A/A twin (PlannedRun.twin); its model is labelled "virtual twin"
    # The CPU quota's throttling over the measured part (the cgroup's cpu.stat): the share of its periods that ended in
    # a wait for the next, in %, and the time waited, ms per second. None: no quota of ours (a container, --target).
    throttled_pct: float | None = None
    throttled_ms_per_s: float | None = None
