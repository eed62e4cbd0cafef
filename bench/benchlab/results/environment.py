"""results.json's environment: one typed record the run fills in as it learns each fact, table.write writes and
table.read reads back (Environment.from_json), also from older benches. Each fact is declared once (fact()): whether
the settings table shows it, the Config field it copies, how it is read back, what its absence means."""
from __future__ import annotations

import copy
import dataclasses
from typing import Any, Callable

from benchlab.model import HeapSearchEnd, HeapStep, MemoryStop, Stop
from benchlab.results.steady import Window

# 1: results.json without the key; 2: the key written, the searches typed (later additions default to none: memory
# searches, heap per held request, --heap, OutOfMemoryErrors); 3: warm-ups until steady, the CPU budget, steps
# measured again.
SCHEMA_VERSION = 3


class _Unset:
    """A fact the run has not (yet) learnt: left out of results.json, unlike a fact that is None (no git commit)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


def fact(*, setting: bool = False, config: str | None = None, read: Callable | None = None,
         missing: Any = UNSET) -> Any:
    """A fact of the record. setting: a row of the report's settings table; config: the Config attribute it copies
    (Environment.copy_settings); read: JSON -> the fact's type; missing: its value when a results.json lacks it (an
    older bench's, or a run that stopped before it learnt it), UNSET where the report does not read it."""
    return dataclasses.field(default=UNSET, metadata=dict(setting=setting, config=config, read=read, missing=missing))


def json_value(value, recorded: bool = False):
    """A fact as JSON holds it: records as their JSON (recorded: only what their results.json held), enums as their
    values (a StrEnum already is a str)."""
    if isinstance(value, Facts):
        return value.to_json(recorded)
    if dataclasses.is_dataclass(value):
        return {f.name: json_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: json_value(v, recorded) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v, recorded) for v in value]
    return value


class Facts:
    """A record of facts learnt one by one: set, appended to, read with a default, written without the unset ones,
    and read back from what it wrote."""
    __slots__ = ("_read",)  # the names a record read back from JSON had there (recorded())

    def update(self, **facts) -> None:
        """Several facts at once; a name that is no field is an error (slots), as a typo should be."""
        for name, value in facts.items():
            setattr(self, name, value)

    def append(self, name: str, item) -> None:
        """One more item of a fact that is a list."""
        if getattr(self, name) is UNSET:
            setattr(self, name, [])
        getattr(self, name).append(item)

    def get(self, name: str, default=None):
        value = getattr(self, name)
        return default if value is UNSET else value

    def to_json(self, recorded: bool = False) -> dict:
        """The facts learnt; recorded: of a record read back, only those its results.json held (not the defaults
        filled in for what it lacked)."""
        read = getattr(self, "_read", None) if recorded else None
        return {f.name: json_value(value, recorded) for f in dataclasses.fields(self)
                if (value := getattr(self, f.name)) is not UNSET and (read is None or f.name in read)}

    @classmethod
    def from_json(cls, data: dict, extra: str | None = None, legacy: bool = False):
        """The record of what to_json wrote, each fact in its type and a missing one set to what its absence means. An
        unknown key goes into the field `extra` where there is one; else it is left out of a legacy results.json, and
        is an error from a newer one, which should not render as if this bench understood it."""
        record = cls()
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = {k: v for k, v in data.items() if k not in names}
        if unknown and extra is None and not legacy:
            raise ValueError(f"{cls.__name__}: unknown facts {sorted(unknown)}")
        if extra is None:
            unknown = {}
        for f in dataclasses.fields(cls):
            if f.name == extra:
                setattr(record, f.name, unknown)
            elif f.name in data:
                read = f.metadata.get("read")
                setattr(record, f.name, read(data[f.name]) if read and data[f.name] is not None else data[f.name])
            elif f.metadata.get("missing", UNSET) is not UNSET:
                setattr(record, f.name, copy.copy(f.metadata["missing"]))
        record._read = frozenset(data) | ({extra} if unknown else set())
        return record

    def recorded(self) -> frozenset[str]:
        """The facts results.json holds: as read back (not the defaults filled in for what it lacks), or as learnt."""
        try:
            return self._read
        except AttributeError:
            return frozenset(f.name for f in dataclasses.fields(self) if getattr(self, f.name) is not UNSET)


