"""The attach listener's socket work (deploy/native/clib/chelper/attach.c), which jcmd reaches an executable through,
on real files and Unix sockets in a tmp_path. A connection from another user cannot be made here (the tests run as one
user), so only a trusted peer is tried."""
import ctypes
import os
import socket
import stat
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "clib" / "chelper" / "attach.c"


@pytest.fixture(scope="module")
def attach(tmp_path_factory):
    shared = tmp_path_factory.mktemp("clib") / "libattach.so"
    subprocess.run(["gcc", "-O2", "-fPIC", "-Wall", "-Werror", "-shared", str(SOURCE), "-o", str(shared)], check=True)
    lib = ctypes.CDLL(str(shared))
    for name in ("svm_attach_check_socket_file", "svm_attach_is_init_trigger"):
        getattr(lib, name).restype = ctypes.c_bool
    for name in ("svm_attach_create_listener", "svm_attach_wait_for_request"):
        getattr(lib, name).restype = ctypes.c_int
    return lib


def test_a_listener_is_an_owner_only_socket_that_serves_its_own_user(attach, tmp_path):
    path = tmp_path / ".java_pid42"
    listener = attach.svm_attach_create_listener(str(path).encode())
    assert listener >= 0 and stat.S_ISSOCK(path.stat().st_mode)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and not (tmp_path / ".java_pid42.tmp").exists()
    assert attach.svm_attach_check_socket_file(str(path).encode())
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as jcmd:
        jcmd.connect(str(path))
        jcmd.sendall(b"1\0jcmd\0VM.native_memory\0\0\0")
        peer = attach.svm_attach_wait_for_request(listener)
        assert peer >= 0 and os.read(peer, 64).startswith(b"1\0jcmd\0")
        attach.svm_attach_shutdown_socket(peer)
        assert jcmd.recv(1) == b""  # the peer's side was shut down: jcmd reads the end of its answer
        os.close(peer)
    attach.svm_attach_listener_cleanup(listener, str(path).encode())
    assert not path.exists() and not attach.svm_attach_check_socket_file(str(path).encode())


def test_a_listener_on_a_path_too_long_for_a_socket_is_refused(attach, tmp_path):
    assert attach.svm_attach_create_listener(str(tmp_path / ("x" * 120)).encode()) == -1


def test_the_trigger_file_counts_when_it_exists_and_a_stale_socket_file_is_removed_at_start(attach, tmp_path):
    trigger = tmp_path / ".attach_pid42"
    assert not attach.svm_attach_is_init_trigger(str(trigger).encode())
    trigger.touch()
    assert attach.svm_attach_is_init_trigger(str(trigger).encode())  # made by this user
    stale = tmp_path / ".java_pid42"
    stale.touch()
    attach.svm_attach_startup(str(stale).encode())
    assert not stale.exists()
    attach.svm_attach_startup(str(stale).encode())  # nothing to remove: no harm
