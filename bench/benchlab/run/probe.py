"""Where the figures of a process are read: the app's main process in /proc and, for a container, its cgroup
(Probe, which each runtime makes for its app), and the CPU time of a whole process group. The sampler reads them every
second; the runtimes say which to read."""
import os

import psutil


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
    """Where the app's figures are read: its main process (host PID) and, for a container, its cgroup: memory as usage
    minus inactive file cache (the working set), CPU as the cgroup's CPU time (cpuacct.usage on v1, cpu.stat on v2)."""

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
            t = psutil.Process(self.pid).cpu_times()
            return t.user + t.system
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

    def describe(self):
        if not self.cgroup:
            return f"/proc/{self.pid}"
        return f"/proc/{self.pid} + cgroup v{self.cgroup_version} {self.mem_dir}"


def group_cpu_seconds(pgid):
    """CPU seconds of every live process in a process group (the database: mvnw, Maven's JVM, MariaDB's server)."""
    total = 0.0
    for p in psutil.process_iter(["pid"]):
        try:
            if os.getpgid(p.pid) == pgid:
                t = p.cpu_times()
                total += t.user + t.system
        except (psutil.Error, ProcessLookupError, PermissionError):
            continue
    return total
