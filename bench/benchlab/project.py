"""The project the bench measures, as bench/run and bench/startup both know it: the repository's paths, the packaged
app, the tokens' issuer, the AOT cache's options, what the app's process says of itself. Standard library only and
beneath the rest of benchlab, so that the run, the report and the start-up tool share these facts."""
import os
import re

BENCH = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))  # bench/: its scripts, Java helpers, JFR settings
ROOT = os.environ.get("BENCH_ROOT") or os.path.dirname(BENCH)
APP_DIR = os.path.join(ROOT, "target", "quarkus-app")
ISSUER = "https://concurrency-lab.example/issuer"
# The JDK 25 AOT cache as `./mvnw verify -Daot` trains it, for a JVM started in target/quarkus-app. AOTMode=on: a cache
# the JVM cannot use fails the start rather than being measured as the plain JVM.
AOT_OPTIONS = ("-XX:AOTCache=app.aot", "-XX:AOTMode=on")
# Stop without the shipped drain (5 s of readiness DOWN, then 8 s for requests in flight): the bench stops its apps only
# between runs, with nothing in flight worth waiting for. The delay is switched off by its length, since
# quarkus.shutdown.delay-enabled is fixed at build time.
NO_DRAIN_PROPS = {"quarkus.shutdown.delay": "0s", "quarkus.shutdown.timeout": "1s"}


def started_in(log_text):
    """Quarkus's own "started in X s" (its JVM-side clock, up to the HTTP listener), or None."""
    found = re.findall(r"started in ([\d.]+)s", log_text)
    return float(found[-1]) if found else None


def rss_mb(pid):
    """Resident set size of a process from /proc, in MB (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


# What a JVM says when it cannot go on: it ran out of memory (with -XX:+ExitOnOutOfMemoryError it then exits), or it
# could not start with its options ("Error occurred during initialization of VM" is followed by the reason).
JVM_FATAL = re.compile(r"^.*(?:java\.lang\.OutOfMemoryError.*|Too small maximum heap|Too small initial heap"
                       r"|Invalid (?:maximum|initial) heap size.*|Could not reserve enough space.*|"
                       r"Initial heap size set to a larger value than the maximum heap size)\s*$", re.M)


def jvm_fatal_line(log_text):
    """The JVM's own last word on why it stopped or did not start (an OutOfMemoryError, a heap it cannot have), as one
    line; None when the text has none."""
    found = JVM_FATAL.findall(log_text or "")
    return found[-1].strip() if found else None


def oom_line(log_text):
    """The JVM's OutOfMemoryError line, if it ran out of memory: "Terminating due to java.lang.OutOfMemoryError: Java
    heap space" (-XX:+ExitOnOutOfMemoryError), else the error's own line; None otherwise."""
    found = [line.strip() for line in (log_text or "").splitlines() if "java.lang.OutOfMemoryError" in line]
    terminating = [line for line in found if line.startswith("Terminating due to")]
    return (terminating or found or [None])[-1]
