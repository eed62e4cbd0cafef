"""The memory search and the heap per held request (--heap-search), after the load phase: each step a fresh app with
that -Xmx, warmed, measured at the case's load, stopped; the models' steps interleaved. What a step holds and how
the heap per held request is read: bench/README.md, "The memory search and --heap"."""
from __future__ import annotations

import dataclasses
import itertools
import os
import re
import threading
import time

import psutil

from benchlab.model import HeapStep, MemoryCase, MemoryStop, PlannedRun
from benchlab.plan import heap_search
from benchlab.plan.heap_search import HeapSearch, HeapSettings
from benchlab.plan.planner import run_props
from benchlab.project import ROOT, jvm_fatal_line
from benchlab.results import table
from benchlab.results.environment import HeapSearchRecord, HeldBytesRecord
from benchlab.run.measure.k6runs import K6Runs
from benchlab.run.measure.steps import Block, Steps
from benchlab.run.procs import log
from benchlab.run.provision import health, heaps
from benchlab.run.provision.jvm import NMT, jcmd_out, nmt_areas
from benchlab.run.provision.app import Apps, Services
from benchlab.run.state import BenchState
from benchlab.scenarios import SCENARIOS, variant_of

START_TIMEOUT_S = 90  # a fresh app answers in 6-8 s here; a heap so small that GC thrashes does not hang the search
# A step's app is thrown away: no drain worth waiting for (a worker pool with 800 sleeping requests queued took 16 s
# to stop on SIGTERM)
STOP_GRACE_S = 2.0
HELD_DRAIN_S = 60  # the worker pool works off 1,000 held 10 s requests, 200 at a time, in 40 s
HELD_WAIT_S = 0.7  # share of a hold, from the first connection on, within which all must be open for the snapshot
# (k6 opens 10,000 connections over several seconds; the first are held until the hold ends, after the snapshot)


def heap_used_mb(heap_info: str) -> float | None:
    """The heap in use from `jcmd PID GC.heap_info`: G1's "garbage-first heap total ..., used 23456K", or the
    generations' summed (Serial's DefNew and Tenured, Parallel's PSYoungGen and ParOldGen: each "total ..., used NK");
    None for a layout it does not know (ZGC)."""
    head = heap_info.split("Metaspace")[0]
    used = re.findall(r"^.*\btotal\b.*?\bused (\d+)K", head, flags=re.M)
    return round(sum(int(u) for u in used) / 1024, 1) if used else None


def nmt_threads(summary: str) -> tuple[float | None, int | None]:
    """Native Memory Tracking's Thread area from `jcmd PID VM.native_memory summary`: (committed MB, threads);
    (None, None) where NMT is off."""
    threads = re.search(r"-\s+Thread \(.*\n\s+\(threads #(\d+)\)", summary)
    return nmt_areas(summary).get("Thread"), int(threads.group(1)) if threads else None


def established(pid: int, port: int) -> int:
    """Connections open to the app's port: the requests held (each k6 VU keeps its own)."""
    try:
        return sum(1 for c in psutil.Process(pid).net_connections(kind="tcp")
                   if c.laddr and c.laddr.port == port and c.status == psutil.CONN_ESTABLISHED)
    except psutil.Error:
        return 0


