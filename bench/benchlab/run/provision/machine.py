"""The machine, the JDK and the app's configuration as the report's environment states them."""
import os
import platform
import re
import resource
import subprocess
import time

import psutil

from benchlab.project import ROOT
from benchlab.results.environment import Environment
from benchlab.run.provision import jvm

# The app's limits printed in the report (a limit hides queueing): property -> what it bounds.
LIMIT_PROPERTIES = {
    "quarkus.datasource.jdbc.max-size": "JDBC pool (virtual, worker)",
    "quarkus.datasource.reactive.max-size": "reactive pool",
    "quarkus.datasource.reactive.mysql.connection-timeout": "reactive wait for a connection (s, 0 = no timer)",
    "lab.datasource.reactive.max-wait-queue-size": "reactive pool wait queue (beyond it 503 database_busy)",
    "quarkus.datasource.jdbc.acquisition-timeout": "JDBC wait for a connection",
    "lab.aggregate.deadline": "aggregation deadline (504 aggregate_deadline)",
    "lab.overload.max-concurrent-lookups": "concurrent /users/me per model (503 service_overloaded)",
    "lab.overload.max-concurrent-aggregations": "concurrent aggregations per model (503 service_overloaded)",
    "quarkus.thread-pool.max-threads": "worker pool threads",
    "quarkus.rest-client.downstream.connection-pool-size": "downstream client connections",
    "lab.worker.branches.executor": "worker model's branch executor",
    'quarkus.cache.caffeine."aggregate".expire-after-write': "cached aggregation: lifetime in the local tier",
    "lab.cache.remote.ttl": "cached aggregation: lifetime in Redis",
}

def find_java_home():
    out = subprocess.run(["bash", "-c", ". .mvn/find-jdk.sh >/dev/null && echo \"$JAVA_HOME\""], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    home = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
    if out.returncode != 0 or not home or not os.path.isfile(os.path.join(home, "bin", "java")):
        raise RuntimeError("no JDK >= 21 found (.mvn/find-jdk.sh): " + (out.stderr.strip() or "no output"))
    return home

def first_line(path, prefix):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(prefix):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None

def app_properties():
    """key -> value of the app's application.properties (prod values: profile-prefixed keys are skipped)."""
    props = {}
    try:
        with open(os.path.join(ROOT, "src/main/resources/application.properties")) as f:
            for line in f:
                if "=" in line and not line.lstrip().startswith(("#", "%")):
                    k, _, v = line.strip().partition("=")
                    props[k.strip()] = v.strip()
    except OSError:
        pass
    return props

def raise_open_files(wanted=65_536):
    """Each held connection is a file descriptor in k6 and one in the app, and the processes the bench starts inherit
    this process' limit: raised to the hard limit, or past it where the user may (root). Returns the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for limit in (max(wanted, hard), hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
            break
        except (ValueError, OSError):
            continue
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]

def environment(java_home, k6_version) -> Environment:
    """The machine, the software and the limits in force, for the report's header."""
    text = jvm.print_flags(java_home)
    chosen = jvm.ergonomics(text)
    try:
        with open(os.path.join(ROOT, "pom.xml")) as f:
            quarkus = re.search(r"<quarkus.platform.version>([^<]+)<", f.read()).group(1)
    except (OSError, AttributeError):
        quarkus = "unknown"
    props = app_properties()
    return Environment(
        started=time.strftime("%Y-%m-%d %H:%M:%S %z"),
        cpu_model=first_line("/proc/cpuinfo", "model name"), cores=psutil.cpu_count(),
        memory_gib=round(psutil.virtual_memory().total / 2**30, 1), load_average_at_start=os.getloadavg(),
        open_files_limit=raise_open_files(), os=platform.platform(),
        jdk=chosen["jvm"] or text.strip().splitlines()[-1],
        gc=f"{chosen['jvm_gc']} (JVM default)" if chosen["jvm_gc"] else "JVM default", quarkus=quarkus,
        limits={f"{what} ({key})": props.get(key, "not set: the built-in default")
                for key, what in LIMIT_PROPERTIES.items()},
        jdbc_pool_max=props.get("quarkus.datasource.jdbc.max-size", "20"), k6=k6_version,
        git_commit=subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                  text=True, timeout=10).stdout.strip() or None)
