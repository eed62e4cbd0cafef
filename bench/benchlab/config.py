"""The configuration of one bench/run, built once from the command line (cli.parse_args) and read everywhere else, and
the presets whose defaults fill in the options not given."""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from benchlab.model import CpuSplit, Load, MemoryCase, RuntimeSpec

# A pod's memory limit where sizes are compared (--app-cpus 0.25,0.5) and none is given: the floor at which the
# container served every model, JWT + MySQL and the aggregation (docs/startup.md, "Memory in containers").
POD_MEMORY_MB = 512
# A pod size's CFS period, unless --app-cpu-period gives one: the kubelet's, so that a pod's knee meets the quota's
# waits a pod meets (one size keeps budget.PERIOD_US, where the knee is the CPU's).
POD_CPU_PERIOD_MS = 100.0
# Capacity searches per pod at least, where sizes are compared: from one search each, three quick runs found a pod's
# capacity up to x3.3 apart (docs/startup.md, "Pod sizes"). Two give an interval; the pods take turns, a block each.
POD_SEARCHES = 2


@dataclass(frozen=True)
class Preset:
    """A preset's defaults for the options not given, each field named as the option's Config field. The scenarios'
    own loads and variants in a preset are their modules' (Scenario.quick, Scenario.default)."""
    users: int
    warmup: float
    warmup_others: float
    duration: float
    repeat: int
    timeout: float
    cooldown: float
    pointselect_seconds: float
    app_cpus: str  # the app's CPU budget (--app-cpus): CPUs, or "none" for the whole machine
    # Interleaved repetitions of the verdict's cost rate (the A/A twin's among them), and seconds per cost run. Runs of
    # the same app scatter by a few percent (steal, other processes): six short runs give an interval 2.4 times
    # narrower than three of twice the length; quick's four of 3 s keep three rates and the twin within its minutes.
    cost_repeat: int
    cost_duration: float
    soak_minutes: float  # a soak's length per model (--soak-minutes)
    # start-up measurements: only where runtimes are compared (cli.compares_runtimes), else none
    cold_starts: int = field(metadata={"compared_only": True})
    # Seconds of cold starts after which a runtime's next one is not begun (the first always is): a jar within 0.25
    # CPU took 25 to 115 s a start here, and three slow ones were a tenth of a pod-size run.
    cold_start_budget: float = field(metadata={"compared_only": True})
    warmup_curve: float = field(metadata={"compared_only": True})
    # the memory search (--heap-search): the smallest heap per model for the scenarios' memory cases in the preset
    heap_search: bool = False

    def defaults(self, runtimes_compared: bool) -> dict:
        """The options this preset fills in, by Config field; the start-up ones only where runtimes are compared."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if runtimes_compared or not f.metadata.get("compared_only")}


PRESETS = {
    # The two core cases, 3 interleaved repetitions of each search for the interval, and the memory search
    # (bench/README.md, "Presets").
    "default": Preset(users=100_000, warmup=120, warmup_others=60, duration=20, repeat=3, timeout=10, cooldown=2, pointselect_seconds=10,
                      app_cpus="0.5", cost_repeat=6, cost_duration=10, soak_minutes=20,
                      cold_starts=5, cold_start_budget=300, warmup_curve=60, heap_search=True),
    # First-time users and CI: the two core cases, one search each, in 18 to 20 minutes here; the articles' other
    # experiments take --scenarios (bench/README.md, "Presets"). Three cold starts within a minute: the runtimes'
    # first answers differ 50-fold.
    "quick": Preset(users=2_000, warmup=60, warmup_others=8, duration=4, repeat=1, timeout=5, cooldown=0.5, pointselect_seconds=3,
                    app_cpus="0.5", cost_repeat=4, cost_duration=3, soak_minutes=3,
                    cold_starts=3, cold_start_budget=60, warmup_curve=60),
}


@dataclass(frozen=True)
class Config:
    command_line: str
    preset: str  # a name in PRESETS
    out: str  # the results directory
    # what runs
    scenarios: tuple[str, ...]
    variants: dict[str, list[str]]  # scenario -> the variants chosen (absent: every one but the opt-in ones)
    models: tuple[str, ...]
    runtimes: tuple[RuntimeSpec, ...]  # in the plan's order; --jdk, --heap, pod sizes and --builds make them
    heap_search: bool  # the memory search of memory_cases
    memory_cases: tuple[tuple[str, MemoryCase], ...]  # (scenario, case) the memory search holds, in order
    load_levels: dict[str, list[Load]]
    duration: float
    warmup: float  # the longest warm-up of a scenario the verdicts are read from: it ends once the app is steady
    warmup_others: float  # the longest warm-up of a scenario measured at fixed points only
    repeat: int
    cost_repeat: int
    cost_duration: float
    soak_minutes: float
    max_interference: float  # other processes' CPU (% of one core) above which a step is measured again
    cooldown: float
    cold_starts: int
    cold_start_budget: float  # seconds of a runtime's cold starts after which no other begins
    warmup_curve: float
    # the app, its services and k6
    users: int
    timeout: float
    max_vus: int | None
    pointselect_seconds: float
    jwt: str
    db_url: str | None
    db_user: str
    db_password: str
    port: int
    k6_dir: str
    rebuild: bool
    jvm_args: tuple[str, ...]
    app_cpus: float | None  # the app's CPU budget, in CPUs (run/provision/budget.py); None: the whole machine or sizes
    app_memory_mb: int | None  # the pod's memory limit beside it (--app-memory), MB; None: none
    app_cpu_period: float  # its quota's period, ms
    target_load: float  # requests/s the report sizes each runtime's replicas for, where runtimes are compared
    # USD per core-hour and per GB-hour (--price-core-hour, --price-gb-hour): the decision table's monthly bill; None:
    # not given, and no cost shown
    price_core_hour: float | None
    price_gb_hour: float | None
    native_exe: str | None
    cpus: str | None
    memory: str | None
    base_image: str | None
    jdk: str | None
    live: bool
    cpu_split: CpuSplit | None  # the app's CPUs and the rig's (--app-cpuset); None: every process on every CPU
    flamegraph: str | None
    profile: bool  # --profile: each cost rate once more per model under async-profiler, CPU and allocation
    target: str | None  # an app started elsewhere: its base URL
    tokens: str | None
    # what bench/run does instead of a run
    report_only: bool
    compare: tuple[str, str] | None
    self_test: bool

    @property
    def load_labels(self) -> dict[str, list[str]]:
        """Each scenario's loads as the report writes them."""
        return {s: [level.label for level in v] for s, v in self.load_levels.items()}

    @property
    def memory_labels(self) -> list[str]:
        """The memory search's cases as the report writes them: "hold at 1000 VUs (10s)"."""
        return [f"{s} at {case.step.label}" + (f" ({case.variant})" if case.variant else "")
                for s, case in self.memory_cases]

    @property
    def runtime_names(self) -> tuple[str, ...]:
        """The runtimes as results.csv and results.json name them."""
        return tuple(spec.name for spec in self.runtimes)

    def runtime(self, name: str) -> RuntimeSpec:
        """The runtime of that name; KeyError where none of this run's has it."""
        return {spec.name: spec for spec in self.runtimes}[name]

    @property
    def heap_labels(self) -> dict[str, str]:
        """--heap: each heap runtime's maximum heap, in MB."""
        return {spec.name: f"{spec.heap_mb} MB" for spec in self.runtimes if spec.heap_mb}

    @property
    def sizes_compared(self) -> bool:
        """--app-cpus as a list of sizes: each runtime a pod of each size."""
        return any(spec.cpus is not None for spec in self.runtimes)

    @property
    def size_labels(self) -> dict[str, str]:
        """--app-cpus as a list: each size runtime's pod, "0.25 CPU, 512 MB"."""
        return {spec.name: f"{spec.cpus:g} CPU" + (f", {spec.memory_mb} MB" if spec.memory_mb else "")
                for spec in self.runtimes if spec.cpus is not None}

    @property
    def build_specs(self) -> dict[str, str]:
        """--builds: each build's runtime -> its path and options, shell-quoted."""
        return {spec.name: spec.build.spec for spec in self.runtimes if spec.build}

    @property
    def takes_turns(self) -> bool:
        """The runtimes take turns, a block each, within each repetition (--jdk, --heap, --builds), instead of one
        after the other: so that no JDK, heap or build runs in one period of the machine."""
        return bool(self.jdk) or any(spec.heap_mb or spec.build for spec in self.runtimes)

    @property
    def pod_searches(self) -> int:
        """Capacity searches per pod, each in a block of its own (0: one-size runs, whose repetitions share a block)."""
        return max(POD_SEARCHES, self.repeat) if self.sizes_compared else 0

    def cpus_of(self, spec: RuntimeSpec) -> float | None:
        """The CPU budget a runtime's app runs within: its pod size's, else --app-cpus'; None: the whole machine."""
        return spec.cpus if spec.cpus is not None else self.app_cpus

    @property
    def database(self) -> str:
        """Which database the app runs against, in words."""
        if self.target:
            return "the target's own"
        return "external" if self.db_url else "the project's embedded MariaDB (./mvnw exec:exec@database)"

    @classmethod
    def of(cls, parsed) -> Config:
        """From argparse's namespace once cli.parse_args has completed and checked it."""
        return cls(**{f.name: getattr(parsed, f.name) for f in fields(cls)})
