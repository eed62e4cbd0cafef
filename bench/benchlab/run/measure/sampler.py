"""Samples the app, k6 and the database every second while k6 runs: CPU and memory with psutil (for containers the
container's cgroup), pools, queues, threads and GC from the app's /lab/saturation (the same series as /q/metrics, served
on the event loop so that a starved worker pool can still report its queue) with prometheus_client's parser."""
import csv
import os
import threading
import time
import urllib.request

import psutil
from prometheus_client.parser import text_string_to_metric_families

from benchlab.run.provision.budget import Throttling

# column -> (sample name, label that must match or None); the values of all matching series are summed
METRICS = {
    "jvm_threads_live": ("jvm_threads_live_threads", None),
    "gc_pause_count": ("jvm_gc_pause_seconds_count", None),
    "gc_pause_seconds": ("jvm_gc_pause_seconds_sum", None),
    # the collectors' own time: the executable's GC share (its collectors send no pause notifications to Micrometer)
    "gc_time_seconds": ("lab_gc_time_seconds_total", None),
    # bytes allocated in the young generation, counted at each collection (so a rate only over many collections)
    "allocated_bytes": ("jvm_gc_memory_allocated_bytes_total", None),
    "jit_ms": ("jvm_compilation_time_ms_total", None),  # the JIT compilers' time so far
    "jdbc_active": ("agroal_active_count", None),
    "jdbc_awaiting": ("agroal_awaiting_count", None),
    "jdbc_blocking_ms": ("agroal_blocking_time_average_milliseconds", None),
    "sql_active": ("sql_pool_active", None),
    "sql_queue": ("sql_pool_queue_size", None),
    # Quarkus' worker pool itself (Vert.x' worker_pool_* series do not see the work Quarkus REST hands it)
    "worker_threads": ("lab_worker_pool_threads", None),
    "worker_queue": ("lab_worker_pool_queued_tasks", None),
    # the aggregation's REST clients: calls in flight, and (HTTP/1.1) those beyond the pool, waiting for a connection
    "downstream_in_flight": ("lab_downstream_calls_in_flight", None),
    "downstream_waiting": ("lab_downstream_calls_waiting", None),
    # the worker model's dedicated branch pool, when a profile selects it (article 000's presets)
    "branch_queue": ("executor_queued_tasks", ("name", "worker-branches")),
    # the cached aggregation's counters (local tier: Caffeine's cache "aggregate"; remote tier: Redis)
    "cache_local_hits": ("cache_gets_total", ("result", "hit")),
    "cache_local_lookups": ("cache_gets_total", None),
    "cache_remote_hits": ("lab_cache_remote_total", ("result", "hit")),
    "cache_remote_lookups": ("lab_cache_remote_total", None),
    # what a soak watches grow: the heap in use (a saw-tooth; its low points are the heap after young GCs), the old
    # generation after the last full GC, and the registry's meters
    "heap_used_bytes": ("jvm_memory_used_bytes", ("area", "heap")),
    "live_data_bytes": ("jvm_gc_live_data_size_bytes", None),
    "meters": ("lab_meters", None),
}
# A soak's connections, counted on the app's side by the remote port: to the database and to the downstream service.
CONNECTIONS = ("db_connections", "downstream_connections")
# The app's CPU quota's counters so far (budget.Throttling), where it runs within one of ours.
THROTTLING = ("cfs_periods", "cfs_throttled", "cfs_throttled_ms")
# at: the sample's wall-clock time (epoch s, as k6 stamps requests); app_cpu_s: the app's CPU seconds so far
COLUMNS = ["t_s", "at", "app_cpu_s", "rss_mb", "cgroup_mem_mb", "app_cpu_pct", "k6_cpu_pct", "db_cpu_pct",
           "downstream_cpu_pct", "bench_cpu_pct", "host_cpu_pct", "rig_cpu_pct", "app_set_cpu_pct", "steal_cpu_pct", "other_cpu_pct",
           "os_threads", "metrics_missed", *METRICS, *CONNECTIONS, *THROTTLING]


def machine_busy_pct(seconds: float) -> float:
    """How busy the machine was over the next `seconds`, in % of one core: every process and the hypervisor's steal
    (psutil counts steal outside idle)."""
    times = psutil.cpu_times_percent(interval=seconds)
    return (100 - times.idle - getattr(times, "iowait", 0)) * (os.cpu_count() or 1)


