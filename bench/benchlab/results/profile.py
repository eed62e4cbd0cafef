"""Where a model's CPU and allocations go (--profile): async-profiler's collapsed stacks of a profiled run, each stack
put in one component by a classifier defined here once, and summed per component.

A stack belongs to the component of its innermost frame that names one (leaf first, so that a HashMap inside
Hibernate counts as ORM, and HMAC inside jose4j as JWT). The JDK's and the kernel's frames name none. Netty's and
Vert.x core's transport frames name HTTP only where nothing else on the stack names a component: the reactive
driver writes through Netty too. GC, and a few frames that own all they call (OWNERS), count anywhere on the stack."""
from __future__ import annotations

import gzip
import os
from collections import Counter
from dataclasses import dataclass

import pandas as pd

from benchlab.model import LoadKind

EVENTS = ("cpu", "alloc")  # async-profiler's events of a profiled run: CPU time (ns), allocated bytes

HTTP = "HTTP (Vert.x, Quarkus REST, CDI)"
JWT = "JWT verification"
ORM = "ORM and driver"
JSON = "JSON"
METRICS = "metrics and the lab's filters"
CLIENT = "REST client (downstream calls)"
SCHEDULING = "threads and scheduling"
GC = "GC"
REST = "the rest (JIT, JVM, kernel)"
COMPONENTS = (HTTP, JWT, ORM, JSON, METRICS, CLIENT, SCHEDULING, GC, REST)

# A frame's component: the first prefix it starts with, in this order (the REST client's Vert.x classes before the
# HTTP server's). Frames are written with dots (async-profiler writes slashes).
STRONG = (
    (JWT, ("io.smallrye.jwt.", "org.jose4j.", "io.quarkus.smallrye.jwt.", "io.quarkus.security.",
           "io.quarkus.vertx.http.runtime.security.", "io.concurrencylab.security.")),
    (JSON, ("com.fasterxml.jackson.", "io.quarkus.resteasy.reactive.jackson.", "org.jboss.resteasy.reactive.server.jackson.",
            "io.quarkus.jackson.")),
    (ORM, ("org.hibernate.", "io.quarkus.hibernate.", "com.mysql.", "io.vertx.mysqlclient.", "io.vertx.sqlclient.",
           "io.agroal.", "io.quarkus.agroal.", "io.quarkus.reactive.datasource.", "io.quarkus.reactive.mysql.",
           "io.quarkus.narayana.", "com.arjuna.", "io.concurrencylab.user.")),
    (METRICS, ("io.micrometer.", "io.quarkus.micrometer.", "io.prometheus.", "io.concurrencylab.overload.",
               "io.concurrencylab.observability.")),
    (CLIENT, ("org.jboss.resteasy.reactive.client.", "io.quarkus.rest.client.", "io.quarkus.restclient.",
              "io.vertx.core.http.impl.HttpClient", "io.vertx.core.http.impl.Http1xClient",
              "io.vertx.core.http.impl.Http2Client", "io.concurrencylab.aggregation.")),
    (SCHEDULING, ("java.lang.VirtualThread", "jdk.internal.vm.Continuation", "java.util.concurrent.ForkJoin",
                  "java.util.concurrent.locks.LockSupport", "java.util.concurrent.CompletableFuture",
                  "java.util.concurrent.ThreadPoolExecutor", "org.jboss.threads.", "io.smallrye.mutiny.",
                  "io.smallrye.context.", "io.quarkus.virtual.threads.", "io.vertx.core.impl.WorkerContext",
                  "io.vertx.core.impl.TaskQueue", "Unsafe_Park", "Unsafe_Unpark", "Parker::")),
    (HTTP, ("org.jboss.resteasy.reactive.", "io.quarkus.resteasy.reactive.", "io.quarkus.vertx.http.",
            "io.quarkus.vertx.core.", "io.vertx.core.http.", "io.vertx.ext.web.", "io.netty.handler.codec.http.",
            "io.quarkus.arc.", "io.concurrencylab.virtual.", "io.concurrencylab.worker.",
            "io.concurrencylab.reactive.", "io.concurrencylab.error.")),
)
WEAK = ((HTTP, ("io.netty.", "io.vertx.core.")),)
# Frames whose whole subtree is their component's, wherever they stand: Quarkus REST matching a route again to name the
# metrics' URI template runs the HTTP router's own code.
OWNERS = ((METRICS, ("io.quarkus.resteasy.reactive.server.runtime.observability.",)),)
GC_FRAMES = ("VM_GenCollect", "VM_G1", "VM_CollectForAllocation", "G1", "SerialHeap::", "DefNewGeneration",
             "TenuredGeneration", "GCTaskThread", "WorkerThread::run", "ConcurrentGCThread", "PSScavenge",
             "ParallelScavengeHeap")


def frame_component(frame: str, rules) -> str | None:
    for component, prefixes in rules:
        if frame.startswith(prefixes):
            return component
    return None


def classify(stack: list[str]) -> str:
    """The component of a stack, its frames from the root to the leaf."""
    frames = [f.replace("/", ".") for f in stack]
    if any(any(g in f for g in GC_FRAMES) for f in frames):
        return GC
    for frame in frames:
        if (component := frame_component(frame, OWNERS)) is not None:
            return component
    for rules in (STRONG, WEAK):
        for frame in reversed(frames):
            if (component := frame_component(frame, rules)) is not None:
                return component
    return REST


def read_collapsed(path: str) -> Counter:
    """Each component's total (ns of CPU, bytes allocated) in one collapsed-stacks file ("root;...;leaf count")."""
    totals = Counter()
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if stack and count.isdigit():
                totals[classify(stack.split(";"))] += int(count)
    return totals


@dataclass(frozen=True)
class Breakdown:
    """One profiled run: where its CPU (ns) or allocations (bytes) went, per component, and the requests it served."""
    scenario: str
    runtime: str
    model: str
    event: str
    rate: float
    totals: dict[str, float]
    requests: float  # successful requests while the profiler recorded

    @property
    def total(self) -> float:
        return sum(self.totals.values())

    def share(self, component: str) -> float:
        return self.totals.get(component, 0) / self.total if self.total else 0.0

    def per_request(self, component: str) -> float:
        """The component's ns or bytes per successful request."""
        return self.totals.get(component, 0) / self.requests if self.requests else float("nan")


def breakdowns(runs: pd.DataFrame, out: str) -> list[Breakdown]:
    """Every profiled run of the table whose collapsed stacks are in the results directory `out`."""
    rows = runs[(runs.load_model == LoadKind.PROFILE) & runs.get("profile", pd.Series(dtype=object)).notna()]
    found = []
    for _, r in rows.iterrows():
        path = os.path.join(out, r.profile)
        if os.path.isfile(path):
            found.append(Breakdown(r.scenario, r.runtime, r.model, event_of(r.tag), float(r.load),
                                   dict(read_collapsed(path)),
                                   float(r.ok_rps * r.planned_s)))
    return found


def event_of(tag: str) -> str:
    """A profiled run's event, from its tag (PlannedRun.tag: ...-profile1000-cpu-r1)."""
    return next(e for e in EVENTS if f"-{e}-r" in tag)
