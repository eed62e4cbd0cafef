"""A new replica's first minute: one replica of 0.25 CPU carries 70 % of its capacity behind HAProxy, then the load
doubles (140 %) and a second replica starts cold, joining when its readiness probe passes, as in Kubernetes
(run/measure/scale_out.py). JWT + MySQL, on each runtime's cheapest model in the run, else the first model given. The
rate: 70 % of what the first replica's search held just before, or a fixed one (--loads scale-out=RATE)."""
from benchlab.model import InPreset, Limit, Scenario
from benchlab.scenarios import jwt_mysql

NAME = "scale-out"
STEP_AT_S = 30  # seconds of the first replica alone before the step: its p99 and throughput settle in them
STEP_FACTOR = 2  # 70 % of one replica's capacity, then 140 %: more than one replica holds
SECONDS = 120  # the run: the step, then 90 s for the new replica to start, join and carry its share
REPLICA_CPUS = 0.25  # each replica's CPU limit: two of them and k6 fit a 2-core machine at the step's rate

SCENARIO = Scenario(
    NAME, jwt_mysql.SCENARIO.script, slo_p99_ms=jwt_mysql.SCENARIO.slo_p99_ms, limit=Limit.POINT_SELECT,
    needs_tokens=True, scale_out_cpus=REPLICA_CPUS,
    # the search's start: about half of the lowest capacity one replica of 0.25 CPU held here (native, 150/s)
    quick=InPreset("search:80,scale-out", selected=False), default=InPreset("search:80,scale-out", selected=False),
    probes=(jwt_mysql.USERS_ME,))
