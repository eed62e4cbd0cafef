"""bench/run: arguments and presets, then plan -> run -> results -> report. See bench/README.md."""
import argparse
import dataclasses
import math
import os
import re
import shlex
import subprocess
import sys
import time

from benchlab.config import POD_CPU_PERIOD_MS, POD_MEMORY_MB, PRESETS, Config
from benchlab.formatting import duration
from benchlab.model import (MODELS, SOAK_SHARE, Build, CpuSplit, Jdk, Load, LoadKind, RuntimeSpec, Variant, cpu_split,
                            size_mb)
from benchlab.plan.planner import USUAL_SEARCH_STEPS, make_plan, start_up_seconds
from benchlab.results.profile import EVENTS as PROFILE_EVENTS
from benchlab.project import ROOT
from benchlab.report import footprint
from benchlab.run.procs import log
from benchlab.plan import heap_search
from benchlab.run.provision import budget, haproxy, heaps, jvm, runtimes
from benchlab.scenarios import SCENARIOS, scale_out, variant_of


def parse_loads(text):
    levels = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        if item in (LoadKind.SOAK, LoadKind.SCALE_OUT):  # held at SOAK_SHARE of the capacity its search finds
            levels.append(Load(LoadKind(item), 0.0))
            continue
        m = re.fullmatch(r"(?:(vus|rate|open|search|cost|soak|scale-out):)?(\d+(?:\.\d+)?)", item)
        if not m or (m.group(2) and float(m.group(2)) <= 0):
            raise SystemExit(f"bad load level {item!r}: use a rate (200), vus:N (vus:50), search:START (search:100), "
                             f"cost:RATE (cost:300), soak:RATE or soak (a soak at its search's capacity), "
                             f"scale-out:RATE or scale-out")
        kind = {"vus": LoadKind.CLOSED, "search": LoadKind.SEARCH, "cost": LoadKind.COST,
                "soak": LoadKind.SOAK, "scale-out": LoadKind.SCALE_OUT}.get(m.group(1), LoadKind.OPEN)
        levels.append(Load(kind, float(m.group(2))))
    kinds = [level.kind for level in levels]
    if LoadKind.SEARCH in kinds and (kinds.count(LoadKind.SEARCH) > 1 or LoadKind.OPEN in kinds):
        raise SystemExit(f"bad loads {text!r}: a search (search:START) finds the arrival rates itself: one search, "
                         f"beside closed-model levels (vus:N) and cost rates (cost:RATE) only")
    rates = [level.value for level in levels if level.kind == LoadKind.COST]
    if len(set(rates)) < len(rates):
        raise SystemExit(f"bad loads {text!r}: a cost rate (cost:RATE) given twice")
    if not levels:
        raise SystemExit("no load levels given")
    return levels


def compares_runtimes(specs) -> bool:
    """Cold starts and the warm-up curve cost minutes per runtime; by default they are measured only where runtimes
    are compared: several of them, or the AOT cache (whose point is the start-up). A plain run (CI's --quick) keeps
    its duration."""
    return len(specs) > 1 or any(spec.base == runtimes.JvmAotRuntime.name for spec in specs)


def split_list(text, known, what):
    items = [x.strip() for x in text.split(",") if x.strip()]
    unknown = [x for x in items if x not in known]
    if unknown or not items:
        raise SystemExit(f"unknown or no {what} {unknown}; known: {', '.join(known)}")
    return items


def parser():
    p = argparse.ArgumentParser(prog="bench/run", description="Compare the virtual, worker and reactive models "
                                "of the Quarkus Concurrency Lab app under k6 load, and write a report.")
    add_what_runs(p)
    add_runtime_options(p)
    add_app_and_k6_options(p)
    p.add_argument("--report-only", action="store_true", help="re-render the report from --out DIR")
    p.add_argument("--compare", nargs=2, metavar=("DIR_A", "DIR_B"), help="is B faster, slower or not detectably "
                   "different from A, per scenario, model and load")
    p.add_argument("--self-test", action="store_true", help="run the bench's own tests (pytest bench/tests)")
    return p


