"""The app's CPU budget (--app-cpus N), as a Kubernetes CPU limit: a CFS quota of N CPUs per period in a cgroup of its
own, else N whole CPUs by affinity, else none. The app joins it before it execs, so that its JVM sizes itself for it:
bench/README.md, "The CPU budget"."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

CGROUP_ROOT = "/sys/fs/cgroup"
# The bench's CFS period. The kubelet's is 100 ms: at 0.5 CPU an app that spent its quota early then waits up to 50 ms,
# as long as the jwt-mysql SLO, so that one such wait in a 6 s step decides its p99 and two quick runs found the same
# model's capacity at 710 and 1,000/s. At 10 ms the wait is at most 5 ms and the knee is the CPU's.
PERIOD_US = 10_000


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

    @property
    def applied(self) -> bool:
        return self.how != "none"

    @property
    def processors(self) -> int:
        """The processors a JVM derives from such a quota (ceil(N)) or CPU set."""
        return len(self.cores) if self.how == "taskset" else max(1, math.ceil(self.cpus))

    def jvm_options(self) -> list[str]:
        return [f"-XX:ActiveProcessorCount={self.processors}"] if self.applied else []

    def enter(self) -> None:
        """In the app's process before it execs (subprocess' preexec_fn): into the group, or onto the CPUs."""
        if self.how.startswith("cgroup"):
            write(self.group, "cgroup.procs", os.getpid())
        elif self.how == "taskset":
            os.sched_setaffinity(0, self.cores)

    def lift(self, pid: int | None = None) -> None:
        """No limit: the whole machine, for a warm-up. pid: the app's (taskset's mask is per thread)."""
        self.set_quota(None)
        if self.how == "taskset" and pid:
            set_affinity(pid, set(range(os.cpu_count() or 1)))

    def restore(self, pid: int | None = None) -> None:
        """The budget again, after a warm-up."""
        self.set_quota(self.cpus)
        if self.how == "taskset" and pid:
            set_affinity(pid, set(self.cores))

    def set_quota(self, cpus: float | None) -> None:
        if self.how == "cgroup v1":
            write(self.group, "cpu.cfs_period_us", self.period_us)
            write(self.group, "cpu.cfs_quota_us", -1 if cpus is None else round(cpus * self.period_us))
        elif self.how == "cgroup v2":
            write(self.group, "cpu.max", f"{'max' if cpus is None else round(cpus * self.period_us)} {self.period_us}")

    def describe(self) -> str:
        if self.how.startswith("cgroup"):
            return (f"{self.cpus:g} CPU: a CPU quota of {round(self.cpus * self.period_us)} us per {self.period_us} us "
                    f"({self.how}, {self.group}); the JVM sees {self.processors} processor(s); warm-ups lift it")
        if self.how == "taskset":
            return (f"{self.cpus:g} CPU: CPUs {','.join(map(str, self.cores))} (an affinity mask, as taskset sets "
                    f"it); the JVM sees {self.processors} processor(s); warm-ups lift it")
        return f"none: {self.why_not}"

    def remove(self) -> None:
        if self.group:
            remove_group(self.group)


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


def make(cpus: float, name: str, machine_cores: int, root: str = CGROUP_ROOT, period_us: int = PERIOD_US) -> CpuBudget:
    """The budget as this machine can apply it: a group named `name` (one left by a killed bench removed first),
    else whole CPUs, else none with the reason."""
    found = controller_dir(root)
    if found:
        how, parent = found
        group = os.path.join(parent, name)
        try:
            remove_group(group)
            os.makedirs(group, exist_ok=True)
            budget = CpuBudget(cpus, how, group=group, period_us=period_us)
            budget.set_quota(cpus)
            return budget
        except OSError as e:
            tried = f"{how} at {parent}: {e.strerror or e}"
    else:
        tried = f"no cpu controller under {root}"
    if float(cpus).is_integer() and cpus < machine_cores and hasattr(os, "sched_setaffinity"):
        return CpuBudget(cpus, "taskset", cores=tuple(range(machine_cores - int(cpus), machine_cores)))
    return CpuBudget(cpus, "none", why_not=f"{cpus:g} CPU asked, but no cgroup could be made ({tried}) and a fraction "
                                          f"of a CPU cannot be an affinity mask; the app ran unbudgeted")
