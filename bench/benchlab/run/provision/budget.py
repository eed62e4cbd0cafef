"""The app's CPU budget (--app-cpus N), as a Kubernetes CPU limit: a CFS quota of N CPUs per period in a cgroup of its
own, else N whole CPUs by affinity, else none; and a pod's memory limit where one is asked (--app-memory), in the memory
controller's group. The app joins them before it execs, so that its JVM sizes itself for them: bench/README.md, "The
CPU budget"."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

from benchlab.model import cpu_list

CGROUP_ROOT = "/sys/fs/cgroup"
# The bench's CFS period. The kubelet's is 100 ms: at 0.5 CPU an app that spent its quota early then waits up to 50 ms,
# as long as the jwt-mysql SLO, so that one such wait in a 6 s step decides its p99 and two quick runs found the same
# model's capacity at 710 and 1,000/s. At 10 ms the wait is at most 5 ms and the knee is the CPU's. Pod sizes run at
# the kubelet's (config.POD_CPU_PERIOD_MS), and each run records how often the quota throttled the app (Throttling).
PERIOD_US = 10_000
# A pod's JVM takes half its memory limit for the heap, as the images set it (Dockerfile.jvm, quarkus.jib's
# -XX:MaxRAMPercentage=50); the JVM's own default is a quarter.
HEAP_SHARE = 0.5


@dataclass
class CpuBudget:
    cpus: float  # what the app may use, in CPUs' worth of time (0.5: half of one core)
    how: str  # "cgroup v1", "cgroup v2", "taskset" or "none"
    group: str | None = None  # the cgroup's directory (cgroup v1 and v2)
    cores: tuple[int, ...] = ()  # the CPUs (taskset)
    why_not: str | None = None  # none: why no budget could be applied
    # The quota's period: an app that used its quota waits for the next one (with one thread running, up to (1 - N)
    # x the period at once), and a request that meets such a wait holds it in its latency.
    period_us: int = PERIOD_US
    memory_mb: int | None = None  # the memory limit (a pod's), in MB; None: none
    memory_group: str | None = None  # cgroup v1's group in the memory hierarchy (v2: the group itself)
    # The CPUs the app may run on (--app-cpuset), as the static CPU manager policy gives a pod; the rig has the others.
    # A warm-up lifts the quota, not the CPU set. None: any.
    cpuset: tuple[int, ...] | None = None

    @property
    def applied(self) -> bool:
        return self.how != "none"

    @property
    def processors(self) -> int:
        """The processors a JVM derives from such a quota (ceil(N)) or CPU set."""
        return len(self.cores) if self.how == "taskset" else max(1, math.ceil(self.cpus))

    def jvm_options(self) -> list[str]:
        """The processors the JVM sees; within a memory limit, the images' share of it for the heap."""
        if not self.applied:
            return []
        heap = [f"-XX:MaxRAMPercentage={HEAP_SHARE * 100:g}"] if self.memory_mb else []
        return [f"-XX:ActiveProcessorCount={self.processors}", *heap]

    def enter(self) -> None:
        """In the app's process before it execs (subprocess' preexec_fn): into the group and onto its CPU set, or
        onto the CPUs."""
        if self.how.startswith("cgroup"):
            write(self.group, "cgroup.procs", os.getpid())
            if self.memory_group:
                write(self.memory_group, "cgroup.procs", os.getpid())
        on_cpus(self.placed)()

    @property
    def placed(self) -> tuple[int, ...] | None:
        """The CPUs the app is held to, by its CPU set or by the mask that stands in for a quota; None: any."""
        return self.cores if self.how == "taskset" else self.cpuset

    def lift(self, pid: int | None = None) -> None:
        """No limit: the whole machine, for a warm-up, its CPU set too: alone on one CPU with its database, a JVM
        compiling at 1,000/s timed out for its first seconds. pid: the app's (a mask is per thread)."""
        self.set_quota(None)
        if self.placed and pid:
            set_affinity(pid, set(range(os.cpu_count() or 1)))

    def restore(self, pid: int | None = None) -> None:
        """The budget again, after a warm-up."""
        self.set_quota(self.cpus)
        if self.placed and pid:
            set_affinity(pid, set(self.placed))

    def set_quota(self, cpus: float | None) -> None:
        if self.how == "cgroup v1":
            write(self.group, "cpu.cfs_period_us", self.period_us)
            write(self.group, "cpu.cfs_quota_us", -1 if cpus is None else round(cpus * self.period_us))
        elif self.how == "cgroup v2":
            write(self.group, "cpu.max", f"{'max' if cpus is None else round(cpus * self.period_us)} {self.period_us}")

    def throttling(self) -> Throttling | None:
        """The quota's throttling so far, from the group's cpu.stat; None without a group or its file."""
        return read_cpu_stat(self.group) if self.how.startswith("cgroup") else None

    def describe(self) -> str:
        if self.how.startswith("cgroup"):
            memory = f"; a memory limit of {self.memory_mb} MB" if self.memory_mb else ""
            cpuset = f" on CPU {cpu_list(self.cpuset)}" if self.cpuset else ""
            return (f"{self.cpus:g} CPU: a CPU quota of {round(self.cpus * self.period_us)} us per {self.period_us} us "
                    f"({self.how}, {self.group}){cpuset}{memory}; the JVM sees {self.processors} processor(s); "
                    f"warm-ups lift the quota{' and the CPU set' if self.cpuset else ''}")
        if self.how == "taskset":
            return (f"{self.cpus:g} CPU: CPUs {','.join(map(str, self.cores))} (an affinity mask, as taskset sets "
                    f"it); the JVM sees {self.processors} processor(s); warm-ups lift it")
        return f"none: {self.why_not}"

    def remove(self) -> None:
        for group in (self.group, self.memory_group):
            if group:
                remove_group(group)


