"""results.json's environment: the machine, the software, the settings and what the run met on its way, one typed
record that the run side fills in as it learns each fact, and table.write serialises (the report reads the JSON)."""
from __future__ import annotations

import dataclasses
from typing import Any


class _Unset:
    """A fact the run has not (yet) learnt: left out of results.json, unlike a fact that is None (no git commit)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class Facts:
    """A record of facts learnt one by one: set, appended to, read with a default, written without the unset ones."""
    __slots__ = ()

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

    def to_json(self) -> dict:
        return {f.name: value.to_json() if isinstance(value, Facts) else value
                for f in dataclasses.fields(self) if (value := getattr(self, f.name)) is not UNSET}


@dataclasses.dataclass(slots=True)
class RuntimeInfo(Facts):
    """One runtime's facts: how it was prepared, its command and limits, and its start-up."""
    java_home: str = UNSET
    prepared: dict = UNSET  # what Runtime.prepare reports: the JVM's ergonomics, the image it built; written flat
    limits: dict | None = UNSET  # a container's CPU and memory limits (None: not a container)
    command: str = UNSET
    probe: str = UNSET  # where the sampler reads the app's process figures
    first_request_s: float = UNSET
    quarkus_started_s: float | None = UNSET
    start_warnings: list[str] = UNSET
    rss_idle_mb: float | None = UNSET
    cold_starts: list[dict] = UNSET
    warmup_curve: dict = UNSET  # the load and the successful requests per second

    def to_json(self) -> dict:
        facts = Facts.to_json(self)
        return dict(facts.pop("prepared", {}), **facts)


@dataclasses.dataclass(slots=True)
class Environment(Facts):
    # the machine and the software (run/machine.environment)
    command_line: str = UNSET
    preset: str = UNSET
    started: str = UNSET
    cpu_model: str | None = UNSET
    cores: int = UNSET
    memory_gib: float = UNSET
    load_average_at_start: tuple[float, float, float] = UNSET
    open_files_limit: int = UNSET
    os: str = UNSET
    jdk: str = UNSET
    gc: str = UNSET
    quarkus: str = UNSET
    limits: dict[str, str] = UNSET  # "what it bounds (property)" -> value in application.properties
    jdbc_pool_max: str = UNSET
    k6: str = UNSET
    git_commit: str | None = UNSET
    # the plan and the settings (cli.settings)
    pinning: str = UNSET
    planned_seconds: int = UNSET
    planned_seconds_at_most: int = UNSET
    duration_s: float = UNSET
    warmup_s: float = UNSET
    repeat: int = UNSET
    users: int = UNSET
    timeout_s: float = UNSET
    jwt: str = UNSET
    scenarios: tuple[str, ...] = UNSET
    variants: dict[str, list[str]] = UNSET
    models: tuple[str, ...] = UNSET
    runtimes: tuple[str, ...] = UNSET
    target: str | None = UNSET
    flamegraph: str | None = UNSET
    cold_starts: int = UNSET
    warmup_curve_s: float = UNSET
    planned_start_up_seconds: int = UNSET
    loads: dict[str, list[str]] = UNSET
    database: str = UNSET
    # what the run prepared (runner.prepare)
    mysql_driver: dict[str, str] = UNSET  # packaged app -> Connector/J version
    runtime_info: dict[str, RuntimeInfo] = UNSET
    native_executables: list[str] = UNSET
    flamegraphs: str = UNSET
    # what the run met
    point_select: dict = UNSET  # the database's point-select rate: qps and how it was measured
    load_seconds: int = UNSET
    restarts: int = UNSET  # apps restarted after a starved run
    skipped: list[str] = UNSET  # ladder steps above a model's first SLO breach
    searches: list[dict] = UNSET  # each capacity search: its model, repetition, answer and why it stopped
    pinned_recording: str = UNSET
    wall_seconds: int = UNSET
    failures: list[str] = UNSET
    complete: bool = UNSET

    def to_json(self) -> dict:
        facts = Facts.to_json(self)
        if "runtime_info" in facts:
            facts["runtime_info"] = {name: info.to_json() for name, info in self.runtime_info.items()}
        return facts