def add_what_runs(p):
    p.add_argument("--quick", action="store_true", help="the CI preset: the two core cases, 18 to 20 minutes here")
    p.add_argument("--out", help="output directory (default: bench-results/<timestamp>)")
    p.add_argument("--scenarios", help="comma list of: " + ",".join(SCENARIOS) + " (default: the preset's)")
    p.add_argument("--variants", dest="variants_given", action="append", default=[], metavar="SCENARIO=NAMES",
                   help="a scenario's app configurations, e.g. pool-sweep=pool-4,pool-16 or aggregate=,http2 (an "
                        "empty name: the app as configured); default: the preset's, without opt-in ones")
    p.add_argument("--models", default=",".join(MODELS), help="comma list of: " + ",".join(MODELS))
    p.add_argument("--loads", action="append", default=[], metavar="[SCENARIO=]LOADS",
                   help="arrival rates (50,100,200), closed-model VUs (vus:N), a capacity search from START "
                        "requests/s (search:START) or cost rates (cost:RATE; the verdict is read at the highest); per scenario "
                        "with SCENARIO=")
    p.add_argument("--duration", type=float, help="seconds per measured run")
    p.add_argument("--warmup", type=float, help="the longest warm-up per scenario x model where a verdict is read (a "
                   "search, a cost rate), in seconds; it ends once the app is steady")
    p.add_argument("--warmup-others", type=float, metavar="S", help="the same for the scenarios measured at fixed "
                   "loads only")
    p.add_argument("--repeat", type=int, help="repetitions, interleaved")
    p.add_argument("--cost-repeat", type=int, metavar="N", help="interleaved repetitions of the verdict's cost rate "
                   "(at least 3), with an A/A twin, up to twice as many where a verdict is undecided; a lower cost "
                   "rate gets half as many, at least 2")
    p.add_argument("--cost-duration", type=float, metavar="S", help="seconds per cost run")
    p.add_argument("--max-interference", type=float, metavar="PCT", default=25.0, help="other processes' CPU and "
                   "steal, in %% of one core, above which a step is measured again or flagged (default 25)")
    p.add_argument("--cooldown", type=float, help="pause between runs, seconds")
    p.add_argument("--soak-minutes", type=float, metavar="M", help="a soak's length per model (--scenarios soak); "
                   "default 20 (quick: 3)")