class Memory:
    def __init__(self, state: BenchState, k6: K6Runs, apps: Apps, up: Services, runtime, java_home):
        """runtime: heap_mb, extra JVM options -> the host JVM runtime with that heap (heaps.with_heap)."""
        self.state, self.k6, self.apps, self.up = state, k6, apps, up
        self.runtime, self.java_home = runtime, java_home
        self.config = state.config
        self.cores = int(state.env.get("cores") or os.cpu_count() or 1)

    def run_all(self) -> None:
        for scenario, case in self.config.memory_cases:
            self.search(scenario, case)

    def models(self, scenario, case: MemoryCase) -> list[str]:
        return [m for m in self.config.models if m in variant_of(scenario, case.variant).models]

    def steps_for(self, scenario, case: MemoryCase) -> Steps:
        """Steps whose warm-up runs the case's warm-up load (not the scenario's: a small heap is what is searched),
        until steady or --warmup-others (the verdict read here is the heap's), outside the CPU budget: a step's app runs
        on the whole machine, whose CPUs the cases' loads were chosen for."""
        return Steps(dataclasses.replace(self.state, budgets={}), self.k6, self.up.sampled(),
                     warmup_cap=self.config.warmup_others, warmup_load=case.warmup_step)

    def search(self, scenario, case: MemoryCase) -> None:
        """Each model's heap search for the case, the models' steps interleaved (A B C, then C B A, ...)."""
        models = self.models(scenario, case)
        searches = {m: HeapSearch(HeapSettings()) for m in models}
        reference = {}  # model -> the largest heap's p99 where it was over the SLO (late, every request answered)
        for round_no in itertools.count():
            order = models if round_no % 2 == 0 else list(reversed(models))
            todo = [(m, heap) for m in order if (heap := searches[m].next_heap()) is not None]
            if not todo:
                break
            for model, heap in todo:
                # the first step, at the largest heap, is the reference; the heap per held request is measured on its
                # app, with Native Memory Tracking
                step, p99 = self.step(scenario, case, model, heap, round_no + 1, reference.get(model),
                                      first=not round_no, held_bytes=case.held_bytes and not round_no)
                if not round_no and step.held and p99 is not None and p99 > SCENARIOS[scenario].slo_p99_ms:
                    reference[model] = p99
                searches[model].record(step)
                log(f"memory {scenario} {case.step.label} {model}: -Xmx{heap}m "
                    + ("held" if step.held else f"did not hold ({step.stop.value}: {step.detail})"))
        for model, found in searches.items():
            broke = found.broke
            record = HeapSearchRecord(
                runtime=self.runtime(HeapSettings().high_mb, ()).base_name, scenario=scenario, variant=case.variant,
                load=case.step.label, model=model, end=found.end,
                held_mb=found.held, broke_mb=broke.heap_mb if broke else None, stop=broke.stop if broke else None,
                detail=broke.detail if broke else "", steps=list(found.steps),
                reference_p99_ms=reference.get(model))
            self.state.env.append("heap_searches", record)
            held = f"held at {found.held:g} MB" if found.held is not None else "held at no heap"
            broke = (f", not at {record.broke_mb:g} MB ({record.stop.value})" if record.broke_mb is not None
                     else ", broke at none")
            log(f"memory {scenario} {case.step.label} {model}: search ended ({found.end.value}) after "
                f"{len(found.steps)} steps: {held}{broke}")
            table.write(self.state.out, self.state.rows, self.state.env)

    def start(self, rt, scenario, case: MemoryCase, log_name):
        """A fresh app of the runtime, up to its first successful request and readiness, within START_TIMEOUT_S."""
        props = dict(self.up.app_props, **run_props(PlannedRun(0, rt.name, scenario, case.step, 0, "", 0,
                                                               case.variant)))
        t = time.time()
        proc = rt.start(self.state.pm, ROOT, rt.java_home or self.java_home, self.config.port, props,
                        self.up.child_env, os.path.join(self.state.logs, log_name))
        try:
            health.first_success(proc, self.state.base_url, self.config, self.up.tokens_file, t, START_TIMEOUT_S,
                                 f"app ({rt.name})")
            health.wait_ready(proc, f"{self.state.base_url}/q/health/ready", 30, f"app ({rt.name})")
        except RuntimeError:
            self.state.pm.stop(proc)
            raise
        return proc

    def warm(self, app, rt, scenario, case: MemoryCase, model, label) -> None:
        warm = PlannedRun(0, rt.name, scenario, case.warmup_step, 0, model, self.config.warmup,
                          case.warmup_variant or case.variant)
        block = Block(app, rt.probe(app), self.state.base_url, self.up.tokens_file, restart=None, db_url=None)
        self.steps_for(scenario, case).warm_up(block, warm, label, models=[model])  # the step's app is the model's

    def step(self, scenario, case: MemoryCase, model, heap_mb, round_no, reference_p99_ms=None, first=False,
             held_bytes=False) -> tuple[HeapStep, float | None]:
        """One step: a fresh app with that heap, warmed, measured at the case's load, stopped; its outcome and p99.
        first: the reference step, whose latency is its own bar (heap_search.step_stop); held_bytes: the app runs with
        Native Memory Tracking, and the heap per held request is measured on it (HeldSnapshot)."""
        rt = self.runtime(heap_mb, (NMT,) if held_bytes else ())
        name = f"{rt.name}-{scenario}-{model}"
        try:
            app = self.start(rt, scenario, case, f"app-memory-{name}.log")
        except RuntimeError as e:
            said = jvm_fatal_line(heaps.read_log(os.path.join(self.state.logs, f"app-memory-{name}.log"))) or str(e)
            return HeapStep(heap_mb, MemoryStop.START, said), None
        try:
            try:
                self.warm(app, rt, scenario, case, model, "memwarm")
                health.wait_drained(app, self.state.base_url)
            except RuntimeError:
                if app.alive():
                    raise
            if not app.alive():  # ended before its measured run: out of memory, or too small a heap to run at all
                oom = heaps.died_of_oom(app)
                said = oom or jvm_fatal_line(heaps.log_text(app)) or app.exit_info()
                return HeapStep(heap_mb, MemoryStop.OOM if oom else MemoryStop.START,
                                f"before the measured run: {said}"), None
            run = PlannedRun(0, rt.name, scenario, case.step, round_no, model, self.config.duration, case.variant)
            # the idle snapshot before the measured run: after it a worker pool keeps the threads it started
            held = HeldSnapshot(self, rt, app, scenario, case) if held_bytes else None
            row = self.k6.measure(run, rt.probe(app), self.state.base_url, self.up.tokens_file, self.up.sampled())
            row.heap_mb, row.memory_search, row.oom = heap_mb, True, heaps.died_of_oom(app)
            row.app_cpus = None  # a step's app runs outside --app-cpus' budget (steps_for): its why names none
            self.state.rows.append(row)
            table.write(self.state.out, self.state.rows, self.state.env)
            if not app.alive() and not row.oom:
                raise RuntimeError(f"the app died during {row.tag}, not of an OutOfMemoryError: {app.exit_info()}; "
                                   f"see {app.log_path}")
            values = dict(dataclasses.asdict(row), scenario=scenario)
            stop = heap_search.step_stop(values, oom=row.oom,
                                         reference_p99_ms=row.p99_ms if first else reference_p99_ms)
            step = HeapStep(heap_mb, stop, heap_search.stop_detail(stop, values, self.cores, row.oom), row.tag,
                            row.rss_peak_mb, row.errors + row.dropped)
            if held is not None and app.alive():  # after the measured run, so that its full GCs do not delay it
                self.held_bytes(held, app, run, heap_mb)
            return step, row.p99_ms
        except health.StillBusy as e:
            return HeapStep(heap_mb, MemoryStop.SLO, f"still busy 15 s after the warm-up: {e}"), None
        finally:
            self.state.pm.stop(app, grace=STOP_GRACE_S)


    def held_bytes(self, held: HeldSnapshot, app, run: PlannedRun, heap_mb) -> None:
        """The heap per held request on a step's drained app: against the idle snapshot taken before its measured run, a
        full GC with the case's connections held by a k6 run of its own. A backlog the measured run left (the worker
        pool's queued holds) is awaited up to HELD_DRAIN_S."""
        try:
            health.wait_drained(app, self.state.base_url, timeout=HELD_DRAIN_S)
        except health.StillBusy:
            log(f"held {run.scenario} {run.model}: the app was still busy {HELD_DRAIN_S} s after its measured run: no "
                f"heap per held request")
            return
        held.start()
        self.k6.k6(dataclasses.replace(run, seconds=1), 1, self.state.base_url, self.up.tokens_file,
                   f"held-{run.tag}")
        held.record(run.model, heap_mb)


