"""HAProxy (Debian's package) in front of a scale-out's replicas: round robin per request, each replica in rotation only
while its readiness probe passes, as a Kubernetes Service routes to ready pods only. Its stats page counts each
replica's answers and tells whether the replica is in rotation."""
from __future__ import annotations

import csv
import io
import os
import shutil
import time

from benchlab.results.scale_out import REPLICAS
from benchlab.run.provision.health import http_get

# The lab's manifests probe a starting pod every 2 s, the executable's every second (deploy/k8s); HAProxy probes each
# replica every second, with the manifests' 2 s timeout: one failed probe takes a replica out, one passed puts it in.
CHECK_INTERVAL_MS = 1000


def executable() -> str | None:
    """Debian installs it in /usr/sbin, which a user's PATH may not hold."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")


def config_text(port: int, stats_port: int, replica_ports: tuple[int, ...]) -> str:
    servers = "\n".join(f"  server replica{n} 127.0.0.1:{p} check" for n, p in enumerate(replica_ports, start=1))
    # no maxconn: HAProxy derives it from the open-files limit, which a fixed one may exceed
    return f"""defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout check 2s

frontend replicas
  bind 127.0.0.1:{port}
  default_backend replicas

backend replicas
  balance roundrobin
  option httpchk GET /q/health/ready
  default-server inter {CHECK_INTERVAL_MS}ms fall 1 rise 1
{servers}

frontend stats
  bind 127.0.0.1:{stats_port}
  stats enable
  stats uri /stats
"""


class HaProxy:
    """One HAProxy process of the bench, its config beside its log (NAME.cfg beside NAME.log)."""

    def __init__(self, pm, log_path: str, port: int, stats_port: int, replica_ports: tuple[int, ...]):
        exe = executable()
        if not exe:
            raise RuntimeError("HAProxy is not on PATH: install Debian's package haproxy")
        self.url, self.stats_url = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{stats_port}/stats;csv"
        path = os.path.splitext(log_path)[0] + ".cfg"
        with open(path, "w") as f:
            f.write(config_text(port, stats_port, replica_ports))
        self.proc = pm.start("haproxy", [exe, "-db", "-f", path], log_path)

    def stats(self) -> dict[str, dict]:
        """Each replica's row of the stats page: status ("UP", "DOWN", ...) and hrsp_2xx, the 2xx answers so far."""
        status, body = http_get(self.stats_url, timeout=2.0)
        if status != 200:
            raise RuntimeError(f"HAProxy's stats page answered {status}")
        rows = csv.DictReader(io.StringIO(body.lstrip("# ")))
        return {f"replica {row['svname'].removeprefix('replica')}": row for row in rows
                if row["pxname"] == "replicas" and row["svname"].startswith("replica")}

    def await_status(self, replica: str, status: str, timeout: float) -> None:
        """Until HAProxy's checks have put the replica in that status (a replica not yet started: DOWN)."""
        self.await_row(replica, lambda row: row["status"].startswith(status), f"{replica} {status}", timeout)

    def await_answer(self, replica: str, timeout: float) -> None:
        """Until the replica has given its first 2xx answer through HAProxy."""
        self.await_row(replica, lambda row: int(row["hrsp_2xx"] or 0) > 0, f"an answer from {replica}", timeout)

    def await_row(self, replica: str, until, what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.proc.alive():
                raise RuntimeError(f"HAProxy exited ({self.proc.exit_info()}); see {self.proc.log_path}")
            try:
                if until(self.stats()[replica]):
                    return
            except OSError:
                pass  # not listening yet
            time.sleep(0.05)
        raise RuntimeError(f"HAProxy did not see {what} within {timeout:g} s; see {self.proc.log_path}")