def add_runtime_options(p):
    p.add_argument("--runtime", default="jvm", help="comma list of: " + ",".join(runtimes.RUNTIMES) + " (jvm-aot: "
                   "the JDK 25 AOT cache of ./mvnw verify -Daot)")
    p.add_argument("--jdk", metavar="LIST", help="JDKs for jvm and jvm-aot, taking turns: a feature version (21, 25; "
                   "as bench/jdk finds it) or a JDK's home; each a runtime of its own (default: the JDK ./mvnw finds)")
    p.add_argument("--cold-starts", type=int, metavar="N", help="per runtime, at most N fresh starts, each stopped at "
                   "its first successful request (default: 5 where runtimes are compared, else 0)")
    p.add_argument("--cold-start-budget", type=float, metavar="S", help="per runtime, no cold start begins once its "
                   "cold starts took S seconds; the first always does (default 300; quick: 60)")
    p.add_argument("--warmup-curve", type=float, metavar="S", help="per runtime, successful requests/s over the first "
                   f"S seconds on a fresh app; 0 or at least {footprint.SHORTEST_CURVE_S} (default: 60 where runtimes "
                   "are compared, else 0)")
    p.add_argument("--heap", metavar="LIST", help="maximum heaps, e.g. 64m,128m,1g: each heap x runtime a runtime of "
                   "its own, jvm-heap64m; the app ends at its first OutOfMemoryError")
    p.add_argument("--heap-search", action=argparse.BooleanOptionalAction, help="per model and memory case, the "
                   "smallest heap (32 MB to 2 GB, to 15 %%) a fresh, warmed app holds the load with; with --scenarios, "
                   "their memory search alone (default: on in the default preset, off in quick)")
    p.add_argument("--builds", metavar="NAME=PATH [OPTIONS],...", help="other builds of the app, each a runtime taking "
                   "turns with this build: beside jvm, another checkout's target/quarkus-app (jvm-NAME); beside "
                   "native, another executable (native-NAME); OPTIONS are its process's (-Xmn128m), so the same PATH "
                   "with options is a build too: a change measured against the version before in one interleaved run")
    p.add_argument("--native-exe", metavar="PATH", help="native executable for the 'native' runtime")
    p.add_argument("--cpus", help="CPU limit of the container runtimes")
    p.add_argument("--memory", help="memory limit of the container runtimes (e.g. 512m)")
    p.add_argument("--base-image", help="base image for the container runtimes")
    p.add_argument("--app-cpus", metavar="N[,N...]", help="the app's CPU budget, as a Kubernetes CPU limit: N CPUs "
                   "(0.5, 2), or 'none' for the whole machine (default: 0.5); a list (0.25,0.5) makes each size a pod of "
                   "its own, a runtime per size (jvm-cpu0.25)")
    p.add_argument("--app-memory", metavar="SIZE", help="the pod's memory limit beside --app-cpus (512m, 1g), a cgroup "
                   "the JVM sizes its heap from; 'none' for no limit (default: 512m for a list of sizes, else none)")
    p.add_argument("--target-load", metavar="RATE", default="5000", help="where runtimes are compared: the load "
                   "in requests/s that the report sizes each runtime's replicas, cores and GB for (default 5000)")
    p.add_argument("--app-cpuset", metavar="LIST", help="the app's CPUs (taskset's list: 1, 4-7); k6, the database, "
                   "the other services and the bench get the rest; none: every process on every CPU (default: the "
                   "last ceil(N) CPUs of an app within N CPUs, where the machine has more)")
    p.add_argument("--app-cpu-period", type=float, metavar="MS", help="the CPU quota's period in ms (default 10; "
                   "100, the kubelet's, for a list of sizes)")
    p.add_argument("--price-core-hour", metavar="USD", help="where runtimes are compared: the price of a core for an "
                   "hour, for the decision table's monthly bill (with --price-gb-hour; default: none, no cost shown)")
    p.add_argument("--price-gb-hour", metavar="USD", help="the price of a GB of the pod's memory for an hour (with "
                   "--price-core-hour)")
    p.add_argument("--rebuild", action="store_true", help="run the Maven package even if the jar exists")
    p.add_argument("--jvm-args", default="", help="extra JVM options for the app, e.g. '-Xmx1g'")


def add_app_and_k6_options(p):
    p.add_argument("--users", type=int, help="users seeded (and tokens signed)")
    p.add_argument("--timeout", type=float, help="k6 request timeout, seconds")
    p.add_argument("--max-vus", type=int, help="open model: k6 MAX_VUS (default: the script's own sizing)")
    p.add_argument("--pointselect-seconds", type=float, help="length of the database point-select measurement")
    p.add_argument("--jwt", choices=("hs256", "rs256"), default="hs256", help="token signature (fresh key per run)")
    p.add_argument("--db-url", help="use this MySQL/MariaDB JDBC URL instead of the project's embedded MariaDB")
    p.add_argument("--db-user", default="lab")
    p.add_argument("--db-password", default="lab")
    p.add_argument("--port", type=int, default=19100, help="app port; downstream uses port+1, k6's API port+2")
    p.add_argument("--k6-dir", default=os.path.join(ROOT, "k6"), help="directory with the k6 scripts")
    p.add_argument("--live", action="store_true", help="watch each k6 run live in k6's web dashboard, "
                   "http://127.0.0.1:5665 (K6_WEB_DASHBOARD)")
    p.add_argument("--flamegraph", choices=("cpu", "wall"), help="record an async-profiler flame graph of the app "
                   "per run (jvm runtime), as flamegraphs/<run>-<event>.html beside the report")
    p.add_argument("--profile", action="store_true", help="after the verdict's cost rate, one more run per model and "
                   "async-profiler event (cpu, alloc) on the first runtime (a host JVM): each model's CPU and "
                   "allocation per request by component (profiles/<run>.collapsed beside the report)")
    p.add_argument("--target", metavar="URL", help="measure an app started elsewhere (no database, downstream or "
                   "app is started; no process figures)")
    p.add_argument("--tokens", metavar="FILE", help="with --target: tokens signed with the target's key")


