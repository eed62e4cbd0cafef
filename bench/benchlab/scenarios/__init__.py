"""Every scenario, one module each, in the order the report shows them. A module defines SCENARIO (model.Scenario):
its k6 script and SLO (passed to k6 as its thresholds), its loads in each preset, its smoke-test probes, its app
configurations and its report view. A new scenario is a module here, its line below, and a test."""
from __future__ import annotations

from benchlab.model import Scenario, Variant
from benchlab.scenarios import (aggregate, article_001, cache, executors, gateway, hold, jwt_mysql, mixed,
                                pool_sweep)

SCENARIOS: dict[str, Scenario] = {module.SCENARIO.name: module.SCENARIO for module in (
    jwt_mysql, aggregate, article_001, executors, pool_sweep, cache, gateway, hold, mixed)}


def variant_of(scenario: str, name: str) -> Variant:
    return next(v for v in SCENARIOS[scenario].variants if v.name == name)


def script_of(scenario: str, variant: str) -> str:
    return variant_of(scenario, variant).script or SCENARIOS[scenario].script


def ideal_latency_s(scenario: str, variant: str) -> float | None:
    """The ideal latency of a scenario's requests under one of its variants (which may run another script)."""
    chosen = variant_of(scenario, variant)
    return chosen.ideal_latency_s if chosen.script else SCENARIOS[scenario].ideal_latency_s
