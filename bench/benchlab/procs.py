"""Processes the bench starts: each in its own session (process group), all stopped on exit, error or signal."""
import os
import signal
import subprocess
import sys
import threading
import time


class Interrupted(Exception):
    """Raised in the main thread when SIGINT/SIGTERM/SIGHUP arrives."""


def log(msg):
    print(time.strftime("%H:%M:%S ") + msg, file=sys.stderr, flush=True)


class Managed:
    def __init__(self, name, popen, log_path):
        self.name = name
        self.popen = popen
        self.pid = popen.pid
        self.pgid = popen.pid  # start_new_session=True: the child leads its own group
        self.log_path = log_path

    def alive(self):
        return self.popen.poll() is None

    def group_alive(self):
        try:
            os.killpg(self.pgid, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True


class ProcessManager:
    """Starts processes in new sessions and guarantees they are gone when stop_all() returns."""

    def __init__(self):
        self.procs = []
        self.lock = threading.Lock()

    def start(self, name, argv, log_path, env=None, cwd=None):
        log_file = open(log_path, "ab")
        popen = subprocess.Popen(argv, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 env=env, cwd=cwd, start_new_session=True)
        log_file.close()
        proc = Managed(name, popen, log_path)
        with self.lock:
            self.procs.append(proc)
        return proc

    def start_piped(self, name, argv, stderr_path, env=None, cwd=None):
        """Like start, but stdout stays a pipe (for processes that print something to read, e.g. a URL)."""
        err = open(stderr_path, "ab")
        popen = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, env=env,
                                 cwd=cwd, start_new_session=True, text=True)
        err.close()
        proc = Managed(name, popen, stderr_path)
        with self.lock:
            self.procs.append(proc)
        return proc

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
            log(f"stopping {proc.name} (pid {proc.pid})")
            self.stop(proc)
        leftovers = [p for p in procs if p.group_alive()]
        for p in leftovers:
            log(f"WARNING: process group {p.pgid} ({p.name}) still alive after SIGKILL")
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
