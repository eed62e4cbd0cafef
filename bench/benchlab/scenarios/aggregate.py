"""User aggregation: 100 ms, then 300 ms and 500 ms downstream calls in parallel (GET /{model}/users/{id}/aggregate);
opt-in variant http2: the same REST clients over HTTP/2 (h2c), a few multiplexed connections instead of one per call in
flight."""
from benchlab.model import (AGGREGATE_IDEAL_S, AGGREGATE_SLO_P99_MS, InPreset, Limit, MemoryCase, Probe, Scenario,
                            Variant)

AGGREGATE = Probe("GET", "/{model}/users/1/aggregate", '"level"')
# 200 worker threads (Quarkus' default) / 3 threads per aggregation (1 request + 2 branches)
WORKER_STARVES_ABOVE = 200 / 3
# requests/s: 180 aggregations in flight, which virtual and reactive carry; the worker model's, and the memory search's
# for every model, 60 in flight on 180 of the worker pool's threads
WARMUP, BELOW_STARVATION = "300", "100"

SCENARIO = Scenario(
    "aggregate", "aggregate.js", slo_p99_ms=AGGREGATE_SLO_P99_MS, limit=Limit.OFFERED,
    ideal_latency_s=AGGREGATE_IDEAL_S, worker_starves_above_in_flight=WORKER_STARVES_ABOVE, worker_branches_nest=True,
    warmup_load=WARMUP, worker_warmup_load=BELOW_STARVATION,
    variants=(Variant(""), Variant("http2", (("quarkus.rest-client.downstream.http2", "true"),), opt_in=True)),
    # the default preset adds article 000's 150 and 1,000 users (closed model) beside the search
    # the verdict's cost rate below the worker pool's starvation (80/s: 48 aggregations in flight on 144 of its 200
    # threads), and in the default preset a quarter and half of it. Quick's 3 s at 20 and 40/s hold 60 and 120
    # requests: every cell of four quick runs read "too few requests to tell", and their 84 s pay for the verdict's
    # added runs. The search starts above it; the memory search (1,000 users) warms up at 100/s, which every model holds
    quick=InPreset("cost:80,search:200",
                   memory=(MemoryCase("vus:1000", warmup=BELOW_STARVATION, selected=False),)),
    default=InPreset("cost:20,cost:40,cost:80,search:200,vus:150,vus:1000",
                     memory=(MemoryCase("vus:1000", warmup=BELOW_STARVATION),)),
    probes=(AGGREGATE,),
    # the 600 ms floor needs more users than a primary-key read to keep a fresh app busy
    curve_vus=150)
