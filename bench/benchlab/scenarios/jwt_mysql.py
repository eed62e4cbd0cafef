"""JWT + MySQL: the token checked, then one user read by primary key (GET /{model}/users/me)."""
from benchlab.model import InPreset, Limit, MemoryCase, Probe, Scenario

USERS_ME = Probe("GET", "/{model}/users/me", '"email"')  # the user of the first token, whoever signed it

SCENARIO = Scenario(
    "jwt-mysql", "jwt-mysql.js", slo_p99_ms=50.0, limit=Limit.POINT_SELECT, needs_tokens=True,
    # the memory search (--heap-search, with --scenarios jwt-mysql) at a fixed rate every model held in the searches
    quick=InPreset("search:500", memory=(MemoryCase("500", selected=False),)),
    default=InPreset("search:800", memory=(MemoryCase("800", selected=False),)), probes=(USERS_ME,),
    # one primary-key read per request: 16 users keep a fresh app busy without queueing
    curve_vus=16)
