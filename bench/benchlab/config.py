"""The configuration of one bench/run, built once from the command line (cli.parse_args) and read everywhere else."""
from __future__ import annotations

from dataclasses import dataclass, fields

from benchlab.model import Load
from benchlab.plan.planner import start_up_seconds


@dataclass(frozen=True)
class Config:
    command_line: str
    preset: str  # "quick" or "default"
    out: str  # the results directory
    # what runs
    scenarios: tuple[str, ...]
    variants: dict[str, list[str]]  # scenario -> the variants chosen (absent: every one but the opt-in ones)
    models: tuple[str, ...]
    runtimes: tuple[str, ...]
    jdk_runtimes: dict[str, tuple[str, int, str | None]]  # --jdk: name -> (runtime, JDK feature version, home or None)
    load_levels: dict[str, list[Load]]
    duration: float
    warmup: float
    repeat: int
    cooldown: float
    cold_starts: int
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
    native_exe: str | None
    cpus: str | None
    memory: str | None
    base_image: str | None
    jdk: str | None
    live: bool
    pin: bool
    flamegraph: str | None
    target: str | None  # an app started elsewhere: its base URL
    tokens: str | None
    # what bench/run does instead of a run
    report_only: bool
    compare: tuple[str, str] | None
    self_test: bool

    @property
    def settings(self) -> dict:
        """The report's settings table, as results.json keeps it."""
        if self.target:
            database = "the target's own"
        else:
            database = "external" if self.db_url else "the project's embedded MariaDB (./mvnw exec:exec@database)"
        return dict(preset=self.preset, duration_s=self.duration, warmup_s=self.warmup, repeat=self.repeat,
                    users=self.users, timeout_s=self.timeout, jwt=self.jwt, scenarios=self.scenarios,
                    variants=self.variants, models=self.models, runtimes=self.runtimes, target=self.target,
                    flamegraph=self.flamegraph, cold_starts=self.cold_starts, warmup_curve_s=self.warmup_curve,
                    planned_start_up_seconds=round(start_up_seconds(len(self.runtimes), self.cold_starts,
                                                                    self.warmup_curve)),
                    loads={s: [level.label for level in v] for s, v in self.load_levels.items()}, database=database)

    @classmethod
    def of(cls, parsed) -> Config:
        """From argparse's namespace once cli.parse_args has completed and checked it."""
        return cls(**{f.name: getattr(parsed, f.name) for f in fields(cls)})