@dataclasses.dataclass(frozen=True)
class SearchRecord:
    """One capacity search (run/measure/steps.py): its model and repetition, why it stopped, and its answer."""
    runtime: str
    scenario: str
    model: str
    repetition: int
    stop: Stop
    held: float | None  # the highest rate that held, below the lowest that broke
    broke: float | None
    steps: int
    variant: str = ""
    ceiling: float | None = None  # the rate it could not be measured beyond (the database's point-select rate)

    @classmethod
    def from_json(cls, data: dict) -> SearchRecord:
        return cls(**dict(data, stop=Stop(data["stop"])))


@dataclasses.dataclass(frozen=True)
class SoakRecord:
    """One model's soak (run/measure/soak.py): its run, and what the sampler read each second of it (results/soak.py
    reads the drift from them)."""
    runtime: str
    scenario: str
    variant: str
    model: str
    tag: str  # the run's row in results.csv and its seconds in windows.csv
    rate: float  # requests/s offered
    minutes: float
    series: dict[str, list]  # column (sampler.py's) -> one value per second (None: not read), "at" the epoch second
    nmt: dict[str, list[float]] | None = None  # NMT area -> [committed MB at the end, its change since the start]
    nmt_note: str = ""  # why there is no NMT: an executable built without it, a container, jcmd failed

    @classmethod
    def from_json(cls, data: dict) -> SoakRecord:
        return cls(**data)


@dataclasses.dataclass(frozen=True)
class ScaleOutRecord:
    """A runtime's scale-out (run/measure/scale_out.py): one replica at a share of its capacity behind HAProxy, then the
    load stepped up and a second replica started cold, joining when its readiness probe passes. Seconds count from the
    run's start (k6's first request); results/scale_out.py reads the verdicts from them."""
    runtime: str
    model: str  # the runtime's cheapest for JWT + MySQL in this run, else the scenario's first model
    tag: str
    cpus: float  # each replica's CPU limit
    memory_mb: int | None  # and its memory limit
    capacity: float | None  # requests/s one replica held at the SLO, its search's (None: the rate was given)
    rate_before: float  # requests/s offered before the step
    rate_after: float  # and from the step on
    slo_p99_ms: float
    step_s: float  # when the load stepped up and the second replica was started
    ready_s: float | None  # when HAProxy first found the second replica ready (None: never within the run)
    seconds: int  # the run's length
    # "replica 1", "replica 2" -> 2xx answers HAProxy counted from each, one value per second from the start
    served: dict[str, list[int]]
    # k6's requests in 5 s windows from the start: start_s, requests, failed, late (answered over the SLO), p99_ms
    windows: list[dict]
    cpu_pct: dict[str, float]  # mean % of one core over the run: "k6", "haproxy", "db", "replica 1", "replica 2"
    machine_cpu_pct: float  # the whole machine's, % of all its cores

    @classmethod
    def from_json(cls, data: dict) -> ScaleOutRecord:
        return cls(**data)


@dataclasses.dataclass(frozen=True)
class HeapSearchRecord:
    """One memory search (run/measure/memory.py): a model's smallest heap that held a memory case, the largest below it
    that did not, why that one did not (its stop), why the search ended, and every step."""
    runtime: str
    scenario: str
    variant: str
    load: str  # the case's load as the report writes it: "1000 VUs"
    model: str
    end: HeapSearchEnd
    held_mb: int | None  # the smallest heap that held (None: none did)
    broke_mb: int | None  # the largest heap below it that did not (None: none below it was tried)
    stop: MemoryStop | None  # why broke_mb did not hold (where none held: why the largest heap tried did not)
    detail: str  # what names that stop: the JVM's message, the GC share, the resource that saturated
    steps: list[HeapStep] = dataclasses.field(default_factory=list)
    # the largest heap's p99 where it was over the SLO, every request answered: the smaller heaps were judged against it
    reference_p99_ms: float | None = None

    @classmethod
    def from_json(cls, data: dict) -> HeapSearchRecord:
        return cls(**dict(data, end=HeapSearchEnd(data["end"]), stop=MemoryStop(data["stop"]) if data["stop"] else None,
                          steps=[HeapStep.from_json(s) for s in data.get("steps", [])]))


