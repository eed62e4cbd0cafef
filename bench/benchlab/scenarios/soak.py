"""A soak: one case held at a fixed arrival rate for minutes, each model in an app of its own, to see what grows.
JWT + MySQL by default; the aggregation with --variants soak=aggregate. The rate: 70 % of the model's capacity, found
by a search just before (the default preset), or a fixed one (the quick preset, --loads soak=RATE)."""
from benchlab.model import AGGREGATE_IDEAL_S, AGGREGATE_SLO_P99_MS, InPreset, Limit, Scenario, Variant
from benchlab.scenarios import aggregate, jwt_mysql

NAME = "soak"

SCENARIO = Scenario(
    NAME, jwt_mysql.SCENARIO.script, slo_p99_ms=jwt_mysql.SCENARIO.slo_p99_ms, limit=Limit.POINT_SELECT,
    needs_tokens=True, app_per_model=True, soaks=True,
    variants=(Variant(""),
              # the quick rate below the worker pool's starvation (111/s); the search from the aggregation's start
              Variant("aggregate", script=aggregate.SCENARIO.script, ideal_latency_s=AGGREGATE_IDEAL_S,
                      slo_p99_ms=AGGREGATE_SLO_P99_MS, opt_in=True,
                      preset_loads=(("quick", "soak:70"), ("default", "search:200,soak")))),
    # quick: about 70 % of the lowest JWT + MySQL capacity within 0.5 CPU (840 to 1,400/s in quick runs)
    quick=InPreset("soak:600", selected=False), default=InPreset("search:500,soak", selected=False),
    probes=(jwt_mysql.USERS_ME, aggregate.AGGREGATE))
