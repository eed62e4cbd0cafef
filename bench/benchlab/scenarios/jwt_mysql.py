"""JWT + MySQL: the token checked, then one user read by primary key (GET /{model}/users/me)."""
from benchlab.model import InPreset, Limit, MemoryCase, Probe, Scenario, Variant

USERS_ME = Probe("GET", "/{model}/users/me", '"email"')  # the user of the first token, whoever signed it

SCENARIO = Scenario(
    "jwt-mysql", "jwt-mysql.js", slo_p99_ms=50.0, limit=Limit.POINT_SELECT, needs_tokens=True,
    # opt-in: the first gate (AdmissionControl) off; beside the app as it ships (--variants jwt-mysql=,ungated) it
    # shows what the gate costs a request and the knee
    variants=(Variant(""), Variant("ungated", (("lab.overload.admission-control", "false"),), opt_in=True)),
    # the verdict's cost rate: every model's CPU per request on the steady app near saturation, at a rate each model
    # serves in a 0.5 CPU jar (its knees: 1,200 to 1,700/s at p99 50 ms; a smaller pod's search moves the rates below
    # its own); a quarter and half of it show how the cost moves with the rate (background work weighs more at a low
    # rate). The memory search
    # (--heap-search, with --scenarios jwt-mysql) at the search's first rate
    quick=InPreset("cost:250,cost:500,cost:1000,search:500", memory=(MemoryCase("500", selected=False),)),
    default=InPreset("cost:250,cost:500,cost:1000,search:500", memory=(MemoryCase("500", selected=False),)),
    # warm-ups at the verdict's cost rate, twice the search's start: steady in about half the seconds
    warmup_load="1000",
    probes=(USERS_ME,),
    # one primary-key read per request: 16 users keep a fresh app busy without queueing
    curve_vus=16)