def parse_args(argv) -> Config:
    """The command line, with the preset's defaults filled in and every combination checked, as one Config."""
    p = parser()
    args = p.parse_args(argv)
    args.command_line = "bench/run " + " ".join(shlex.quote(a) for a in argv)
    args.preset = "quick" if args.quick else "default"
    preset = PRESETS[args.preset]
    args.heap_search_given = args.heap_search is True  # asked for, not the preset's
    fill_in(args, preset.defaults(runtimes_compared=False))
    in_preset = {s: scenario.in_preset(args.preset) for s, scenario in SCENARIOS.items()}
    named = args.scenarios is not None
    args.scenarios = tuple(split_list(args.scenarios or ",".join(s for s, chosen in in_preset.items() if chosen.selected),
                                      SCENARIOS, "scenario"))
    args.variants = chosen_variants(p, args.variants_given, in_preset)
    args.models = tuple(split_list(args.models, MODELS, "model"))
    args.runtimes = chosen_runtimes(p, args)
    args.load_levels = chosen_loads(p, args.loads, in_preset, args.scenarios, args.variants, args.preset)
    args.memory_cases = chosen_memory_cases(p, args, in_preset, named)
    if args.heap_search_given and named:
        # a memory search asked for: the scenarios searched run their memory cases, and their loads only where --loads
        # names them
        loaded = {spec.rpartition("=")[0] or "*" for spec in args.loads}
        args.load_levels = {s: levels for s, levels in args.load_levels.items()
                            if "*" in loaded or s in loaded or s not in dict(args.memory_cases)}
    check_the_rest(p, args)
    check_scale_out(p, args)
    compared = compares_runtimes(args.runtimes)
    fill_in(args, preset.defaults(compared))
    fill_in(args, dict(cold_starts=0, cold_start_budget=0, warmup_curve=0))  # not measured by default on one runtime
    sizes = any(spec.cpus is not None for spec in args.runtimes)
    args.app_cpus = None if sizes else app_cpus(p, args.app_cpus, os.cpu_count() or 1, bool(args.target))
    args.app_memory_mb = app_memory(p, args.app_memory, sizes, args.app_cpus is not None)
    args.cpu_split = chosen_cpu_split(p, args, max((spec.cpus for spec in args.runtimes if spec.cpus is not None),
                                                   default=args.app_cpus))
    if args.cpu_split:
        args.runtimes = tuple(dataclasses.replace(spec, cpuset=args.cpu_split.app) for spec in args.runtimes)
    if sizes:  # each pod's memory limit beside its CPUs
        args.runtimes = tuple(dataclasses.replace(spec, memory_mb=args.app_memory_mb) for spec in args.runtimes)
    args.target_load = target_load(p, args.target_load)
    args.price_core_hour, args.price_gb_hour = prices(p, args.price_core_hour, args.price_gb_hour)
    # a pod at the kubelet's period, unless given; one size at the bench's, where its knee is the CPU's
    args.app_cpu_period = args.app_cpu_period or (POD_CPU_PERIOD_MS if sizes else budget.PERIOD_US / 1000)
    check_start_up(p, args)
    args.out = os.path.abspath(args.out or os.path.join(ROOT, "bench-results", time.strftime("%Y%m%d-%H%M%S")))
    args.jvm_args = tuple(shlex.split(args.jvm_args))
    args.target = args.target.rstrip("/") if args.target else None
    args.compare = tuple(args.compare) if args.compare else None
    return Config.of(args)


def fill_in(args, defaults: dict) -> None:
    """The options not given on the command line (None) from the defaults."""
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)


def chosen_variants(p, given, in_preset) -> dict[str, list[str]]:
    variants = {s: list(chosen.variants) for s, chosen in in_preset.items() if chosen.variants is not None}
    for spec in given:
        scen, sep, names = spec.partition("=")
        if not sep or scen not in SCENARIOS:
            p.error(f"--variants: SCENARIO=NAMES with a scenario among {', '.join(SCENARIOS)}")
        known = [v.name for v in SCENARIOS[scen].variants]
        chosen = [n.strip() for n in names.split(",")]
        if [n for n in chosen if n not in known]:
            p.error(f"--variants {scen}: unknown {[n for n in chosen if n not in known]}; known: {known}")
        variants[scen] = chosen
    return variants