@dataclasses.dataclass(frozen=True)
class HeldBytesRecord:
    """The heap per held request of one model (run/measure/memory.py): the heap in use after a full GC (jcmd GC.run,
    GC.heap_info) with `held` requests held, minus the same on the idle app, divided by held; beside it the threads'
    native memory (Native Memory Tracking's Thread section: stacks of platform threads) and the RSS, idle and held."""
    runtime: str
    scenario: str
    variant: str
    model: str
    connections: int  # the requests offered at once (closed-model VUs)
    held: int  # connections open to the app when the held snapshot was taken
    heap_max_mb: float | None
    heap_idle_mb: float | None
    heap_held_mb: float | None
    threads_idle: int | None
    threads_held: int | None
    thread_native_idle_mb: float | None  # NMT's Thread committed (None where NMT was not read: then RSS only)
    thread_native_held_mb: float | None
    rss_idle_mb: float | None
    rss_held_mb: float | None

    @property
    def heap_bytes_per_held(self) -> float | None:
        if self.heap_idle_mb is None or self.heap_held_mb is None or not self.held:
            return None
        return (self.heap_held_mb - self.heap_idle_mb) * 2**20 / self.held

    @property
    def native_bytes_per_held(self) -> float | None:
        """The threads' native memory per held request (NMT), else the RSS's growth per held request."""
        idle, held = ((self.thread_native_idle_mb, self.thread_native_held_mb)
                      if self.thread_native_idle_mb is not None else (self.rss_idle_mb, self.rss_held_mb))
        if idle is None or held is None or not self.held:
            return None
        return (held - idle) * 2**20 / self.held

    @classmethod
    def from_json(cls, data: dict) -> HeldBytesRecord:
        return cls(**data)


@dataclasses.dataclass(slots=True)
class RuntimeInfo(Facts):
    """One runtime's facts: how it was prepared, its command and limits, and its start-up. Written in this order,
    prepared's facts flat and first."""
    prepared: dict = fact(missing={})  # what Runtime.prepare reports: the JVM's ergonomics, the image it built
    limits: dict | None = fact()  # a container's CPU and memory limits (None: not a container)
    java_home: str = fact()
    first_request_s: float = fact()
    probe: str = fact()  # where the sampler reads the app's process figures
    quarkus_started_s: float | None = fact()
    command: str = fact(missing="")
    start_warnings: list[str] = fact(missing=[])
    rss_idle_mb: float | None = fact(missing=None)
    cold_starts: list[dict] = fact(missing=[])  # first_request_s, quarkus_started_s and rss_mb of each start
    warmup_curve: dict = fact(missing=None)  # the load and the successful requests per second

    def to_json(self, recorded: bool = False) -> dict:
        facts = Facts.to_json(self, recorded)
        return dict(facts.pop("prepared", {}), **facts)

    @classmethod
    def from_json(cls, data: dict, extra: str | None = "prepared") -> RuntimeInfo:
        return super(RuntimeInfo, cls).from_json(data, extra)


@dataclasses.dataclass(frozen=True)
class WarmupRecord:
    """One model's warm-up on one app (run/measure/warmup.py): until steady (results/steady.py) or the cap."""
    runtime: str
    scenario: str
    variant: str
    model: str
    load: str  # as the tables write it: "500/s", "100 VUs"
    label: str  # "warmup": the block's; "rewarm<n>": after the n-th restart of a starved app
    seconds: float  # from the first answer to the end of the last window
    requests: int
    steady: bool  # False: the cap came first
    budget_lifted: bool  # it ran without the app's CPU budget (which every measured step has)
    windows: tuple[Window, ...] = ()

    @classmethod
    def from_json(cls, data: dict) -> WarmupRecord:
        return cls(**dict(data, windows=tuple(Window(**w) for w in data.get("windows", ()))))


