"""The database's point-select rate (bench/PointSelectRate.java, as many JDBC connections as the app's pool, the app
idle): the physical limit of a primary-key lookup, which jwt-mysql's capacity is compared with and its search stops at."""
import json
import os

from benchlab.config import Config
from benchlab.project import ROOT


def point_select_rate(pm, java_home, db_url, config: Config, threads, logs) -> dict:
    argv = [os.path.join(java_home, "bin", "java"), "-cp", os.path.join(ROOT, "target/quarkus-app/lib/main/*"),
            os.path.join(ROOT, "bench", "PointSelectRate.java"), "--url", db_url, "--user", config.db_user,
            "--password", config.db_password, "--threads", str(threads), "--seconds", str(config.pointselect_seconds),
            "--warmup", "2", "--users", str(config.users)]
    log_path = os.path.join(logs, f"pointselect-{threads}.log")
    pm.run("point-select measurement", argv, log_path, timeout=300)
    with open(log_path) as f:
        line = next((l for l in f if l.startswith("{")), None)
    if line is None:
        raise RuntimeError(f"PointSelectRate failed; see {logs}/pointselect-{threads}.log")
    return json.loads(line)