def chosen_runtimes(p, args) -> tuple[RuntimeSpec, ...]:
    """The runtimes: each one given, with --jdk at each JDK, with --heap at each heap, with --app-cpus' sizes at each
    size; with --builds this build and each other one."""
    specs = [RuntimeSpec("target")] if args.target else \
        [RuntimeSpec(name) for name in split_list(args.runtime, runtimes.RUNTIMES, "runtime")]
    if args.jdk:
        if args.target or [s for s in specs if s.base not in runtimes.HOST_JVM_RUNTIMES]:
            p.error(f"--jdk: the JDK of {', '.join(runtimes.HOST_JVM_RUNTIMES)} only (a container brings its own, "
                    f"a native executable needs none)")
        on_jdks = {}  # by name: a JDK given twice, as a version and as its home, is one runtime (the last one given)
        for item in (x.strip() for x in args.jdk.split(",") if x.strip()):
            version, home = (int(item), None) if item.isdigit() else (jvm.feature_version(item), item)
            if version is None or (home and not os.access(os.path.join(home, "bin", "java"), os.X_OK)):
                p.error(f"--jdk {item}: not a feature version (21) nor a JDK's home (bin/java and a release file)")
            for spec in specs:
                on_jdk = dataclasses.replace(spec, jdk=Jdk(version, home))
                on_jdks[on_jdk.name] = on_jdk
        specs = list(on_jdks.values())
    if args.builds:
        base = specs[0].base
        if [s.name for s in specs] not in ([runtimes.JvmRuntime.name], [runtimes.NativeRuntime.name]) or args.jdk \
                or args.heap:
            p.error("--builds takes turns with the jvm or the native runtime alone: not with another --runtime, --jdk "
                    "or --heap")
        wanted = "a packaged app directory (its quarkus-run.jar)" if base == runtimes.JvmRuntime.name else \
            "a native executable"
        builds = {}  # by name: a build given twice is the last one given
        for item in (x.strip() for x in args.builds.split(",") if x.strip()):
            name, sep, spec = item.partition("=")
            path, *options = shlex.split(spec) or [""]
            path = os.path.abspath(path)
            found = os.path.isfile(os.path.join(path, "quarkus-run.jar")) if base == runtimes.JvmRuntime.name else \
                os.path.isfile(path) and os.access(path, os.X_OK)
            if not sep or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name) or not found:
                p.error(f"--builds {item}: NAME=PATH [OPTIONS] with a lower-case name and, beside --runtime {base}, "
                        f"{wanted}")
            builds[name] = RuntimeSpec(base, build=Build(name, path, tuple(options)))
        specs += builds.values()
    if args.heap:
        try:
            specs = heaps.heap_runtimes(specs, args.heap)
        except ValueError as e:
            p.error(str(e))
        if args.memory and any(runtimes.RUNTIMES[s.base].container for s in specs):
            p.error("--heap gives a container twice the heap as its memory limit, as a pod: not with --memory")
    specs = pod_sizes(p, args, specs) or specs
    packaged = [s for s in args.scenarios if any(v.driver for v in SCENARIOS[s].variants)]
    # the drivers' packagings of this app, on any JDK: not another build, a heap or a pod of its own
    on_other = [s.name for s in specs if dataclasses.replace(s, jdk=None) != RuntimeSpec(runtimes.JvmRuntime.name)]
    if packaged and on_other:
        p.error(f"--scenarios {','.join(packaged)} packages the app with each MySQL driver: the jvm runtime only (not "
                f"{', '.join(on_other)}); use --jdk for other JDKs")
    return tuple(specs)


def chosen_loads(p, given, in_preset, scenarios, variants, preset) -> dict[str, list[Load]]:
    """Each scenario's loads: the preset's (a chosen variant's own, where it has them), else --loads'."""
    loads = {s: parse_loads(dict(one_variant(s, variants).preset_loads).get(preset) or chosen.loads)
             for s, chosen in in_preset.items()}
    for spec in given:
        scen, sep, levels = spec.rpartition("=")
        if sep and scen not in SCENARIOS:
            p.error(f"--loads: unknown scenario {scen!r}")
        for s in ([scen] if sep else SCENARIOS):
            loads[s] = parse_loads(levels)
    for s in scenarios:
        own = SCENARIOS[s].held_load
        if own:
            loads[s] = held_loads(p, s, loads[s], variants, own)
        for held in {LoadKind.SOAK, LoadKind.SCALE_OUT} - {own}:
            if any(level.kind == held for level in loads[s]):
                p.error(f"--loads {s}: a {held} ({held}:RATE) is the {held} scenario's load (--scenarios {held})")
    return {s: loads[s] for s in scenarios}