def warmup_records(data: list) -> list[WarmupRecord]:
    return [WarmupRecord.from_json(w) for w in data]


def runtime_infos(data: dict) -> dict[str, RuntimeInfo]:
    return {name: RuntimeInfo.from_json(info) for name, info in data.items()}


def search_records(data: list) -> list[SearchRecord]:
    return [SearchRecord.from_json(s) for s in data]


def soak_records(data: list) -> list[SoakRecord]:
    return [SoakRecord.from_json(s) for s in data]


def scale_out_records(data: list) -> list[ScaleOutRecord]:
    return [ScaleOutRecord.from_json(s) for s in data]


def heap_search_records(data: list) -> list[HeapSearchRecord]:
    return [HeapSearchRecord.from_json(s) for s in data]


def held_bytes_records(data: list) -> list[HeldBytesRecord]:
    return [HeldBytesRecord.from_json(s) for s in data]


@dataclasses.dataclass(slots=True)
class Environment(Facts):
    """Declared in the order of the report's settings table (the facts with setting=True); the others where they
    belong. Filled in by run/provision/machine.environment (the machine and the software), copy_settings (the
    command line's settings), run/runner.py (the plan, what it prepared, what it met) and run/measure/steps.py."""
    schema_version: int = dataclasses.field(default=SCHEMA_VERSION, metadata=fact(missing=1).metadata)
    command_line: str = fact(setting=True, config="command_line", missing=None)
    preset: str = fact(setting=True, config="preset")
    started: str = fact()
    planned_seconds: int = fact(setting=True, missing=None)
    planned_seconds_at_most: int = fact(setting=True, missing=None)
    load_seconds: int = fact(setting=True, missing=None)
    restarts: int = fact(setting=True)  # apps restarted after a starved run
    skipped: list[str] = fact(setting=True)  # ladder steps above a model's first SLO breach
    cost_rates_moved: list[str] = fact()  # a block's cost rates, moved below the knees its search found
    verdict_runs_added: list[str] = fact()  # a block's undecided cost verdicts, and the repetitions added to them
    searches_added: list[str] = fact()  # pods whose searches disagreed, each searched once more (results/slo.py)
    out_of_memory: list[str] = fact(setting=True)  # runs an OutOfMemoryError ended (the app restarted after each)
    wall_seconds: int = fact(setting=True, missing=None)
    duration_s: float = fact(setting=True, config="duration")
    warmup_s: float = fact(setting=True, config="warmup")
    warmup_others_s: float = fact(setting=True, config="warmup_others")
    repeat: int = fact(setting=True, config="repeat")
    cost_repeat: int = fact(setting=True, config="cost_repeat")
    max_interference: float = fact(setting=True, config="max_interference")  # % of one core
    loads: dict[str, list[str]] = fact(setting=True, config="load_labels")
    users: int = fact(setting=True, config="users")
    timeout_s: float = fact(setting=True, config="timeout")
    jwt: str = fact(setting=True, config="jwt")
    app_cpus: float | None = fact(setting=True, config="app_cpus", missing=None)  # the CPU budget asked (--app-cpus)
    app_memory_mb: int | None = fact(setting=True, config="app_memory_mb", missing=None)  # the pod's memory limit
    pod_sizes: dict[str, str] = fact(setting=True, config="size_labels", missing={})  # --app-cpus 0.25,0.5
    app_cpu_budget: str | None = fact(setting=True, missing=None)  # how it was applied, or why it could not be
    target_load: float = fact(config="target_load", missing=5000.0)  # the load the decision table sizes replicas for
    # USD per core-hour and per GB-hour, the decision table's monthly bill (--price-core-hour, --price-gb-hour)
    price_core_hour: float | None = fact(setting=True, config="price_core_hour", missing=None)
    price_gb_hour: float | None = fact(setting=True, config="price_gb_hour", missing=None)
    database: str = fact(setting=True, config="database")
    target: str | None = fact(setting=True, config="target")
    pinning: str = fact(setting=True, missing=None)  # which CPUs the app and the rig ran on (--app-cpuset)
    cores: int = fact(setting=True, missing=1)
    cpu_model: str | None = fact(setting=True)
    memory_gib: float = fact(setting=True)
    jdk: str = fact(setting=True)
    mysql_driver: dict[str, str] = fact(setting=True)  # packaged app -> Connector/J version
    gc: str = fact(setting=True)
    quarkus: str = fact(setting=True)
    k6: str = fact(setting=True)
    git_commit: str | None = fact(setting=True)
    load_average_at_start: tuple[float, float, float] = fact(setting=True, read=tuple)
    open_files_limit: int = fact(setting=True)
    cold_starts: int = fact(setting=True, config="cold_starts")
    cold_start_budget_s: float | None = fact(setting=True, config="cold_start_budget", missing=None)
    warmup_curve_s: float = fact(setting=True, config="warmup_curve")
    planned_start_up_seconds: int = fact(setting=True)
    runtime_info: dict[str, RuntimeInfo] = fact(setting=True, read=runtime_infos, missing={})
    heaps: dict[str, str] = fact(setting=True, config="heap_labels")  # --heap: each heap runtime's maximum heap
    memory_cases: list[str] = fact(setting=True, config="memory_labels")  # the memory search's (--heap-search)
    planned_memory_seconds: int = fact(setting=True)
    memory_seconds: int = fact(setting=True)
    flamegraphs: str = fact(setting=True)
    profiles: str = fact(setting=True)  # --profile: the profiled runs' event, interval and files
    builds: dict[str, str] = fact(setting=True, config="build_specs")  # --builds: runtime -> its path and options
    failures: list[str] = fact(setting=True, missing=[])
    # not in the settings table
    os: str = fact()
    limits: dict[str, str] = fact(missing={})  # "what it bounds (property)" -> value in application.properties
    jdbc_pool_max: str = fact()
    scenarios: tuple[str, ...] = fact(config="scenarios", read=tuple)
    variants: dict[str, list[str]] = fact(config="variants")
    models: tuple[str, ...] = fact(config="models", read=tuple)
    runtimes: tuple[str, ...] = fact(config="runtime_names", read=tuple)
    flamegraph: str | None = fact(config="flamegraph")
    native_executables: list[str] = fact(missing=[])
    point_select: dict = fact(missing=None)  # the database's point-select rate: qps and how it was measured
    searches: list[SearchRecord] = fact(read=search_records, missing=[])
    warmups: list[WarmupRecord] = fact(read=warmup_records, missing=[])
    heap_searches: list[HeapSearchRecord] = fact(read=heap_search_records, missing=[])
    soaks: list[SoakRecord] = fact(read=soak_records, missing=[])
    scale_outs: list[ScaleOutRecord] = fact(read=scale_out_records, missing=[])
    held_bytes: list[HeldBytesRecord] = fact(read=held_bytes_records, missing=[])
    pinned_recording: str = fact()
    complete: bool = fact(missing=False)
    app_budget_cpus: float | None = fact(missing=None)  # the CPU budget the app ran within (None: none applied)
    app_processors: int | None = fact(missing=None)  # the processors the app's JVM was told it has, with a budget

    def copy_settings(self, config) -> None:
        """The settings of the command line (a Config), each under its name here."""
        self.update(**{f.name: getattr(config, f.metadata["config"]) for f in dataclasses.fields(self)
                       if f.metadata["config"]})

    def settings(self) -> list[tuple[str, Any]]:
        """The report's settings table: (name, value) of each setting results.json recorded, in declared order."""
        recorded = self.recorded()
        return [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self)
                if f.metadata["setting"] and f.name in recorded]

    @classmethod
    def from_json(cls, data: dict, extra: str | None = None) -> Environment:
        version = data.get("schema_version", 1)
        if version > SCHEMA_VERSION:
            raise ValueError(f"results.json has schema version {version}; this bench reads up to {SCHEMA_VERSION}")
        return super(Environment, cls).from_json(data, extra, legacy=version == 1)
