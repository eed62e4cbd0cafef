"""Samples the app every 2 s while k6 runs (RSS, CPU, threads from /proc; for containers also the container's memory
and CPU from its cgroup, v1 or v2; GC, pools from /q/metrics)."""
import csv
import os
import re
import threading
import time
import urllib.request

CLK_TCK = os.sysconf("SC_CLK_TCK")
LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)')

# column -> (metric name, label filter or None); values of all matching series are summed
METRICS = {
    "jvm_threads_live": ("jvm_threads_live_threads", None),
    "jvm_threads_peak": ("jvm_threads_peak_threads", None),
    "gc_pause_count": ("jvm_gc_pause_seconds_count", None),
    "gc_pause_seconds": ("jvm_gc_pause_seconds_sum", None),
    "jdbc_active": ("agroal_active_count", None),
    "jdbc_available": ("agroal_available_count", None),
    "jdbc_awaiting": ("agroal_awaiting_count", None),
    "sql_active": ("sql_pool_active", None),
    "sql_idle": ("sql_pool_idle", None),
    "sql_queue": ("sql_pool_queue_size", None),
    "worker_active": ("worker_pool_active", 'pool_name="vert.x-worker-thread"'),
    "worker_queue": ("worker_pool_queue_size", 'pool_name="vert.x-worker-thread"'),
    "process_cpu_usage": ("process_cpu_usage", None),
}
COLUMNS = ["t_s", "rss_mb", "cgroup_mem_mb", "cpu_pct", "os_threads", *METRICS]


def cpu_seconds(pid):
    """utime + stime of a process, in seconds (fields 14 and 15 of /proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "Threads"):
                out[key] = int(value.split()[0])
    return out


def read_int(path):
    with open(path) as f:
        return int(f.read().split()[0])


def read_stat(path):
    out = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.partition(" ")
            if v.strip().isdigit():
                out[k] = int(v)
    return out


class Probe:
    """Where the app's figures are read: its main process (host PID) and, for a container, its cgroup.

    Memory of a container = usage minus inactive file cache (what docker/podman stats and the kubelet call the
    working set); CPU of a container = the cgroup's CPU time (cpuacct.usage on cgroup v1, cpu.stat usage_usec on
    v2), i.e. every process in the container."""

    def __init__(self, pid, cgroup=False):
        self.pid = pid
        self.mem_dir = self.cpu_dir = None
        self.cgroup_version = None
        if cgroup:
            self.find_cgroup()

    def find_cgroup(self):
        with open(f"/proc/{self.pid}/cgroup") as f:
            lines = [line.rstrip("\n").split(":", 2) for line in f]
        v1 = {}
        for _, controllers, path in lines:
            for c in controllers.split(","):
                if c:
                    v1[c] = path
        if "memory" in v1:  # cgroup v1 (the lab machine)
            self.cgroup_version = 1
            for mdir in (f"/sys/fs/cgroup/memory{v1['memory']}",):
                if os.path.isfile(os.path.join(mdir, "memory.usage_in_bytes")):
                    self.mem_dir = mdir
            cpath = v1.get("cpuacct")
            for cdir in (f"/sys/fs/cgroup/cpuacct{cpath}", f"/sys/fs/cgroup/cpu,cpuacct{cpath}"):
                if cpath and os.path.isfile(os.path.join(cdir, "cpuacct.usage")):
                    self.cpu_dir = cdir
        else:
            path = next((p for h, c, p in lines if h == "0" and c == ""), None)
            d = f"/sys/fs/cgroup{path}" if path else None
            if d and os.path.isfile(os.path.join(d, "memory.current")):
                self.cgroup_version = 2
                self.mem_dir = self.cpu_dir = d
        if not self.mem_dir or not self.cpu_dir:
            raise RuntimeError(f"cannot find the cgroup files of PID {self.pid} (/proc/{self.pid}/cgroup: {lines})")

    @property
    def cgroup(self):
        return self.mem_dir is not None

    def cpu_seconds(self):
        if self.cpu_dir is None:
            return cpu_seconds(self.pid)
        if self.cgroup_version == 1:
            return read_int(os.path.join(self.cpu_dir, "cpuacct.usage")) / 1e9
        return read_stat(os.path.join(self.cpu_dir, "cpu.stat"))["usage_usec"] / 1e6

    def cgroup_mem_mb(self):
        if self.mem_dir is None:
            return None
        if self.cgroup_version == 1:
            usage = read_int(os.path.join(self.mem_dir, "memory.usage_in_bytes"))
            inactive = read_stat(os.path.join(self.mem_dir, "memory.stat")).get("total_inactive_file", 0)
        else:
            usage = read_int(os.path.join(self.mem_dir, "memory.current"))
            inactive = read_stat(os.path.join(self.mem_dir, "memory.stat")).get("inactive_file", 0)
        return round(max(0, usage - inactive) / 2**20, 1)

    def rss_mb(self):
        return round(status(self.pid).get("VmRSS", 0) / 1024, 1)

    def describe(self):
        if not self.cgroup:
            return f"/proc/{self.pid}"
        return f"/proc/{self.pid} + cgroup v{self.cgroup_version} {self.mem_dir}"


def scrape(url, timeout=1.5):
    values = {}
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        text = resp.read().decode("utf-8", "replace")
    for line in text.splitlines():
        if not line or line[0] == "#":
            continue
        m = LINE.match(line)
        if not m:
            continue
        name, labels, raw = m.group(1), m.group(2) or "", m.group(3)
        for col, (metric, label_filter) in METRICS.items():
            if name == metric and (label_filter is None or label_filter in labels):
                try:
                    v = float(raw)
                except ValueError:
                    continue
                if v == v:  # skip NaN
                    values[col] = values.get(col, 0.0) + v
    return values


class Sampler(threading.Thread):
    def __init__(self, probe, metrics_url, csv_path, interval=2.0):
        super().__init__(daemon=True)
        self.probe, self.metrics_url, self.csv_path, self.interval = probe, metrics_url, csv_path, interval
        self.pid = probe.pid
        self.stop_event = threading.Event()
        self.rows = []

    def sample(self, t0, prev):
        row = {"t_s": round(time.monotonic() - t0, 2)}
        try:
            st = status(self.pid)
            cpu = self.probe.cpu_seconds()
            now = time.monotonic()
            row["rss_mb"] = round(st.get("VmRSS", 0) / 1024, 1)
            row["cgroup_mem_mb"] = self.probe.cgroup_mem_mb()
            row["os_threads"] = st.get("Threads")
            if prev is not None:
                row["cpu_pct"] = round(100 * (cpu - prev[1]) / max(now - prev[0], 1e-6), 1)
            prev = (now, cpu)
        except (FileNotFoundError, ProcessLookupError):
            return prev
        try:
            row.update(scrape(self.metrics_url))
        except Exception:  # noqa: BLE001 - an overloaded app may not answer in time; keep the OS numbers
            pass
        self.rows.append(row)
        return prev

    def run(self):
        t0 = time.monotonic()
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

    def peak(self, col):
        vals = [r[col] for r in self.rows if r.get(col) is not None]
        return max(vals) if vals else None
