"""The app's life cycle in a benchmark: what it needs (database, tokens, the downstream service with the gateway's
backends, Redis), then its starts: measured ones, cold ones and restarts, each on the app's CPUs (--app-cpuset)."""
import concurrent.futures
import dataclasses
import os
import time

from benchlab.project import NO_DRAIN_PROPS, ROOT, rss_mb
from benchlab.run.procs import log
from benchlab.run.provision import health, runtimes, services
from benchlab.run.state import BenchState
from benchlab.scenarios import SCENARIOS, variant_of


@dataclasses.dataclass
class Services:
    """What the app runs against, and the properties and environment that point it there."""
    app_props: dict
    child_env: dict
    tokens_file: str | None
    db_url: str
    db: object = None  # the embedded database's process (None with --db-url)
    downstream: object = None
    redis_url: str | None = None
    redis: object = None  # the embedded Redis' process, where a variant needs one

    def sampled(self) -> dict:
        """Our processes beside the app whose CPU each run samples: name -> process."""
        return {name: proc for name, proc in (("db", self.db), ("downstream", self.downstream), ("redis", self.redis))
                if proc is not None}


class Apps:
    def __init__(self, state: BenchState):
        self.state = state

    def start_services(self, java_home, workdir) -> Services:
        """Database, tokens and the downstream service (which seeds the users), and Redis where a variant needs it."""
        config, pm = self.state.config, self.state.pm
        jwt = services.Jwt(config.jwt, workdir)
        tokens_file, signing = None, None
        if any(SCENARIOS[s].needs_tokens for s in config.scenarios):
            tokens_file = os.path.join(workdir, "tokens.txt")
            log(f"signing {config.users} {config.jwt.upper()} tokens (in parallel with the database start)")
            signer = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="tokens")
            signing = signer.submit(services.generate_tokens, pm, config.users, tokens_file, jwt, self.state.logs)
            signer.shutdown(wait=False)  # its thread ends with the signing; start_downstream waits for the result
        db, db_url = None, config.db_url
        if not db_url:
            log("starting the database: ./mvnw -q exec:exec@database")
            t = time.time()
            split = config.cpu_split
            db, db_url = services.start_database(pm, java_home, self.state.logs, split.app if split else None)
            log(f"database ready in {time.time() - t:.0f} s: {db_url}")
        props = {"quarkus.http.host": "127.0.0.1", "quarkus.datasource.jdbc.url": db_url,
                 "quarkus.datasource.username": config.db_user, "quarkus.datasource.password": config.db_password,
                 **NO_DRAIN_PROPS, **jwt.props}
        app_props = dict(props, **{"quarkus.http.port": config.port,
                                   "quarkus.rest-client.downstream.url": f"http://127.0.0.1:{config.port + 1}"})
        if self.gateway():
            app_props["lab.gateway.instances"] = ",".join(f"http://127.0.0.1:{p}" for p in self.backend_ports())
        up = Services(app_props, dict(os.environ, **jwt.env), tokens_file, db_url, db)
        up.downstream = self.start_downstream(java_home, props, up.child_env, signing)
        redis = None
        if any(variant_of(r.scenario, r.variant).redis for r in self.state.plan.runs):
            log("starting Redis for the remote cache tier: ./mvnw -q exec:exec@redis")
            redis, up.redis_url = services.start_redis(pm, java_home, self.state.logs)
            up.redis = redis
            log(f"Redis ready: {up.redis_url}")
        return up

    def gateway(self) -> bool:
        return any(SCENARIOS[s].backends for s in self.state.config.scenarios)

    def backend_ports(self) -> tuple[int, int]:
        return self.state.config.port + 3, self.state.config.port + 4

    def start_downstream(self, java_home, props, child_env, signing):
        """The downstream service (same jar) seeds the users, so that every app start finds the same database state
        and no app start-up includes the seeding; it also serves the gateway's two backend instances."""
        config = self.state.config
        port = config.port + 1
        props = dict(props, **{"quarkus.http.port": port, "lab.seed.users": config.users})
        if self.gateway():
            props["lab.backend.ports"] = ",".join(map(str, self.backend_ports()))
        ds = self.state.pm.start("downstream", runtimes.JvmRuntime().command(ROOT, java_home, port, props),
                                 os.path.join(self.state.logs, "downstream.log"), env=child_env, cwd=ROOT)
        if signing:
            signing.result(timeout=900)  # raises what the signing raised
        health.wait_ready(ds, f"http://127.0.0.1:{port}/q/health/ready", 180, "downstream service")
        log(f"downstream ready on port {port}, {config.users} users seeded")
        return ds

    def launch(self, rt, java_home, props, up: Services, log_name, port: int | None = None):
        """The app, up to its first successful request. Returns (process, seconds from the start command to it)."""
        t = time.time()
        port = port or self.state.config.port
        proc = rt.start(self.state.pm, ROOT, java_home, port, dict(props, **{"quarkus.http.port": port}),
                        up.child_env, os.path.join(self.state.logs, log_name))
        return proc, health.first_success(proc, f"http://127.0.0.1:{port}", self.state.config, up.tokens_file, t,
                                          300, f"app ({rt.name})")

    def start(self, rt, java_home, props, up: Services, log_name, port: int | None = None):
        """The app, up to its first successful request and readiness: (process, seconds to that request); on `port`
        where given (the A/A twin's), else the app's. The JVM sees the budget's processor count, but the quota is
        lifted until the app is ready: nothing measures this start (the cold starts, which do, run within the
        budget)."""
        budget = rt.budget
        proc = None
        if budget is not None:
            budget.lift()
        try:
            proc, first = self.launch(rt, java_home, props, up, log_name, port)
            if budget is not None:
                budget.lift(proc.pid)  # an affinity mask is the process's own: lifted once it exists
            health.wait_ready(proc, f"http://127.0.0.1:{port or self.state.config.port}/q/health/ready", 60,
                              f"app ({rt.name})")
        finally:
            if budget is not None:
                budget.restore(proc.pid if proc is not None else None)
        return proc, first

    def cold_starts(self, rt, java_home, up: Services) -> list[dict]:
        """Up to --cold-starts fresh starts of the app, none begun once they took --cold-start-budget seconds, each
        stopped after its first successful request: seconds from the start command to that answer, Quarkus's own
        "started in", and the RSS at that moment."""
        config, starts = self.state.config, []
        for i in range(1, config.cold_starts + 1):
            spent = sum(s["first_request_s"] for s in starts)
            if starts and spent >= config.cold_start_budget:
                log(f"cold starts of {rt.name}: {len(starts)} of {config.cold_starts}, the next not begun after "
                    f"{spent:.0f} s of them (--cold-start-budget {config.cold_start_budget:g})")
                break
            proc, first = self.launch(rt, java_home, up.app_props, up, f"cold-{rt.name}-{i}.log")
            try:
                starts.append({"first_request_s": round(first, 3), "rss_mb": rss_mb(proc.pid),
                               "quarkus_started_s": health.quarkus_started(proc)})
            finally:
                self.state.pm.stop(proc)
            log(f"cold start {i}/{config.cold_starts} of {rt.name}: first successful request after {first:.2f} s")
        return starts