def busy_pct(per_cpu, cpus: tuple[int, ...]) -> float:
    """How busy these CPUs were since the previous sample, all of them together = 100 (psutil's per-CPU shares)."""
    busy = [100 - per_cpu[c].idle - getattr(per_cpu[c], "iowait", 0) for c in cpus if c < len(per_cpu)]
    return round(sum(busy) / len(busy), 1) if busy else 0.0


def scrape(url, timeout=1.5):
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        return metric_values(resp.read().decode("utf-8", "replace"))


def metric_values(text: str) -> dict[str, float]:
    """The METRICS columns in a Prometheus text scrape; GC pauses from the collectors' time where no pause timer is."""
    values = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            for col, (name, label) in METRICS.items():
                if sample.name == name and (label is None or sample.labels.get(label[0]) == label[1]) \
                        and sample.value == sample.value:  # NaN: a gauge with nothing to report
                    values[col] = values.get(col, 0.0) + sample.value
    if "gc_pause_seconds" not in values and "gc_time_seconds" in values:
        values["gc_pause_seconds"] = values["gc_time_seconds"]
    return values


def connections_by_port(proc: psutil.Process, ports: dict[str, int]) -> dict[str, int]:
    """The process's established TCP connections to each remote port, by column."""
    remote = [c.raddr.port for c in proc.net_connections(kind="tcp") if c.raddr and c.status == psutil.CONN_ESTABLISHED]
    return {column: remote.count(port) for column, port in ports.items()}


