"""Article 000's last step: the aggregation behind a local (Caffeine) and a remote (Redis) tier, ids drawn from a Zipf
distribution (GET /{model}/users/{id}/aggregate/cached); the uncached aggregation is the reference, measured in the
same run."""
from benchlab.model import AGGREGATE_IDEAL_S, AGGREGATE_SLO_P99_MS, InPreset, Limit, Probe, Scenario, Variant
from benchlab.scenarios.aggregate import AGGREGATE, WORKER_STARVES_ABOVE

NAME = "cache"


def local_cache(entries: int) -> tuple[tuple[str, str], ...]:
    return (('quarkus.cache.caffeine."aggregate".maximum-size', str(entries)),)


SCENARIO = Scenario(
    NAME, "aggregate-cached.js", slo_p99_ms=AGGREGATE_SLO_P99_MS, limit=Limit.OFFERED,
    worker_starves_above_in_flight=WORKER_STARVES_ABOVE, worker_branches_nest=True,
    variants=(Variant("uncached", script="aggregate.js", ideal_latency_s=AGGREGATE_IDEAL_S),
              Variant("local-1000", local_cache(1000)),
              Variant("local-10000", local_cache(10000)),
              Variant("local-1000+redis", local_cache(1000), redis=True)),
    quick=InPreset("vus:50", variants=("uncached", "local-1000+redis"), selected=False),
    default=InPreset("vus:150,200,800", selected=False),
    probes=(AGGREGATE, Probe("GET", "/{model}/users/1/aggregate/cached", '"level"')))