def one_variant(scenario: str, variants: dict[str, list[str]]) -> Variant:
    """The variant chosen for a scenario where it is one (else its first): whose own loads apply."""
    chosen = variants.get(scenario) or []
    return variant_of(scenario, chosen[0]) if len(chosen) == 1 else SCENARIOS[scenario].variants[0]


def held_loads(p, scenario: str, levels: list[Load], variants: dict[str, list[str]], kind: LoadKind) -> list[Load]:
    """A soak's or a scale-out's loads (`kind`): a rate (200, soak:200), or a search and the held load at its
    capacity's share; one case at a time."""
    if len(variants.get(scenario) or [""]) > 1:
        p.error(f"--variants {scenario}: one case at a time (a {kind} holds each model for minutes)")
    levels = [Load(kind, level.value) if level.kind == LoadKind.OPEN else level for level in levels]
    kinds = [level.kind for level in levels]
    if kinds.count(kind) != 1 or not set(kinds) <= {kind, LoadKind.SEARCH} \
            or (LoadKind.SEARCH in kinds) != (levels[-1].value == 0) or levels[-1].kind != kind:
        p.error(f"--loads {scenario}: one rate (--loads {scenario}=600), or a search and the {kind} at "
                f"{SOAK_SHARE * 100:g} % of its capacity (--loads {scenario}=search:500,{kind})")
    return levels


def chosen_memory_cases(p, args, in_preset, named: bool) -> tuple:
    """The memory search's (scenario, case) pairs: with --scenarios every case of the scenarios named, else the
    preset's selected ones; none without --heap-search. The search sets the heap itself and reads it with jcmd, so it
    runs on the first host JVM runtime: asked for on another, it is refused; the default preset's leaves it out."""
    if not args.heap_search:
        return ()
    cases = tuple((s, case) for s in (args.scenarios if named else SCENARIOS) for case in in_preset[s].memory
                  if named or case.selected)
    host = heaps.search_base(args.runtimes)
    explicit = args.heap_search_given
    problem = ("--heap-search finds each model's heap itself: not with --heap" if args.heap else
               "--heap-search runs the app on the host JVM (jcmd reads its heap): not with --target" if args.target
               else "--heap-search runs the app on the host JVM (jvm or jvm-aot; jcmd reads its heap): add one to "
               "--runtime" if not host else
               f"--heap-search: no memory case in {', '.join(args.scenarios)}; the scenarios with one: "
               f"{', '.join(s for s in SCENARIOS if in_preset[s].memory)}" if not cases else None)
    if problem and explicit:
        p.error(problem)
    return () if problem else cases


def check_the_rest(p, args):
    if args.report_only and not args.out:
        p.error("--report-only needs --out DIR (a finished or interrupted benchmark's directory)")
    if args.target and not re.fullmatch(r"https?://[^/]+/?", args.target):
        p.error("--target: a base URL such as http://10.0.0.5:8080")
    if not 19000 <= args.port <= 19990:
        p.error("--port must be within 19000-19990")
    if args.repeat < 1 or args.duration < 1:
        p.error("--repeat and --duration must be positive")
    if args.target and (args.cold_starts or args.warmup_curve):
        p.error("--cold-starts and --warmup-curve start the app themselves: not with --target")
    if args.profile and (args.target or not any(level.kind == LoadKind.COST for levels in args.load_levels.values()
                                                  for level in levels)):
        p.error("--profile profiles the cost rates (cost:RATE) of an app the bench starts: a scenario with one, no "
                "--target")
    if args.soak_minutes <= 0:
        p.error("--soak-minutes must be above 0")
    if args.cost_repeat < 3:
        p.error("--cost-repeat must be 3 or more: an interval needs repetitions")
    if args.app_cpu_period is not None and not 1 <= args.app_cpu_period <= 1000:
        p.error("--app-cpu-period must be from 1 to 1000 ms (the kernel's CFS period bounds)")
    if args.max_interference <= 0:
        p.error("--max-interference must be a share of one core above 0 (25: a quarter of a core)")


