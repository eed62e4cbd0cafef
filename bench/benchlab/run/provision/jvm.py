"""What a JDK is and what its JVM chose, read once: the feature version from its release file, and the ergonomics
(GC, heap, version line) from `java -XX:+PrintCommandLineFlags -version`; and what its jcmd prints of Native Memory
Tracking, for a JVM or an executable."""
from __future__ import annotations

import os
import re
import subprocess


NMT = "-XX:NativeMemoryTracking=summary"  # Native Memory Tracking's areas, which `jcmd PID VM.native_memory` reads
# An area and its committed memory in `jcmd PID VM.native_memory summary` (KB, both runtimes' default): the JVM's
# "- Thread (reserved=..KB, committed=..KB)" and "Total: reserved=..", an executable's "Thread" with "(reserved=.." on
# the next line. Indented lines are an area's details.
AREA = re.compile(r"^(?:-[ \t]*)?([A-Za-z][^\n(:]*?)\)?:?\s*\(?reserved=\d+KB, committed=(\d+)KB", re.M)


def jcmd_out(jcmd, pid, *command) -> str:
    """What `jcmd PID COMMAND...` prints (stdout and stderr)."""
    out = subprocess.run([jcmd, str(pid), *command], capture_output=True, text=True, timeout=120)
    return out.stdout + out.stderr


def nmt_areas(summary: str) -> dict[str, float]:
    """`jcmd PID VM.native_memory summary`: area -> committed MB, the total first; {} where NMT is off."""
    return {name: round(int(committed) / 1024, 1) for name, committed in AREA.findall(summary)}


def feature_version(java_home) -> int | None:
    """The JDK's feature version (25 for 25.0.1) from $JAVA_HOME/release, without starting a JVM; None if unknown."""
    try:
        with open(os.path.join(java_home, "release")) as f:
            m = re.search(r'^JAVA_VERSION="(\d+)', f.read(), re.M)
    except OSError:
        return None
    return int(m.group(1)) if m else None


def print_flags(java_home, jvm_args=()) -> str:
    """What `java [jvm_args] -XX:+PrintCommandLineFlags -version` prints (stdout and stderr)."""
    out = subprocess.run([os.path.join(java_home, "bin", "java"), *jvm_args, "-XX:+PrintCommandLineFlags", "-version"],
                         capture_output=True, text=True, timeout=60)
    return out.stdout + out.stderr


def ergonomics(text) -> dict:
    """GC, max heap and version from `java -XX:+PrintCommandLineFlags -version` output."""
    gc = re.search(r"-XX:\+Use(\w+)GC", text)
    heap = re.search(r"-XX:MaxHeapSize=(\d+)", text)
    ver = next((line for line in text.splitlines() if "Runtime Environment" in line), None)
    return {"jvm_gc": gc.group(1) + " GC" if gc else None,
            "jvm_max_heap_mb": round(int(heap.group(1)) / 2**20) if heap else None,
            "jvm": ver.strip() if ver else None}
