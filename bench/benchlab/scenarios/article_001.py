"""Article 001 to its root: JWT + MySQL at 50, 100 and 300 connections (closed model), the app packaged with each
MySQL driver; with --jdk 21,25 the JDK x driver matrix. Its view: how often the virtual model pinned, where, and what
it served against the worker model, the control."""
from benchlab.model import InPreset, Limit, Scenario, Variant
from benchlab.scenarios.jwt_mysql import USERS_ME

NAME = "article-001"
# Article 001's kind of driver: Connector/J before 9.0 reads its socket inside synchronized (MySQL bug 109346), which
# pins a virtual thread to its carrier on JDK 21-23; 8.3.0 is the version Quarkus 3.30 managed. The lab ships 9.x
# (pom.xml's mysql-connector-j.version, which a test keeps equal to SHIPPED_DRIVER).
PINNING_DRIVER = "8.3.0"
SHIPPED_DRIVER = "9.5.0"

ARTICLE_LOADS = "vus:50,vus:100,vus:300"
SCENARIO = Scenario(
    NAME, "jwt-mysql.js", slo_p99_ms=50.0, limit=Limit.POINT_SELECT, needs_tokens=True,
    variants=tuple(Variant(f"connector-j-{v}", driver=v) for v in (PINNING_DRIVER, SHIPPED_DRIVER)),
    # Not in quick: a second packaging of the app and two more app starts would not fit (the quick JWT + MySQL search
    # is article 001's headline point).
    quick=InPreset(ARTICLE_LOADS, selected=False), default=InPreset(ARTICLE_LOADS, selected=False),
    probes=(USERS_ME,))
