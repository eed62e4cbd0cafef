"""Article 003: a report of eight reads and an insert per request (POST /{model}/users/me/report), the connection
pools of both stacks swept. The report finds each model's knee: the smallest pool near its best throughput."""
from benchlab.model import InPreset, Limit, Probe, Scenario, Variant
from benchlab.scenarios.jwt_mysql import USERS_ME

NAME = "pool-sweep"
POOL_SIZES = (4, 8, 16, 32, 64)


def pool_size(variant) -> int | None:
    return int(variant.split("-")[1]) if isinstance(variant, str) and variant.startswith("pool-") else None


def connection_pools(size: int) -> tuple[tuple[str, str], ...]:
    return (("quarkus.datasource.jdbc.max-size", str(size)), ("quarkus.datasource.reactive.max-size", str(size)))


SCENARIO = Scenario(
    NAME, "report.js", slo_p99_ms=500.0, limit=Limit.OFFERED, needs_tokens=True, inserts_reports=True,
    variants=tuple(Variant(f"pool-{n}", connection_pools(n)) for n in POOL_SIZES),
    quick=InPreset("vus:50", variants=("pool-4", "pool-32"), selected=False), default=InPreset("vus:50,200", selected=False),
    probes=(USERS_ME, Probe("POST", "/{model}/users/me/report", '"cityUsers"')), compare_within_variant=True)
