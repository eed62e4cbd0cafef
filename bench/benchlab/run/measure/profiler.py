"""Flame graphs per run (--flamegraph cpu|wall) and profiled runs' collapsed stacks (--profile): async-profiler from
Maven Central, loaded into the running app with jcmd's JVMTI.agent_load when k6 starts (a profiled run: once its
settling seconds are over) and asked for its output when it stops. Nothing is installed on the host: the library
comes out of the Maven artifact into .tools/."""
import os
import subprocess
import zipfile

from benchlab.run.procs import run_checked

VERSION = "4.2"
ARTIFACT = f"tools.profiler:async-profiler:{VERSION}"
# The app lets an agent be loaded into it at run time without a warning (JDK 21+ asks for the flag).
JVM_OPTION = "-XX:+EnableDynamicAgentLoading"


def library(root: str, logs: str) -> str:
    """The linux-x64 libasyncProfiler.so out of the Maven artifact, fetched once into .tools/async-profiler-VERSION."""
    target = os.path.join(root, ".tools", f"async-profiler-{VERSION}")
    lib = os.path.join(target, "libasyncProfiler.so")
    if os.path.isfile(lib):
        return lib
    os.makedirs(target, exist_ok=True)
    run_checked([os.path.join(root, "mvnw"), "-B", "-q", "dependency:copy", f"-Dartifact={ARTIFACT}",
                 f"-DoutputDirectory={target}"], os.path.join(logs, "async-profiler.log"), timeout=600, cwd=root,
                what=f"fetching {ARTIFACT} with Maven")
    with zipfile.ZipFile(os.path.join(target, f"async-profiler-{VERSION}.jar")) as jar, open(lib, "wb") as out:
        out.write(jar.read("linux-x64/libasyncProfiler.so"))
    return lib


class Profiler:
    """Starts and stops async-profiler in one JVM: one flame graph per measured run (--flamegraph), or a profiled
    run's collapsed stacks (--profile)."""

    # wall: every thread every 20 ms, whether it runs or waits; cpu: where the CPU time goes (a sample per 10 ms of
    # CPU for a flame graph, per 1 ms in a profiled run, whose breakdown needs thousands); alloc: a sample per 256 KB
    INTERVALS = {"wall": "20ms", "cpu": "10ms", "alloc": "256k"}
    PROFILED_INTERVALS = dict(INTERVALS, cpu="1ms")

    def __init__(self, java_home: str, lib: str, event: str | None, out_dir: str):
        self.jcmd = os.path.join(java_home, "bin", "jcmd")
        self.lib, self.event, self.out_dir = lib, event, out_dir
        os.makedirs(out_dir, exist_ok=True)

    def command(self, pid: int, options: str) -> None:
        # jcmd splits its arguments at commas unless the agent's option string is quoted
        result = subprocess.run([self.jcmd, str(pid), "JVMTI.agent_load", self.lib, f'"{options}"'],
                                capture_output=True, text=True, timeout=60)
        if result.returncode != 0 or "ERROR" in result.stdout:
            raise RuntimeError(f"async-profiler {options.split(',')[0]} in PID {pid} failed: "
                               f"{(result.stdout + result.stderr).strip()[-300:]}")

    def start(self, pid: int, event: str | None = None) -> None:
        """A flame graph's recording (the profiler's event), or a profiled run's (event)."""
        chosen = event or self.event
        interval = (self.PROFILED_INTERVALS if event else self.INTERVALS)[chosen]
        self.command(pid, f"start,event={chosen},interval={interval}")

    def stop(self, pid: int, tag: str) -> str:
        path = os.path.join(self.out_dir, f"{tag}-{self.event}.html")
        self.command(pid, f"stop,file={path}")
        return path

    def stop_collapsed(self, pid: int, tag: str) -> str:
        """A profiled run's stacks, one line each with its total (ns of CPU, bytes allocated)."""
        path = os.path.join(self.out_dir, f"{tag}.collapsed")
        self.command(pid, f"stop,file={path},collapsed,total")
        return path
