"""Every scenario, one module each, defining SCENARIO (model.Scenario): its k6 script, SLO, loads per preset, probes
and app configurations. Definitions only; its report section is report/views/<module>.py. A new scenario is its
module and its name in ORDER (bench/README.md, "How to add a scenario")."""
from __future__ import annotations

import importlib

from benchlab.model import Scenario, Variant

# The scenarios' modules in the order the report shows them.
ORDER = ("jwt_mysql", "aggregate", "article_001", "executors", "pool_sweep", "cache", "gateway", "hold", "mixed",
         "soak", "scale_out")
SCENARIOS: dict[str, Scenario] = {scenario.name: scenario for scenario in (
    importlib.import_module(f"{__name__}.{module}").SCENARIO for module in ORDER)}


def variant_of(scenario: str, name: str) -> Variant:
    return next(v for v in SCENARIOS[scenario].variants if v.name == name)


def script_of(scenario: str, variant: str) -> str:
    return variant_of(scenario, variant).script or SCENARIOS[scenario].script


def slo_p99_ms(scenario: str, variant: str) -> float:
    """The SLO's p99 bound of a scenario's requests under one of its variants (hold's 1 s holds: 2 s, not 11 s)."""
    return variant_of(scenario, variant).slo_p99_ms or SCENARIOS[scenario].slo_p99_ms


def ideal_latency_s(scenario: str, variant: str) -> float | None:
    """The ideal latency of a scenario's requests under one of its variants (which may run another script)."""
    chosen = variant_of(scenario, variant)
    return chosen.ideal_latency_s if chosen.script else SCENARIOS[scenario].ideal_latency_s