@dataclass(frozen=True)
class Throttling:
    """A CFS quota's counters so far: the periods in which the group ran, those that ended with its quota spent (its
    threads then wait for the next period), and the time they waited."""
    periods: int
    throttled: int
    throttled_ms: float

    def since(self, before: Throttling, seconds: float) -> tuple[float | None, float | None]:
        """(% of the periods since `before` that were throttled, ms waited per second); None where no period or no
        time passed."""
        periods = self.periods - before.periods
        share = round(100 * (self.throttled - before.throttled) / periods, 1) if periods > 0 else None
        per_s = round((self.throttled_ms - before.throttled_ms) / seconds, 1) if seconds > 0 else None
        return share, per_s


# cpu.stat's throttled time, and what it counts per millisecond: cgroup v1 nanoseconds, v2 microseconds
PER_MS = {"throttled_time": 1_000_000, "throttled_usec": 1_000}


def read_cpu_stat(group: str) -> Throttling | None:
    """A group's cpu.stat (cgroup v1: nr_periods, nr_throttled, throttled_time; v2: throttled_usec instead); None
    where the file or its counters are missing."""
    try:
        with open(os.path.join(group, "cpu.stat")) as f:
            stat = dict(line.split(None, 1) for line in f if len(line.split()) == 2)
    except OSError:
        return None
    time_key = next((k for k in PER_MS if k in stat), None)
    if time_key is None or "nr_periods" not in stat or "nr_throttled" not in stat:
        return None
    return Throttling(int(stat["nr_periods"]), int(stat["nr_throttled"]),
                      int(stat[time_key]) / PER_MS[time_key])


def on_cpus(cpus: tuple[int, ...] | None):
    """A preexec_fn that puts the process on these CPUs (None: every CPU of the machine), whatever its parent's mask:
    the bench itself runs on the rig's CPUs, and an app started from it would inherit them."""
    def enter() -> None:
        os.sched_setaffinity(0, cpus or range(os.cpu_count() or 1))
    return enter


def write(directory: str, name: str, value) -> None:
    with open(os.path.join(directory, name), "w") as f:
        f.write(str(value))


