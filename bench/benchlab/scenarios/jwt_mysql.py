"""JWT + MySQL: the token checked, then one user read by primary key (GET /{model}/users/me)."""
from benchlab.model import InPreset, Limit, MemoryCase, Probe, Scenario

USERS_ME = Probe("GET", "/{model}/users/me", '"email"')  # the user of the first token, whoever signed it

SCENARIO = Scenario(
    "jwt-mysql", "jwt-mysql.js", slo_p99_ms=50.0, limit=Limit.POINT_SELECT, needs_tokens=True,
    # the cost rate: every model's CPU per request on the steady app, at the search's first rate, which every model
    # held in 0.5 CPU here (its background work, spread over fewer requests at lower rates, would weigh more); the
    # memory search (--heap-search, with --scenarios jwt-mysql) at that rate
    quick=InPreset("cost:500,search:500", memory=(MemoryCase("500", selected=False),)),
    default=InPreset("cost:500,search:500", memory=(MemoryCase("500", selected=False),)), probes=(USERS_ME,),
    # one primary-key read per request: 16 users keep a fresh app busy without queueing
    curve_vus=16)