def check_scale_out(p, args):
    """A scale-out starts its replicas on this host, each a pod of its own, behind Debian's HAProxy (the bench
    installs nothing)."""
    if not any(SCENARIOS[s].scale_out_cpus for s in args.scenarios):
        return
    if args.target:
        p.error("--scenarios scale-out starts its replicas itself: not with --target")
    held = [s.name for s in args.runtimes if runtimes.RUNTIMES[s.base].container]
    if held:
        p.error(f"--scenarios scale-out runs its replicas on this host: not on {', '.join(held)}")
    if not haproxy.executable():
        p.error("--scenarios scale-out needs HAProxy, on PATH or in /usr/sbin: install Debian's package haproxy")


def app_cpus(p, given, cores: int, target: bool) -> float | None:
    """--app-cpus: a positive number of CPUs, at most the machine's, or none."""
    if given in (None, "none") or target:  # an app started elsewhere has whatever budget its host gives it
        return None
    try:
        cpus = float(given)
    except ValueError:
        p.error(f"--app-cpus {given}: a number of CPUs (0.5, 2) or none")
    if not 0 < cpus <= cores:
        p.error(f"--app-cpus {given}: more than 0 and at most this machine's {cores} CPUs")
    return cpus


def pod_sizes(p, args, specs) -> list[RuntimeSpec]:
    """--app-cpus as a list of sizes: each runtime at each size, a runtime of its own (jvm-cpu0.25); [] for one
    size."""
    items = [x.strip() for x in str(args.app_cpus or "").split(",") if x.strip()]
    if len(items) < 2:
        return []
    if args.target or args.jdk or args.heap or args.builds:
        p.error("--app-cpus with a list of sizes starts a pod of each: not with --target, --jdk, --heap or --builds")
    sizes = list(dict.fromkeys(app_cpus(p, x, os.cpu_count() or 1, False) for x in items))
    if None in sizes:
        p.error("--app-cpus: a list of sizes in CPUs (0.25,0.5), without none")
    return [dataclasses.replace(spec, cpus=cpus) for spec in specs for cpus in sizes]


def chosen_cpu_split(p, args, budget: float | None) -> CpuSplit | None:
    """--app-cpuset: the app's CPUs and the rig's (model.cpu_split); none for an app started elsewhere."""
    if args.target:
        if args.app_cpuset not in (None, "none"):
            p.error("--app-cpuset places the app the bench starts: not with --target")
        return None
    try:
        return cpu_split(os.cpu_count() or 1, budget, args.app_cpuset)
    except ValueError as e:
        p.error(f"--app-cpuset {e}")


def app_memory(p, given, sizes: bool, budget: bool) -> int | None:
    """--app-memory: the pod's memory limit in MB, beside a CPU budget; 512 MB by default for a list of sizes."""
    if given is None:
        return POD_MEMORY_MB if sizes else None
    if given == "none":
        return None
    try:
        mb = size_mb(given)
    except ValueError:
        p.error(f"--app-memory {given}: a size in megabytes or gigabytes (512m, 1g) or none")
    if not (sizes or budget):
        p.error("--app-memory limits a pod beside its CPU budget: not with --app-cpus none or --target")
    return mb


def target_load(p, given: str) -> float:
    """--target-load: a rate above 0."""
    try:
        rate = float(given)
    except ValueError:
        rate = math.nan
    if not 0 < rate < math.inf:
        p.error(f"--target-load {given}: a rate in requests/s above 0 (5000)")
    return rate


def prices(p, core_hour: str | None, gb_hour: str | None) -> tuple[float | None, float | None]:
    """--price-core-hour and --price-gb-hour: both or neither, each a price of 0 USD or more."""
    if (core_hour is None) != (gb_hour is None):
        p.error("--price-core-hour and --price-gb-hour: both or neither (a bill counts cores and GB)")
    out = []
    for option, given in (("--price-core-hour", core_hour), ("--price-gb-hour", gb_hour)):
        if given is None:
            out.append(None)
            continue
        try:
            price = float(given)
        except ValueError:
            price = math.nan
        if not 0 <= price < math.inf:
            p.error(f"{option} {given}: a price in USD of 0 or more (0.04)")
        out.append(price)
    return out[0], out[1]