class Sampler(threading.Thread):
    """others: name -> callable returning that party's CPU seconds so far (k6, the database, the bench itself), or
    None. Whatever else used the machine's cores meanwhile is other_cpu_pct: other processes' (% of one core)."""

    def __init__(self, probe, metrics_url, csv_path, others=None, interval=1.0, cores=None, connections=None,
                 split=None, throttling=None):
        super().__init__(daemon=True)
        self.throttling = throttling  # () -> the app's quota's counters (budget.Throttling) or None; None: no quota
        self.split = split  # the CPU split (--app-cpuset): its two sets' busy shares are sampled; None: no split
        self.probe, self.metrics_url, self.csv_path, self.interval = probe, metrics_url, csv_path, interval
        self.others = others or {}
        self.connections = connections or {}  # column (CONNECTIONS) -> remote port; a soak's only (it reads /proc)
        self.cores = cores or os.cpu_count() or 1
        self.stop_event = threading.Event()
        self.rows = []

    def cpu_now(self):
        cpu = {"app": self.probe.cpu_seconds() if self.probe else None}
        for name, read in self.others.items():
            try:
                cpu[name] = read()
            except (psutil.Error, ProcessLookupError):
                cpu[name] = None
        return time.monotonic(), cpu

    def sample(self, t0, prev):
        row = {"t_s": round(time.monotonic() - t0, 2), "at": round(time.time(), 3)}
        try:
            now, cpu = self.cpu_now()
        except (psutil.Error, FileNotFoundError, ProcessLookupError):
            return prev
        row["app_cpu_s"] = cpu["app"]
        times = psutil.cpu_times_percent(interval=None)  # since the previous sample, all cores together = 100
        row["host_cpu_pct"] = round(100 - times.idle - getattr(times, "iowait", 0), 1)
        if self.split:
            per_cpu = psutil.cpu_times_percent(interval=None, percpu=True)
            row["rig_cpu_pct"] = busy_pct(per_cpu, self.split.rig)
            row["app_set_cpu_pct"] = busy_pct(per_cpu, self.split.app)
        # what the hypervisor kept from this machine meanwhile (a virtual machine's steal), % of one core: the machine
        # was busier than its processes, and no process of it was the reason
        row["steal_cpu_pct"] = round(getattr(times, "steal", 0) * self.cores, 1)
        # interrupts: the kernel's work for the load's own traffic (loopback TCP at thousands of requests/s), which no
        # process is charged with; not another program's load either
        interrupts = (getattr(times, "irq", 0) + getattr(times, "softirq", 0)) * self.cores
        if self.probe:
            try:
                proc = psutil.Process(self.probe.pid)
                row["rss_mb"] = round(proc.memory_info().rss / 2**20, 1)
                row["os_threads"] = proc.num_threads()
                row["cgroup_mem_mb"] = self.probe.cgroup_mem_mb()
                if self.connections:
                    row.update(connections_by_port(proc, self.connections))
            except psutil.Error:
                return prev
        if prev is not None:
            elapsed = max(now - prev[0], 1e-6)
            for name, value in cpu.items():
                if value is not None and prev[1].get(name) is not None:
                    row[f"{name}_cpu_pct"] = round(100 * (value - prev[1][name]) / elapsed, 1)
            ours = [row[f"{name}_cpu_pct"] for name in cpu if f"{name}_cpu_pct" in row]
            # only where every process of ours was read: while k6 starts or ends, its CPU would count as another's
            if self.probe and len(ours) == len(cpu):
                row["other_cpu_pct"] = round(max(0.0, row["host_cpu_pct"] * self.cores - sum(ours)
                                                 - row["steal_cpu_pct"] - interrupts), 1)
        counted = self.throttling() if self.throttling else None
        if counted is not None:
            row.update(zip(THROTTLING, (counted.periods, counted.throttled, counted.throttled_ms)))
        try:
            row.update(scrape(self.metrics_url))
            row["metrics_missed"] = 0
        except Exception:  # noqa: BLE001 - an overloaded app may not answer in time; keep the OS numbers
            # /lab/saturation is answered on the event loop: a miss is an event loop that did not get to it
            row["metrics_missed"] = 1
        self.rows.append(row)
        return now, cpu

    def run(self):
        t0 = time.monotonic()
        psutil.cpu_times_percent(interval=None)  # the first calls only set psutil's reference points
        psutil.cpu_times_percent(interval=None, percpu=True)
        prev = None
        with open(self.csv_path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
            writer.writeheader()
            while True:
                before = len(self.rows)
                prev = self.sample(t0, prev)
                if len(self.rows) > before:
                    writer.writerow(self.rows[-1])
                    f.flush()
                if self.stop_event.wait(self.interval):
                    break

    def stop(self):
        self.stop_event.set()
        self.join(timeout=10)

    def keep_between(self, start: float, end: float) -> None:
        """Only the samples taken from `start` to `end` (epoch s): the figures of a run's measured part."""
        self.rows = [r for r in self.rows if start <= r["at"] <= end]

    def cpu_ms_per_request(self, requests) -> float | None:
        """The app's CPU between the first and the last sample over the requests that ended between them (read_k6_csv's
        requests); None without two samples of the app's CPU and a request between them."""
        seen = [r for r in self.rows if r.get("app_cpu_s") is not None]
        if len(seen) < 2:
            return None
        first, last = seen[0], seen[-1]
        ended = int(requests["t_ms"].between(1000 * first["at"], 1000 * last["at"], inclusive="left").sum())
        return round(1000 * (last["app_cpu_s"] - first["app_cpu_s"]) / ended, 3) if ended else None

    def throttled(self) -> tuple[float | None, float | None]:
        """The quota's throttling between the first and the last sample (Throttling.since): (% of periods, ms/s)."""
        seen = [r for r in self.rows if r.get(THROTTLING[0]) is not None]
        if len(seen) < 2:
            return None, None
        first, last = (Throttling(*(r[c] for c in THROTTLING)) for r in (seen[0], seen[-1]))
        return last.since(first, seen[-1]["at"] - seen[0]["at"])

    def peak(self, col):
        vals = [r[col] for r in self.rows if r.get(col) is not None]
        return max(vals) if vals else None

    def share(self, part, whole):
        """A counter's increase over the run as a percentage of another's; None when the whole did not move."""
        rows = [r for r in self.rows if r.get(part) is not None and r.get(whole) is not None]
        if len(rows) < 2 or rows[-1][whole] <= rows[0][whole]:
            return None
        return round(100 * (rows[-1][part] - rows[0][part]) / (rows[-1][whole] - rows[0][whole]), 1)

    def mean(self, col):
        vals = [r[col] for r in self.rows if r.get(col) is not None]
        return round(sum(vals) / len(vals), 1) if vals else None
