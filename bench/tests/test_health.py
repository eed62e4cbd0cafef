import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from benchlab.run.provision import health


class FakeProcess:
    """What the polling needs of a started process: alive(), exit_info(), log_path."""

    def __init__(self, alive=True):
        self.is_alive, self.log_path = alive, "/tmp/app.log"

    def alive(self):
        return self.is_alive

    def exit_info(self):
        return "exited with code 1"


@pytest.fixture
def server():
    """A local HTTP server that answers 503 to the first `busy` requests, then 200."""
    state = {"busy": 2, "seen": 0}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            state["seen"] += 1
            self.send_response(503 if state["seen"] <= state["busy"] else 200)
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}", state
    httpd.shutdown()


def test_polling_goes_on_through_error_answers_until_the_first_200(server):
    url, state = server
    waited = health.poll_until_ok(FakeProcess(), url, timeout=5, interval=0.01, gone="app {exit}")
    assert waited is not None and 0 <= waited < 5
    assert state["seen"] == 3


def test_polling_gives_up_after_its_timeout(server):
    url, state = server
    state["busy"] = 10**6
    assert health.poll_until_ok(FakeProcess(), url, timeout=0.2, interval=0.01, gone="app {exit}") is None


def test_a_refused_connection_means_not_yet():
    assert health.poll_until_ok(FakeProcess(), "http://127.0.0.1:9/", timeout=0.2, interval=0.05,
                                  gone="app {exit}") is None


def test_a_process_that_ended_is_said_in_one_line(server):
    url, _ = server
    with pytest.raises(RuntimeError, match=r"^app \(jvm\) exited with code 1 before it answered; see /tmp/app.log$"):
        health.poll_until_ok(FakeProcess(alive=False), url, timeout=5, interval=0.01,
                               gone="app (jvm) {exit} before it answered")


def test_drained_and_still_busy(server):
    url, state = server
    assert health.wait_drained(FakeProcess(), url, timeout=5) >= 0
    state.update(busy=10**6, seen=0)
    with pytest.raises(health.StillBusy):
        health.wait_drained(FakeProcess(), url, timeout=1)