def check_start_up(p, args):
    if args.cold_starts < 0:
        p.error("--cold-starts must be 0 (none) or more")
    if args.cold_start_budget < 0:
        p.error("--cold-start-budget must be 0 (one cold start) or more seconds")
    if args.warmup_curve and args.warmup_curve < footprint.SHORTEST_CURVE_S:
        p.error(f"--warmup-curve must be 0 (none) or at least {footprint.SHORTEST_CURVE_S} s: the steady level is "
                f"its last {footprint.STEADY_TAIL_S} s, judged over {footprint.STEADY_WINDOW_S}-second means")


def main(argv):
    config = parse_args(argv)
    if config.self_test:
        return subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                os.path.join(ROOT, "bench", "tests")])
    if config.compare:
        from benchlab.report import compare
        print(compare.render(*config.compare))
        return 0
    if not config.report_only:
        from benchlab.run import runner
        planned = [s for s in config.scenarios if s in config.load_levels]  # not those only memory-searched
        plan = make_plan(config.runtime_names, planned, config.load_levels, config.models, config.repeat,
                         config.duration, config.warmup, config.cooldown, config.variants,
                         interleave=config.takes_turns,
                         cost_repeat=config.cost_repeat, cost_seconds=config.cost_duration,
                         soak_seconds=60 * config.soak_minutes,
                         warmup_others_s=config.warmup_others, profile_events=PROFILE_EVENTS if config.profile else (),
                         twin=not config.target and not config.sizes_compared,
                         cost_ladder=not config.sizes_compared, pod_searches=config.pod_searches)
        searches = sum(r.load.kind == LoadKind.SEARCH for r in plan.runs)
        soaks = sum(r.load.kind == LoadKind.SOAK for r in plan.runs)
        scale_outs = sum(r.load.kind == LoadKind.SCALE_OUT for r in plan.runs)
        runs = len(plan.runs) - searches - soaks - scale_outs
        if plan.runs:
            searched = f", {searches} searches of about {USUAL_SEARCH_STEPS} steps" if searches else ""
            searched += f", {soaks} soaks of {config.soak_minutes:g} min" if soaks else ""
            searched += f", {scale_outs} scale-outs of {scale_out.SECONDS} s" if scale_outs else ""
            log(f"plan: {runs} runs of {config.duration:.0f} s{searched}, {plan.warmups} warm-ups (at most {config.warmup:.0f} s, {config.warmup_others:.0f} s at fixed "
                f"loads); load phase about {duration(plan.planned_seconds())}, at most "
                f"{duration(plan.planned_seconds(upper_bound=True))}, plus start-up")
        else:
            log("plan: the memory search alone (--heap-search with --scenarios; --loads adds the scenarios' loads)")
        if config.memory_cases:
            memory_s, memory_most = (heap_search.planned_seconds(config.memory_cases, len(config.models),
                                                                 config.duration, config.warmup_others,
                                                                 upper_bound=most)
                                     for most in (False, True))
            log(f"memory search: {'; '.join(config.memory_labels)}, {heap_search.HeapSettings().low_mb} to "
                f"{heap_search.HeapSettings().high_mb} MB, about {heap_search.USUAL_STEPS} steps per model: about "
                f"{duration(memory_s)}, at most {duration(memory_most)}")
        if config.cold_starts or config.warmup_curve:
            start_up = start_up_seconds(len(config.runtimes), config.cold_starts, config.warmup_curve)
            log(f"start-up: {config.cold_starts} cold starts and a {config.warmup_curve:.0f} s curve per runtime, "
                f"about {duration(start_up)}; with the load phase about {duration(plan.planned_seconds() + start_up)}")
        status = runner.run(config, plan)
        if status == 130:
            return status
    else:
        status = 0
    from benchlab.report import render as report
    try:
        report.write_report(config.out)
        log(f"report: {os.path.join(config.out, 'report.html')} and report.md")
    except Exception as e:  # noqa: BLE001 - the run's tables are written already; say what failed
        log(f"ERROR: writing the report failed: {e!r}")
        status = status or 1
    return status
