"""Article 002: 100 ms of I/O, then 2,000 SHA-256 rounds (a few ms of CPU) on the model's thread or on the app's
bounded CPU pool (GET /{model}/mixed and /{model}/mixed/offload); the same app, so the two variants differ only in the
URL k6 calls."""
from benchlab.model import InPreset, Limit, Probe, Scenario, Variant

NAME = "mixed"


SCENARIO = Scenario(
    NAME, "mixed.js", slo_p99_ms=500.0, limit=Limit.OFFERED,
    variants=(Variant("inline", k6_env=(("CPU", "2000"),)),
              Variant("offload", k6_env=(("CPU", "2000"), ("OFFLOAD", "1")))),
    # quick: 50/s, which every model's app holds within the preset's 0.5 CPU budget (2,000 rounds are a few ms of CPU)
    quick=InPreset("50", selected=False), default=InPreset("50,100,200,400,800", selected=False),
    probes=(Probe("GET", "/{model}/mixed?cpu=1", '"digest"'), Probe("GET", "/{model}/mixed/offload?cpu=1", '"digest"')))
