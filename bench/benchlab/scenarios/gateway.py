"""Article 004: the gateway route (GET /{model}/gateway/api/data) over two backend instances with the article's
40/35/25 mix; the backends wait on timers in a process of their own, so the gateway is what saturates."""
from benchlab.model import InPreset, Limit, Probe, Scenario

NAME = "gateway"
# The mix's mean backend latency: 0.40 x 69 + 0.35 x 21 + 0.25 x 20 ms.
IDEAL_LATENCY_S = 0.04


SCENARIO = Scenario(
    NAME, "gateway.js", slo_p99_ms=500.0, limit=Limit.OFFERED, ideal_latency_s=IDEAL_LATENCY_S, backends=True,
    app_per_model=True, quick=InPreset("vus:16", selected=False),
    default=InPreset("vus:16,vus:100,200,400,800,1600", selected=False),
    probes=(Probe("GET", "/{model}/gateway/api/data", '"_gateway"'),))
