"""Article 002: connections held 10 s by closed-model VUs (1 s in the quick preset; GET /{model}/hold); the k6 timeout
outlasts a hold. The worker model holds a worker thread per connection: past its 200 threads the holds queue, and the
queue outlives k6's timeouts (a restart follows)."""
from benchlab.model import InPreset, Limit, MemoryCase, Probe, Scenario, Variant

NAME = "hold"


# The memory search's case (--heap-search): connections held 10 s, warmed up with 1 s holds (ten times the requests in
# the same time); the heap per held request is measured at the same count.
def held(connections: int) -> MemoryCase:
    return MemoryCase(f"vus:{connections}", "10s", warmup_variant="1s", held_bytes=True)


def hold_seconds(variant: str) -> float:
    """The hold variant's name is its hold time: "10s", "1s", "0s"."""
    return float(variant.rstrip("s"))


SCENARIO = Scenario(
    NAME, "hold.js", slo_p99_ms=11_000.0, limit=Limit.OFFERED, k6_timeout_s=30.0, worker_starves_above_in_flight=200,
    app_per_model=True, warmup_load="vus:100",
    # The SLO allows a second beyond the hold (hold.js's own threshold, HOLD_MS + 1000): beyond the hold is queueing.
    variants=(Variant("10s", k6_env=(("HOLD_MS", "10000"),)),
              Variant("1s", k6_env=(("HOLD_MS", "1000"),), slo_p99_ms=2_000.0),
              # Nothing to wait for, no token, no database: what the HTTP stack and the model's hand-offs cost, the floor
              # under JWT + MySQL's cost (--variants hold=0s --loads hold=cost:1000).
              Variant("0s", k6_env=(("HOLD_MS", "0"),), slo_p99_ms=1_000.0)),
    # not in the quick preset without --scenarios: its 15 minutes go to the two core cases (config.py)
    quick=InPreset("vus:200", variants=("1s",), selected=False, memory=(held(1000),)),
    default=InPreset("vus:1000,vus:5000,vus:10000", variants=("10s",), selected=False,
                     memory=(held(10_000),)),
    probes=(Probe("GET", "/{model}/hold?ms=1", '"heldMs"'),))