def set_affinity(pid: int, cores: set[int]) -> None:
    """Every thread of the process (a mask is per thread; threads made later inherit their creator's)."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            os.sched_setaffinity(int(tid), cores)
        except (ProcessLookupError, PermissionError):
            continue


def remove_group(group: str) -> None:
    """Whatever is left in the group back to its parent, then the group itself."""
    try:
        with open(os.path.join(group, "cgroup.procs")) as f:
            left = [line.strip() for line in f if line.strip()]
    except FileNotFoundError:
        return
    for pid in left:
        try:
            write(os.path.dirname(group), "cgroup.procs", pid)
        except OSError:
            pass  # ended meanwhile
    try:
        os.rmdir(group)
    except FileNotFoundError:
        pass


def controller_dir(root: str = CGROUP_ROOT) -> tuple[str, str] | None:
    """(cgroup version, the directory new groups of the cpu controller go in), if the machine has one: cgroup v1's
    cpu hierarchy, or a cgroup v2 root whose children may use the cpu controller."""
    for v1 in (os.path.join(root, "cpu"), os.path.join(root, "cpu,cpuacct")):
        if os.path.isfile(os.path.join(v1, "cpu.cfs_quota_us")):
            return "cgroup v1", v1
    try:
        with open(os.path.join(root, "cgroup.subtree_control")) as f:
            if "cpu" in f.read().split():
                return "cgroup v2", root
    except OSError:
        pass
    return None


def memory_dir(how: str, root: str = CGROUP_ROOT) -> str | None:
    """Where a group of the memory controller goes: cgroup v1's memory hierarchy, or the v2 root where its children
    may use the memory controller; None without one."""
    if how == "cgroup v1":
        v1 = os.path.join(root, "memory")
        return v1 if os.path.isfile(os.path.join(v1, "memory.limit_in_bytes")) else None
    try:
        with open(os.path.join(root, "cgroup.subtree_control")) as f:
            return root if "memory" in f.read().split() else None
    except OSError:
        return None


def limit_memory(budget: CpuBudget, memory_mb: int, name: str, root: str) -> None:
    """The pod's memory limit, no swap beyond it (a kubelet's default): cgroup v1's group of that name in the memory
    hierarchy, v2's memory.max in the budget's group. OSError where it cannot be set."""
    parent = memory_dir(budget.how, root)
    if parent is None:
        raise OSError(f"no memory controller under {root}")
    limit = memory_mb * 1024 * 1024
    if budget.how == "cgroup v1":
        group = os.path.join(parent, name)
        remove_group(group)
        os.makedirs(group, exist_ok=True)
        budget.memory_group = group
        write(group, "memory.limit_in_bytes", limit)
        if os.path.exists(os.path.join(group, "memory.memsw.limit_in_bytes")):  # swap accounting is on
            write(group, "memory.memsw.limit_in_bytes", limit)
    else:
        write(budget.group, "memory.max", limit)
        if os.path.exists(os.path.join(budget.group, "memory.swap.max")):
            write(budget.group, "memory.swap.max", 0)
    budget.memory_mb = memory_mb


def alongside(own: CpuBudget | None, suffix: str, root: str = CGROUP_ROOT) -> CpuBudget | None:
    """A pod of the same size as `own`, a cgroup of its own named after it; `own` itself where it is an affinity mask
    or none (a process's own, nothing to share)."""
    if own is None or not own.how.startswith("cgroup"):
        return own
    return make(own.cpus, f"{os.path.basename(own.group)}-{suffix}", os.cpu_count() or 1, root, period_us=own.period_us,
                memory_mb=own.memory_mb, strict=True, cpuset=own.cpuset)


def make(cpus: float, name: str, machine_cores: int, root: str = CGROUP_ROOT, period_us: int = PERIOD_US,
         memory_mb: int | None = None, strict: bool = False, cpuset: tuple[int, ...] | None = None) -> CpuBudget:
    """The budget as this machine can apply it: a group named `name` (one left by a killed bench removed first),
    else whole CPUs, else none with the reason. A memory limit, and `strict` (a pod size), need the cgroup: without it,
    RuntimeError in one line."""
    found = controller_dir(root)
    if found:
        how, parent = found
        group = os.path.join(parent, name)
        budget = CpuBudget(cpus, how, group=group, period_us=period_us, cpuset=cpuset)
        try:
            remove_group(group)
            os.makedirs(group, exist_ok=True)
            budget.set_quota(cpus)
            if memory_mb:
                limit_memory(budget, memory_mb, name, root)
            return budget
        except OSError as e:
            tried = f"{how} at {parent}: {e.strerror or e}"
            try:
                budget.remove()
            except OSError:
                pass  # what could not be made has nothing to remove
    else:
        tried = f"no cpu controller under {root}"
    if memory_mb or strict:
        what = f"{cpus:g} CPU" + (f" and {memory_mb} MB" if memory_mb else "")
        raise RuntimeError(f"a pod of {what} needs a cgroup with the cpu and memory controllers, as root ({tried})")
    if float(cpus).is_integer() and cpus < machine_cores and hasattr(os, "sched_setaffinity"):
        return CpuBudget(cpus, "taskset", cores=tuple(range(machine_cores - int(cpus), machine_cores)))
    return CpuBudget(cpus, "none", why_not=f"{cpus:g} CPU asked, but no cgroup could be made ({tried}) and a fraction "
                                          f"of a CPU cannot be an affinity mask; the app ran unbudgeted")
