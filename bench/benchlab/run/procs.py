"""Processes the bench starts: each in its own session (process group), all stopped on exit, error or signal."""
import os
import signal
import subprocess
import threading
import time

from rich.console import Console

from benchlab.project import jvm_fatal_line

# One console for log lines and the progress bar, so that a line never tears the bar.
CONSOLE = Console(stderr=True, highlight=False)


class Interrupted(Exception):
    """Raised in the main thread when SIGINT/SIGTERM/SIGHUP arrives."""


def log(msg):
    CONSOLE.print(time.strftime("%H:%M:%S ") + msg, markup=False, soft_wrap=True)


class Managed:
    def __init__(self, name, popen, log_path):
        self.name = name
        self.popen = popen
        self.pid = popen.pid
        self.pgid = popen.pid  # start_new_session=True: the child leads its own group
        self.log_path = log_path

    def alive(self):
        return self.popen.poll() is None

    def exit_info(self):
        """How it ended, with a JVM's own last word where its log has one (a heap too small for it, an OOM)."""
        said = None
        try:
            with open(self.log_path, errors="replace") as f:
                said = jvm_fatal_line(f.read()[-20000:])
        except (OSError, TypeError):
            pass
        return f"exited with code {self.popen.returncode}" + (f" ({said})" if said else "")

    def group_alive(self):
        try:
            os.killpg(self.pgid, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True


class Container:
    """A container the bench started (detached), stopped and removed like a process: `stop -t`, then `rm -f`.
    Its log is copied from the engine to log_path when it stops. pid is the host PID of its main process."""

    def __init__(self, name, engine_exe, engine_env, log_path):
        self.name = name
        self.engine_exe = engine_exe
        self.engine_env = engine_env
        self.log_path = log_path
        self.pid = None
        self.container_id = None
        self.pgid = None

    def engine(self, *args, timeout=60):
        return subprocess.run([self.engine_exe, *args], env=self.engine_env, capture_output=True, text=True,
                              timeout=timeout, start_new_session=True)

    def remove_stale(self):
        """A container of the same name left by a killed bench (same port: it could not run beside us anyway)."""
        if self.exists():
            log(f"removing the stale container {self.name}")
            self.engine("rm", "-f", "-t", "0", self.name)

    def attach(self):
        out = self.engine("inspect", "--format", "{{.Id}} {{.State.Pid}}", self.name)
        if out.returncode != 0:
            raise RuntimeError(f"container {self.name} is gone right after its start: {out.stderr.strip()}")
        self.container_id, pid = out.stdout.split()
        self.pid = int(pid)
        if self.pid <= 0:
            raise RuntimeError(f"container {self.name} exited right after its start; see {self.log_path}")

    def alive(self):
        return self.pid is not None and self.pid > 0 and os.path.exists(f"/proc/{self.pid}")

    def exists(self):
        try:
            return self.engine("container", "inspect", "--format", "{{.Id}}", self.name).returncode == 0
        except subprocess.TimeoutExpired:
            return True

    def exit_info(self):
        out = self.engine("inspect", "--format", "{{.State.Status}} (exit code {{.State.ExitCode}}, "
                          "OOM killed: {{.State.OOMKilled}})", self.name)
        return "stopped: " + (out.stdout.strip() or "unknown state")

    def group_alive(self):
        return self.exists()

    def save_log(self):
        try:
            with open(self.log_path, "ab") as f:
                subprocess.run([self.engine_exe, "logs", self.name], env=self.engine_env, stdout=f,
                               stderr=subprocess.STDOUT, timeout=30, start_new_session=True)
        except (OSError, subprocess.TimeoutExpired):
            pass

    def stop(self, grace=15.0):
        if not self.exists():
            return
        try:
            self.engine("stop", "-t", str(int(grace)), self.name, timeout=grace + 30)
        except subprocess.TimeoutExpired:
            pass
        self.save_log()
        for _ in range(3):
            try:
                self.engine("rm", "-f", "-t", "0", self.name, timeout=60)
            except subprocess.TimeoutExpired:
                pass
            if not self.exists():
                return


class ProcessManager:
    """Starts processes in new sessions and guarantees they are gone when stop_all() returns."""

    def __init__(self):
        self.procs = []
        self.lock = threading.Lock()

    def start(self, name, argv, log_path, env=None, cwd=None, pipe_stdout=False, before_exec=None):
        """Starts argv in its own session, output to log_path. With pipe_stdout, stdout stays a text pipe (for a
        process that prints something to read, e.g. a URL) and only stderr goes to the log. before_exec runs in the
        child before argv replaces it (joining a CPU budget's group, so that the JVM starts inside it)."""
        log_file = open(log_path, "ab")
        popen = subprocess.Popen(argv, stdout=subprocess.PIPE if pipe_stdout else log_file,
                                 stderr=log_file if pipe_stdout else subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 env=env, cwd=cwd, start_new_session=True, text=pipe_stdout, preexec_fn=before_exec)
        log_file.close()
        return self.add(Managed(name, popen, log_path))

    def add(self, resource):
        """Registers something with stop(grace) and group_alive() (a Container) for stop_all()."""
        with self.lock:
            self.procs.append(resource)
        return resource

    def run(self, name, argv, log_path, timeout, env=None, cwd=None):
        """A registered foreground command: stopped by stop_all() on a signal even when waited for in a thread."""
        proc = self.start(name, argv, log_path, env=env, cwd=cwd)
        try:
            rc = proc.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"{name} did not finish within {timeout:.0f} s; see {log_path}") from None
        finally:
            self.stop(proc, grace=5)
        if rc != 0:
            raise RuntimeError(f"{name} failed with exit code {rc}; see {log_path}")

    def stop(self, proc, grace=15.0):
        """SIGTERM the leader (lets e.g. the database clean up), then the group, then SIGKILL what is left."""
        if isinstance(proc, Container):
            proc.stop(grace)
            with self.lock:
                if proc in self.procs:
                    self.procs.remove(proc)
            return
        if proc.alive():
            try:
                os.kill(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.popen.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
            if not proc.group_alive():
                break
            try:
                os.killpg(proc.pgid, sig)
            except ProcessLookupError:
                break
            deadline = time.time() + wait
            while time.time() < deadline and proc.group_alive():
                time.sleep(0.1)
        try:
            proc.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        with self.lock:
            if proc in self.procs:
                self.procs.remove(proc)

    def stop_all(self):
        with self.lock:
            procs = list(reversed(self.procs))
        for proc in procs:  # newest first: app, downstream, then database
            log(f"stopping {proc.name} " + ("(container)" if isinstance(proc, Container) else f"(pid {proc.pid})"))
            self.stop(proc)
        leftovers = [p for p in procs if p.group_alive()]
        for p in leftovers:
            log(f"WARNING: container {p.name} still exists after rm -f" if isinstance(p, Container)
                else f"WARNING: process group {p.pgid} ({p.name}) still alive after SIGKILL")
        return not leftovers


def install_signal_handlers():
    def handler(signum, _frame):
        # Ignore further signals while we clean up; the finally blocks in the caller stop everything.
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN)
        raise Interrupted(signal.Signals(signum).name)

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, handler)


def run_checked(argv, log_path, timeout, env=None, cwd=None, what="command"):
    """A foreground command with a timeout, in its own group so a timeout kills all of it."""
    with open(log_path, "ab") as log_file:
        popen = subprocess.Popen(argv, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 env=env, cwd=cwd, start_new_session=True)
        try:
            rc = popen.wait(timeout=timeout)
        except BaseException:
            try:
                os.killpg(popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            popen.wait()
            raise
    if rc != 0:
        raise RuntimeError(f"{what} failed with exit code {rc}; see {log_path}")
