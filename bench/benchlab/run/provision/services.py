"""The processes a benchmark needs beside the app: the embedded database and Redis, the tokens and their key, and the
report scenario's table emptied between runs."""
import os
import re
import secrets
import subprocess
import threading
import time

from benchlab.project import ISSUER, ROOT
from benchlab.run.provision.budget import on_cpus


def start_database(pm, java_home, logs, cpus=None):
    """The project's embedded MariaDB (`./mvnw -q exec:exec@database`): prints its JDBC URL, runs until stopped; on
    these CPUs where given (the app's, --app-cpuset)."""
    return start_embedded(pm, java_home, logs, "database", "jdbc:", before_exec=on_cpus(cpus) if cpus else None)


def start_redis(pm, java_home, logs):
    """The project's embedded Redis (`./mvnw -q exec:exec@redis`), the cache scenario's remote tier."""
    return start_embedded(pm, java_home, logs, "redis", "redis://")


def start_embedded(pm, java_home, logs, name, url_prefix, before_exec=None):
    """An embedded server started by Maven from the repository: it prints its URL as the first stdout line starting
    with url_prefix and runs until its process group is stopped."""
    argv = [os.path.join(ROOT, "mvnw"), "-q", f"exec:exec@{name}"]
    proc = pm.start(name, argv, os.path.join(logs, f"{name}.log"), cwd=ROOT, pipe_stdout=True,
                    env=dict(os.environ, JAVA_HOME=java_home), before_exec=before_exec)
    found = {}

    def read():
        with open(os.path.join(logs, f"{name}.stdout"), "w") as sink:
            for line in proc.popen.stdout:  # keep draining so the pipe never fills
                if "url" not in found and line.startswith(url_prefix):
                    found["url"] = line.strip()
                sink.write(line)
                sink.flush()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.time() + 180
    while "url" not in found:
        if not proc.alive():
            raise RuntimeError(f"embedded {name} exited (code {proc.popen.returncode}); see {proc.log_path}")
        if time.time() > deadline:
            raise RuntimeError(f"embedded {name} printed no URL within 180 s; see {proc.log_path}")
        time.sleep(0.2)
    return proc, found["url"]


class Jwt:
    """A fresh HS256 secret or RS256 key pair per bench run."""

    def __init__(self, alg, workdir):
        self.alg = alg
        self.props, self.env, self.token_props = {}, {}, {}
        if alg == "hs256":
            secret = secrets.token_hex(32)
            # As in article 001: the raw shared secret in JWT_SECRET, and the standard algorithm property.
            self.env["JWT_SECRET"] = secret
            self.props["mp.jwt.verify.publickey.algorithm"] = "HS256"
            self.token_props = {"tokens.alg": "HS256", "tokens.secret": secret}
        else:
            priv, pub = os.path.join(workdir, "jwt-private.pem"), os.path.join(workdir, "jwt-public.pem")
            subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out",
                            priv], check=True, capture_output=True, timeout=60)
            subprocess.run(["openssl", "pkey", "-in", priv, "-pubout", "-out", pub], check=True,
                           capture_output=True, timeout=60)
            self.props["mp.jwt.verify.publickey.location"] = pub
            self.token_props = {"tokens.alg": "RS256", "tokens.key": priv}
        self.props["mp.jwt.verify.issuer"] = ISSUER


def generate_tokens(pm, count, path, jwt, logs):
    argv = [os.path.join(ROOT, "mvnw"), "-B", "-q", "test-compile", "exec:java@tokens", f"-Dtokens.count={count}",
            f"-Dtokens.out={path}", *[f"-D{k}={v}" for k, v in jwt.token_props.items()]]
    pm.run("token generation", argv, os.path.join(logs, "tokens.log"), timeout=900, cwd=ROOT)
    with open(path) as f:
        n = sum(1 for line in f if line.strip())
    if n != count:
        raise RuntimeError(f"expected {count} tokens in {path}, found {n}")


def empty_reports(db_url, user, password):
    """Deletes the rows the report scenario inserts, so that every run starts from the same table."""
    import pymysql  # only the pool-sweep scenario needs it

    m = re.match(r"jdbc:(?:mysql|mariadb)://([^:/]+)(?::(\d+))?/([^?]+)", db_url)
    if not m:
        raise RuntimeError(f"cannot read host, port and database from {db_url}")
    with pymysql.connect(host=m.group(1), port=int(m.group(2) or 3306), user=user, password=password,
                         database=m.group(3), autocommit=True) as conn, conn.cursor() as cur:
        cur.execute("DELETE FROM reports")