class HeldSnapshot:
    """The heap per held request on a step's app: a full GC on the idle, warmed app (taken at once, before the measured
    run), then (start()), in a thread beside a k6 run that holds the case's connections, one with them open (jcmd GC.run, GC.heap_info,
    VM.native_memory summary), within the first part of the hold; record() waits for it and keeps the record."""

    def __init__(self, memory: Memory, rt, app, scenario, case: MemoryCase):
        self.memory, self.rt, self.app, self.scenario, self.case = memory, rt, app, scenario, case
        self.jcmd = os.path.join(rt.java_home or memory.java_home, "bin", "jcmd")
        self.port = memory.config.port
        self.idle = snapshot(self.jcmd, app.pid, self.port)
        self.held = None
        self.thread = threading.Thread(target=self.when_held, daemon=True)

    def start(self) -> None:
        """Waits, beside the k6 run that holds the connections, for them to open, then takes the held snapshot."""
        self.thread.start()

    def when_held(self):
        connections = int(self.case.step.value)
        hold_s = heap_search.run_seconds(self.scenario, self.case, 0)
        # k6 starts its VUs first (seconds for thousands), then they all send at once: from the first connection on,
        # every request must be open well within the hold
        first = time.time() + 120
        while time.time() < first and established(self.app.pid, self.port) == 0 and self.app.alive():
            time.sleep(0.1)
        deadline = time.time() + HELD_WAIT_S * hold_s
        while time.time() < deadline and established(self.app.pid, self.port) < connections and self.app.alive():
            time.sleep(0.2)
        if self.app.alive():
            self.held = snapshot(self.jcmd, self.app.pid, self.port)

    def record(self, model, heap_mb) -> None:
        self.thread.join(timeout=60)
        idle, held = self.idle, self.held or {}
        record = HeldBytesRecord(
            runtime=self.rt.name, scenario=self.scenario, variant=self.case.variant, model=model,
            connections=int(self.case.step.value), held=held.get("connections", 0), heap_max_mb=heap_mb,
            heap_idle_mb=idle["heap_mb"], heap_held_mb=held.get("heap_mb"), threads_idle=idle["threads"],
            threads_held=held.get("threads"), thread_native_idle_mb=idle["thread_mb"],
            thread_native_held_mb=held.get("thread_mb"), rss_idle_mb=idle["rss_mb"], rss_held_mb=held.get("rss_mb"))
        self.memory.state.env.append("held_bytes", record)
        per = record.heap_bytes_per_held
        log(f"held {self.scenario} {model}: {record.held} connections held, heap after a full GC "
            f"{record.heap_idle_mb} -> {record.heap_held_mb} MB"
            + (f" ({per / 1024:.1f} KB per held request)" if per is not None else "")
            + f", threads {record.threads_idle} -> {record.threads_held}, thread native (NMT) "
            f"{record.thread_native_idle_mb} -> {record.thread_native_held_mb} MB, RSS {record.rss_idle_mb} -> "
            f"{record.rss_held_mb} MB")


def snapshot(jcmd, pid, port) -> dict:
    """After a full GC (jcmd GC.run): the heap in use, the threads' native memory and count (NMT), the RSS, and the
    connections open to the app."""
    jcmd_out(jcmd, pid, "GC.run")
    heap = heap_used_mb(jcmd_out(jcmd, pid, "GC.heap_info"))
    thread_mb, threads = nmt_threads(jcmd_out(jcmd, pid, "VM.native_memory", "summary"))
    try:
        rss = round(psutil.Process(pid).memory_info().rss / 2**20, 1)
    except psutil.Error:
        rss = None
    return {"heap_mb": heap, "thread_mb": thread_mb, "threads": threads, "rss_mb": rss,
            "connections": established(pid, port)}
