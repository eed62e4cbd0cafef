"""The report's memory sections, only in a run with heap data (--heap-search, --heap): each model's smallest heap per
memory case, the heap per held request, and successful requests/s per MiB of RSS at each model's knee."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from benchlab.formatting import Fixed, num
from benchlab.model import HeapSearchEnd, MemoryStop
from benchlab.plan.heap_search import LATE_TOLERANCE
from benchlab.report.capacity import knee_runs
from benchlab.report.layout import Section, Table, model_color, model_order
from benchlab.results import slo
from benchlab.results.environment import Environment, HeapSearchRecord, HeldBytesRecord

NOT_MEMORY = "not memory: it broke the SLO with the largest heap, without an OutOfMemoryError"
# The search offers a steady load; a pod also meets bursts, tested by the packaged ITs at one heap only.
NOT_A_BURST = ("A heap that held this load may not survive a burst. The pod's burst test (PodEdgeIT: 3,000/s with 1 s "
               "to answer, within 0.5 CPU) passes at 128 MB; at 64 MB, before the first gate, both runtimes ran out "
               "of heap.")


def has_heap_data(env: Environment) -> bool:
    return bool(env.heap_searches or env.held_bytes or env.get("heaps") or env.get("out_of_memory"))


def case_label(r: HeapSearchRecord | HeldBytesRecord, load: str | None = None) -> str:
    """A memory case as the report writes it: "hold at 1000 VUs (10s)"."""
    return f"{r.scenario} at {load or r.load}" + (f" ({r.variant})" if r.variant else "")


def mb(value) -> str:
    return f"{num(value, 0)} MB"


def interval(r: HeapSearchRecord) -> str:
    """The smallest heap that held, and where the truth lies: between the largest that broke and it."""
    if r.held_mb is None:
        top = max((s.heap_mb for s in r.steps), default=None)
        return f"none up to {mb(top)}"
    if r.end == HeapSearchEnd.FLOOR:
        return f"{mb(r.held_mb)} or less (the smallest heap tried)"
    if r.broke_mb is None:
        return f"{mb(r.held_mb)} or less (the search ran out of steps before a heap broke)"
    return f"between {num(r.broke_mb, 0)} and {mb(r.held_mb)}"


def stop_text(r: HeapSearchRecord) -> str:
    """What stopped the model below its smallest heap, or at every heap."""
    if r.stop is None:
        return "-"
    if r.held_mb is None and r.stop == MemoryStop.SLO:
        return f"{NOT_MEMORY}: {r.detail}"
    return f"{r.stop.value}" + (f": {r.detail}" if r.detail else "")


def short(text: str) -> str:
    """A stop's detail as the answer quotes it: its first two parts (the figures and the first resource named), cut at
    a "; " outside parentheses."""
    depth, parts = 0, 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if depth == 0 and text.startswith("; ", i):
            parts += 1
            if parts == 2:
                return text[:i]
    return text


def answer_table(env: Environment) -> Table | None:
    """The memory answer for the first screen: per case, each model's smallest heap, the least first, and what stops
    it below that heap (or at every heap)."""
    if not env.heap_searches:
        return None
    rows = []
    for r in sorted(env.heap_searches, key=lambda r: (case_label(r), r.held_mb is None, r.held_mb or 0)):
        stop = NOT_MEMORY.split(":")[0] if r.held_mb is None and r.stop == MemoryStop.SLO else \
            r.stop.value if r.stop else "-"
        rows.append([case_label(r), r.model, interval(r), stop, short(r.detail) if r.detail else "-"])
    late = [f"{r.model} {num(r.reference_p99_ms / 1000, 1)} s" for r in env.heap_searches if r.reference_p99_ms]
    return Table("The answer on memory", ["case", "model", "smallest heap that held", "what stops it below",
                                         "at that step"], rows,
                 "Held: the SLO kept, no failed request, no OutOfMemoryError, GC pauses within their level. "
                 f"{NOT_MEMORY[0].upper()}{NOT_MEMORY[1:]}. {NOT_A_BURST}"
                 + (f" Where the largest heap's p99 was over the SLO ({', '.join(late)}), smaller heaps were judged "
                    f"against it + {LATE_TOLERANCE:.0%}." if late else ""))


def heap_table(env: Environment, mem_runs: pd.DataFrame) -> Table:
    rows = []
    for r in env.heap_searches:
        at_min = next((s for s in r.steps if s.heap_mb == r.held_mb), None)
        ok = mem_runs[mem_runs.tag == at_min.tag] if at_min is not None and at_min.tag else mem_runs.iloc[0:0]
        rows.append([case_label(r), r.model, mb(r.held_mb) if r.held_mb else "none", interval(r), stop_text(r),
                     r.end.value, str(len(r.steps)), Fixed(at_min.rss_peak_mb if at_min else None, 0),
                     Fixed(ok.ok_rps.iloc[0], 0) if not ok.empty else None,
                     " ".join(f"{s.heap_mb}{'+' if s.held else '-'}" for s in r.steps)])
    note = ("Each step is a fresh, warmed app with that -Xmx, measured at the case's load; the search starts at 2 GB "
            "and 32 MB, then bisects between them to within 15 % (bench/README.md, \"The memory search and --heap\"). "
            "Interval: the largest heap that broke and the smallest that held, from one search per model. "
            "Steps: each heap in MB as tried, + held, - did not; RSS: the app's peak at the smallest heap.")
    return Table("Memory: the smallest heap per model", ["case", "model", "smallest heap", "interval", "below it",
                                                         "search ended", "steps", "RSS MB", "ok req/s",
                                                         "steps (MB)"], rows, note)


def heap_chart(env: Environment) -> list[str]:
    """Each model's smallest heap per memory case as bars, the interval as a whisker down to the largest heap that
    broke; a model that held at no heap has no bar (the table says why)."""
    held = [r for r in env.heap_searches if r.held_mb is not None]
    if not held:
        return []
    fig = go.Figure()
    for model in model_order(r.model for r in held):
        mine = [r for r in held if r.model == model]
        fig.add_trace(go.Bar(x=[case_label(r) for r in mine], y=[r.held_mb for r in mine], name=model,
                             marker={"color": model_color(model)}, text=[f"{r.held_mb} MB" for r in mine],
                             textposition="inside",
                             error_y={"type": "data", "symmetric": False, "array": [0] * len(mine),
                                      "arrayminus": [r.held_mb - (r.broke_mb or 0) for r in mine]},
                             hovertemplate="%{y:.0f} MB"))
    fig.update_layout(title="The smallest heap that held, per model (MB; whisker: down to the largest heap that "
                            "did not, or to 0 where the smallest heap tried held)", barmode="group", height=380,
                      yaxis_title="-Xmx MB", margin={"t": 50})
    return [fig.to_html(full_html=False, include_plotlyjs=False)]


def kb(value) -> Fixed:
    return Fixed(None if value is None else value / 1024, 1)


def held_table(env: Environment) -> Table:
    rows = [[case_label(r, f"{r.connections} VUs"), r.model, str(r.held), Fixed(r.heap_idle_mb, 1),
             Fixed(r.heap_held_mb, 1), kb(r.heap_bytes_per_held), num(r.threads_idle, 0), num(r.threads_held, 0),
             Fixed(r.thread_native_idle_mb, 1), Fixed(r.thread_native_held_mb, 1), kb(r.native_bytes_per_held),
             Fixed(r.rss_idle_mb, 0), Fixed(r.rss_held_mb, 0)] for r in env.held_bytes]
    note = ("On each model's first step (-Xmx2g, Native Memory Tracking): jcmd GC.run, then the heap in use, the "
            "threads' native memory and the RSS, once idle and once with the case's connections held. "
            "Per held: (held - idle) / held. Virtual threads keep their stacks on the heap; a queued worker-model "
            "request holds no thread.")
    return Table("Heap per held request", ["case", "model", "held", "heap idle MB", "heap held MB", "heap KB/held",
                                           "threads idle", "threads held", "thread native idle MB",
                                           "thread native held MB", "native KB/held", "RSS idle MB", "RSS held MB"],
                 rows, note)


def density(runs: pd.DataFrame, caps: list[slo.Capacity]) -> Table | None:
    """Successful requests/s per MiB of RSS at each model's knee (its run at its capacity)."""
    knees = knee_runs(runs, caps)
    rows = []
    for scenario in dict.fromkeys(c.scenario for c in caps):
        mine = [(model, r) for (s, model), r in knees.items() if s == scenario and r.rss_peak_mb]
        for model, r in sorted(mine, key=lambda m: -m[1].ok_rps / m[1].rss_peak_mb):
            rows.append([scenario, model, f"{r.load:g}/s", Fixed(r.ok_rps, 0), Fixed(r.rss_peak_mb, 0),
                         Fixed(r.ok_rps / r.rss_peak_mb, 2)])
    if not rows:
        return None
    return Table("Requests per MiB at the knee", ["scenario", "model", "knee", "ok req/s", "RSS MiB",
                                                 "ok req/s per MiB"], rows,
                 "The run at each model's capacity: its successful requests/s over its peak RSS. RSS is "
                 "process-wide: where the models share one app it includes what the models before left behind.")


def sections(mem_runs: pd.DataFrame, runs: pd.DataFrame, env: Environment, caps: list[slo.Capacity]) \
        -> list[Section]:
    """The memory sections of a run with heap data, in reading order; none otherwise."""
    if not has_heap_data(env):
        return []
    out = []
    oom = [f"OutOfMemoryError: {line}; the run ended there and the app was restarted"
           for line in env.get("out_of_memory") or []]
    if env.heap_searches:
        out.append(Section("Memory: the smallest heap per model", heap_table(env, mem_runs), oom, heap_chart(env)))
        oom = []
    if env.held_bytes:
        out.append(Section("Heap per held request", held_table(env)))
    table = density(runs, caps)
    if table is not None or oom:
        out.append(Section("Requests per MiB at the knee", table, oom))
    return out
