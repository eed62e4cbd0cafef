"""Cold starts: seconds from the start command to the first successful request (GET /virtual/users/me with an HS256
token: serving, not just listening), repeated against a database already up, migrated and seeded. Standard library
only, so that bench/startup runs without the bench's venv."""
import argparse
import base64
import hashlib
import hmac
import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from benchlab.formatting import describe, summary
from benchlab.project import AOT_OPTIONS, APP_DIR, ISSUER, NO_DRAIN_PROPS, ROOT, rss_mb, started_in

EMAIL = "user1@example.com"


def hs256_token(secret, email, issuer=ISSUER, lifetime_s=3600, now=None):
    """A token as article 001's issuer writes it ({email, iss, iat, exp}), signed with the raw shared secret."""
    now = int(time.time() if now is None else now)

    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    def part(obj):
        return b64(json.dumps(obj, separators=(",", ":")).encode())

    signing_input = part({"alg": "HS256", "typ": "JWT"}) + "." + part(
        {"email": email, "iss": issuer, "iat": now, "exp": now + lifetime_s})
    signature = hmac.new(secret.encode(), signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64(signature)


def get(url, headers, timeout=5.0):
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status
    except urllib.error.HTTPError as e:
        return e.code


def wait_first_success(alive, url, headers, t0, timeout_s, poll_s=0.02):
    """Seconds from t0 to the first 200 from url; connection refused and 5xx mean "not yet". None if the process
    exits or the time runs out."""
    while time.monotonic() - t0 < timeout_s:
        if not alive():
            return None
        try:
            if get(url, headers) == 200:
                return time.monotonic() - t0
        except (OSError, urllib.error.URLError, http.client.HTTPException):
            pass
        time.sleep(poll_s)
    return None


def jvm_command(java, jvm_args, props, aot):
    """The packaged app's command, run from target/quarkus-app as `java ... -jar quarkus-run.jar`: an AOT cache is
    only valid with the class path it was trained with."""
    argv = [java, *jvm_args]
    if aot:
        argv += AOT_OPTIONS
    argv += [f"-D{k}={v}" for k, v in props.items()]
    return argv + ["-jar", "quarkus-run.jar"]


def app_props(port, db_url, user, password):
    return {"quarkus.http.host": "127.0.0.1", "quarkus.http.port": port, "quarkus.datasource.jdbc.url": db_url,
            "quarkus.datasource.username": user, "quarkus.datasource.password": password,
            "mp.jwt.verify.publickey.algorithm": "HS256", "mp.jwt.verify.issuer": ISSUER,
            **NO_DRAIN_PROPS}


def stop(proc, grace_s=20):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def one_start(argv, env, log_path, url, headers, timeout_s):
    """Starts argv in APP_DIR, waits for the first 200, notes RSS, stops it. Returns a dict of figures."""
    with open(log_path, "w") as log:
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, cwd=APP_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            first = wait_first_success(lambda: proc.poll() is None, url, headers, t0, timeout_s)
            rss = rss_mb(proc.pid)
        finally:
            stop(proc)
    with open(log_path, errors="replace") as f:
        text = f.read()
    if first is None:
        raise RuntimeError(f"no successful {url} within {timeout_s:.0f} s (exit {proc.returncode}); see {log_path}")
    return {"first_request_s": round(first, 3), "quarkus_started_s": started_in(text), "rss_mb_at_first": rss}


def main(argv=None):
    p = argparse.ArgumentParser(prog="bench/startup", description="Cold starts of the packaged app against a running "
                                "database: seconds to the first successful GET /virtual/users/me, median and range.")
    p.add_argument("--db-url", required=True, help="JDBC URL of a running MySQL/MariaDB (./mvnw -q exec:exec@database)")
    p.add_argument("--db-user", default="lab")
    p.add_argument("--db-password", default="lab")
    p.add_argument("-n", type=int, default=5, help="measured cold starts per variant (default 5)")
    p.add_argument("--port", type=int, default=20100)
    p.add_argument("--java", default=os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "java"))
    p.add_argument("--variant", action="append", default=[], metavar="NAME=JVM_ARGS_AND_-D_OPTIONS",
                   help="a configuration to measure, e.g. 'default=' or 'serial=-XX:+UseSerialGC'; repeatable, run "
                        "interleaved (A B A B ...); the word 'aot' among the options adds -XX:AOTCache=app.aot -XX:AOTMode=on")
    p.add_argument("--out", default=os.path.join(ROOT, "target", "startup"), help="logs and startup.json")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, JWT_SECRET=secrets.token_hex(32))
    props = app_props(args.port, args.db_url, args.db_user, args.db_password)
    variants = {}
    for spec in args.variant or ["default="]:
        name, _, options = spec.partition("=")
        words = options.split()
        variants[name] = jvm_command(args.java, [w for w in words if w != "aot"], props, "aot" in words)
    # One start not counted: it migrates the schema and seeds one user, so every measured start finds the same state.
    first = next(iter(variants.values()))
    primer = [*first[:-2], "-Dlab.seed.users=1", *first[-2:]]
    url = f"http://127.0.0.1:{args.port}/virtual/users/me"
    headers = {"Authorization": "Bearer " + hs256_token(env["JWT_SECRET"], EMAIL)}
    one_start(primer, env, os.path.join(args.out, "primer.log"), url, headers, 180)
    results = {name: {"command": " ".join(cmd), "starts": []} for name, cmd in variants.items()}
    for i in range(args.n):  # interleaved, so that a busy minute of the shared machine hits every variant alike
        for name, cmd in variants.items():
            s = one_start(cmd, env, os.path.join(args.out, f"{name}-{i + 1}.log"), url, headers, 120)
            results[name]["starts"].append(s)
            print(f"{name} start {i + 1}: first request after {s['first_request_s']:.2f} s", flush=True)
    for name, r in results.items():
        r["first_request"] = summary([s["first_request_s"] for s in r["starts"]])
        r["quarkus_started"] = summary([s["quarkus_started_s"] for s in r["starts"] if s["quarkus_started_s"]])
        r["rss_mb_at_first"] = summary([s["rss_mb_at_first"] for s in r["starts"] if s["rss_mb_at_first"]])
        print(f"{name}: first successful request {describe(r['first_request'])}; Quarkus 'started in' "
              f"{describe(r['quarkus_started'])}; RSS then {describe(r['rss_mb_at_first'], 'MB')}")
    with open(os.path.join(args.out, "startup.json"), "w") as f:
        json.dump({"cpu_count": os.cpu_count(), "load_average_at_start": os.getloadavg(), "variants": results}, f,
                  indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
