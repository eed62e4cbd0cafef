"""The native image's container support (deploy/native/clib/container/container.c) over sample cgroup trees.

The C is compiled once into a shared library. Each test writes a fake /proc/self (cgroup, mountinfo) whose mount
points lead into a fake /sys/fs/cgroup under its tmp_path, points the library at it through its test hook
(lab_container_use_proc) and initializes it again: the C keeps what it found in static state."""
import ctypes
import os
import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "clib" / "container" / "container.c"
VERSION = 240100
NOT_CONTAINERIZED, CONTAINERIZED, LIBRARY_TOO_OLD, LIBRARY_TOO_NEW = 0, 1, 2, 3
NO_LIMIT, UNREADABLE = -1, -2
V1_UNLIMITED = "9223372036854771712"  # what cgroup v1 writes for "no limit": LONG_MAX rounded down to a page
AFFINITY = len(os.sched_getaffinity(0))
MACHINE_MEMORY = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
MB = 1024 * 1024
POD = "/kubepods/pod1/abc"
LONG_LONG_GETTERS = ("physical_memory", "memory_limit_in_bytes", "memory_and_swap_limit_in_bytes",
                     "memory_soft_limit_in_bytes", "memory_usage_in_bytes", "memory_max_usage_in_bytes",
                     "rss_usage_in_bytes", "cache_usage_in_bytes")

# The first lines of real memory.stat files (v1, then v2): the fields the C looks for and their look-alikes.
V1_MEMORY_STAT = """cache 1310720
rss 2359296
rss_huge 0
shmem 0
mapped_file 270336
swap 0
hierarchical_memory_limit 536870912
total_cache 1310720
total_rss 2359296
"""
V2_MEMORY_STAT = """anon 4349952
file 9134080
kernel 1310720
kernel_stack 65536
anon_thp 0
file_mapped 2162688
file_dirty 0
"""


@pytest.fixture(scope="session")
def library(tmp_path_factory):
    shared = tmp_path_factory.mktemp("clib") / "libsvm_container.so"
    subprocess.run(["gcc", "-O2", "-fPIC", "-Wall", "-Werror", "-shared", str(SOURCE), "-o", str(shared)], check=True)
    lib = ctypes.CDLL(str(shared))
    lib.lab_container_use_proc.argtypes = [ctypes.c_char_p]
    lib.lab_container_use_proc.restype = None
    lib.svm_container_initialize.argtypes = [ctypes.c_int]
    lib.svm_container_initialize.restype = ctypes.c_int
    lib.svm_container_active_processor_count.restype = ctypes.c_int
    for name in LONG_LONG_GETTERS:
        getattr(lib, "svm_container_" + name).restype = ctypes.c_longlong
    return lib


class Container:
    """The library as the image's Java side calls it, read from one fake /proc/self."""

    def __init__(self, lib):
        self.lib = lib

    def initialize(self, proc_self, version=VERSION):
        self.lib.lab_container_use_proc(str(proc_self).encode())
        return self.lib.svm_container_initialize(version)

    def processors(self):
        return self.lib.svm_container_active_processor_count()

    def get(self, name):
        """One of LONG_LONG_GETTERS, e.g. get("memory_limit_in_bytes")."""
        return getattr(self.lib, "svm_container_" + name)()


@pytest.fixture
def container(library):
    yield Container(library)
    library.lab_container_use_proc(None)


def write(folder, files):
    """cgroup files into folder, each ending in a newline as the kernel's do; returns folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text if text == "" or text.endswith("\n") else text + "\n")
    return folder


def fake_proc_self(tmp_path, cgroup_lines, mountinfo_lines):
    return write(tmp_path / "proc" / "self", {"cgroup": "".join(line + "\n" for line in cgroup_lines),
                                              "mountinfo": "".join(line + "\n" for line in mountinfo_lines)})


def cgroup_mount(mount_id, root, point, fs, options):
    """A mountinfo line of a cgroup hierarchy mounted at point, showing it from root down."""
    return f"{mount_id} 25 0:{mount_id} {root} {point} rw,nosuid,nodev,noexec,relatime shared:{mount_id} - {fs} {fs} " \
           + options


# The machine's own mounts, before any cgroup one.
OTHER_MOUNTS = ["22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro",
                "24 22 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw"]


def folders_down(mount, below):
    """The folders from a mount point down to the cgroup below it, the mount point first."""
    folders = [mount]
    for part in below.strip("/").split("/") if below.strip("/") else []:
        folders.append(folders[-1] / part)
    return folders


class V1Host(NamedTuple):
    proc_self: Path
    cpu: Path  # the process's cgroup in the cpu,cpuacct hierarchy
    memory: Path  # ... in the memory hierarchy
    hierarchies: Path  # the folder the hierarchies are mounted in (/sys/fs/cgroup)


def v1_host(tmp_path, cgroup=POD, mount_root="/"):
    """A cgroup v1 machine as systemd sets one up (with an unused unified v2 mount), every group without limits.

    mount_root is the part of the hierarchy its mounts show: "/" on a host, the container's own group in one."""
    hierarchies = tmp_path / "sys" / "fs" / "cgroup"
    below = cgroup if mount_root == "/" else cgroup[len(mount_root):]
    cpu_folders = folders_down(hierarchies / "cpu,cpuacct", below)
    memory_folders = folders_down(hierarchies / "memory", below)
    for folder in cpu_folders:
        write(folder, {"cpu.cfs_quota_us": "-1", "cpu.cfs_period_us": "100000", "cpu.shares": "1024"})
    for folder in memory_folders:
        write(folder, {"memory.limit_in_bytes": V1_UNLIMITED, "memory.soft_limit_in_bytes": V1_UNLIMITED})
    proc_self = fake_proc_self(
        tmp_path,
        [f"12:pids:{cgroup}", f"11:cpuset:{cgroup}", f"9:memory:{cgroup}", f"4:cpu,cpuacct:{cgroup}",
         f"1:name=systemd:{cgroup}", f"0::{cgroup}"],
        OTHER_MOUNTS + [f"25 22 0:23 / {hierarchies} ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755",
                        cgroup_mount(26, "/", hierarchies / "unified", "cgroup2", "rw,nsdelegate"),
                        cgroup_mount(27, "/", hierarchies / "systemd", "cgroup", "rw,xattr,name=systemd"),
                        cgroup_mount(31, mount_root, hierarchies / "cpuset", "cgroup", "rw,cpuset"),
                        cgroup_mount(35, mount_root, hierarchies / "cpu,cpuacct", "cgroup", "rw,cpu,cpuacct"),
                        cgroup_mount(36, mount_root, hierarchies / "memory", "cgroup", "rw,memory")])
    return V1Host(proc_self, cpu_folders[-1], memory_folders[-1], hierarchies)


class V2Host(NamedTuple):
    proc_self: Path
    group: Path  # the process's cgroup
    mount: Path  # where the unified hierarchy is mounted (/sys/fs/cgroup)


def v2_host(tmp_path, cgroup=POD, mount_root="/"):
    """A cgroup v2 machine, every group without limits (the root group has no limit files at all)."""
    mount = tmp_path / "sys" / "fs" / "cgroup"
    folders = folders_down(mount, cgroup if mount_root == "/" else cgroup[len(mount_root):])
    for folder in folders[1:] if mount_root == "/" else folders:
        write(folder, {"cpu.max": "max 100000", "memory.max": "max", "memory.swap.max": "max", "memory.low": "0"})
    proc_self = fake_proc_self(
        tmp_path, [f"0::{cgroup}"],
        OTHER_MOUNTS + [f"30 23 0:26 {mount_root} {mount} rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
                        "rw,nsdelegate,memory_recursiveprot"])
    return V2Host(proc_self, folders[-1], mount)


# cgroup v1: the CPU quota

@pytest.mark.parametrize("quota, processors, answer", [
    ("50000", 1, CONTAINERIZED),
    ("100000", 1, CONTAINERIZED),
    ("150000", 2, CONTAINERIZED),
    ("-1", AFFINITY, NOT_CONTAINERIZED),
])
def test_v1_cpu_quota_is_processors_rounded_up(container, tmp_path, quota, processors, answer):
    host = v1_host(tmp_path)
    write(host.cpu, {"cpu.cfs_quota_us": quota, "cpu.cfs_period_us": "100000"})
    assert container.initialize(host.proc_self) == answer
    assert container.processors() == min(processors, AFFINITY)


def test_v1_processors_never_exceed_the_affinity_count(container, tmp_path):
    host = v1_host(tmp_path)
    write(host.cpu, {"cpu.cfs_quota_us": str((AFFINITY + 2) * 100000)})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.processors() == AFFINITY


def test_v1_cpuset_is_not_taken_for_cpu(container, tmp_path):
    """The cpuset line and mount come first and start with "cpu"; the quota is found in cpu,cpuacct's own group."""
    host = v1_host(tmp_path)
    write(host.cpu, {"cpu.cfs_quota_us": "50000"})
    text = (host.proc_self / "cgroup").read_text()
    (host.proc_self / "cgroup").write_text(text.replace(f"11:cpuset:{POD}", "11:cpuset:/elsewhere"))
    write(host.hierarchies / "cpuset" / "elsewhere", {"cpu.cfs_quota_us": "300000", "cpu.cfs_period_us": "100000"})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.processors() == 1


# cgroup v1: memory

def test_v1_memory_limit_is_the_physical_memory(container, tmp_path):
    host = v1_host(tmp_path)
    write(host.memory, {"memory.limit_in_bytes": str(512 * MB)})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == 512 * MB
    assert container.get("physical_memory") == 512 * MB
    assert container.processors() == AFFINITY


def test_v1_unlimited_memory_and_no_quota_is_not_containerized(container, tmp_path):
    host = v1_host(tmp_path)
    assert container.initialize(host.proc_self) == NOT_CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == NO_LIMIT
    assert container.get("memory_and_swap_limit_in_bytes") == NO_LIMIT
    assert container.get("memory_soft_limit_in_bytes") == NO_LIMIT
    assert container.get("physical_memory") == MACHINE_MEMORY
    assert container.processors() == AFFINITY


def test_v1_memory_and_swap_is_memsw(container, tmp_path):
    host = v1_host(tmp_path)
    write(host.memory, {"memory.limit_in_bytes": str(512 * MB), "memory.memsw.limit_in_bytes": str(768 * MB)})
    container.initialize(host.proc_self)
    assert container.get("memory_and_swap_limit_in_bytes") == 768 * MB


def test_v1_memory_and_swap_without_swap_accounting_is_the_memory_limit(container, tmp_path):
    """No memory.memsw.* files: the kernel does not account swap."""
    host = v1_host(tmp_path)
    write(host.memory, {"memory.limit_in_bytes": str(512 * MB)})
    container.initialize(host.proc_self)
    assert container.get("memory_and_swap_limit_in_bytes") == 512 * MB


def test_v1_soft_limit(container, tmp_path):
    host = v1_host(tmp_path)
    write(host.memory, {"memory.soft_limit_in_bytes": str(256 * MB)})
    container.initialize(host.proc_self)
    assert container.get("memory_soft_limit_in_bytes") == 256 * MB


def test_v1_usage_max_usage_rss_and_cache(container, tmp_path):
    host = v1_host(tmp_path)
    write(host.memory, {"memory.usage_in_bytes": "123456789", "memory.max_usage_in_bytes": "234567890",
                        "memory.stat": V1_MEMORY_STAT})
    container.initialize(host.proc_self)
    assert container.get("memory_usage_in_bytes") == 123456789
    assert container.get("memory_max_usage_in_bytes") == 234567890
    assert container.get("rss_usage_in_bytes") == 2359296
    assert container.get("cache_usage_in_bytes") == 1310720


def test_v1_usage_files_missing_read_as_unreadable(container, tmp_path):
    host = v1_host(tmp_path)
    container.initialize(host.proc_self)
    assert container.get("memory_usage_in_bytes") == UNREADABLE
    assert container.get("memory_max_usage_in_bytes") == UNREADABLE
    assert container.get("rss_usage_in_bytes") == UNREADABLE
    assert container.get("cache_usage_in_bytes") == UNREADABLE


# cgroup v1: nested groups

@pytest.mark.parametrize("parent, child, limit", [(256, 512, 256), (512, 128, 128)])
def test_v1_the_lower_memory_limit_of_group_and_parent_wins(container, tmp_path, parent, child, limit):
    host = v1_host(tmp_path)
    write(host.memory.parent, {"memory.limit_in_bytes": str(parent * MB)})
    write(host.memory, {"memory.limit_in_bytes": str(child * MB)})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == limit * MB


def test_v1_a_quota_two_groups_up_caps_the_processors(container, tmp_path):
    host = v1_host(tmp_path)
    write(host.cpu.parent.parent, {"cpu.cfs_quota_us": "50000"})
    write(host.cpu, {"cpu.cfs_quota_us": "200000"})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.processors() == 1


def test_v1_limits_above_the_mount_point_are_not_seen(container, tmp_path):
    host = v1_host(tmp_path)
    for folder in (host.hierarchies, host.hierarchies.parent):
        write(folder, {"memory.limit_in_bytes": str(128 * MB), "cpu.cfs_quota_us": "50000",
                       "cpu.cfs_period_us": "100000"})
    assert container.initialize(host.proc_self) == NOT_CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == NO_LIMIT
    assert container.processors() == AFFINITY


# cgroup v1: a container's view (cgroup namespace of the host: the mounts show the container's group as their root)

def test_v1_container_reads_its_group_at_the_mount_point(container, tmp_path):
    host = v1_host(tmp_path, cgroup="/docker/abc", mount_root="/docker/abc")
    assert host.memory == host.hierarchies / "memory" and host.cpu == host.hierarchies / "cpu,cpuacct"
    write(host.memory, {"memory.limit_in_bytes": str(512 * MB)})
    write(host.cpu, {"cpu.cfs_quota_us": "50000"})
    write(host.hierarchies, {"memory.limit_in_bytes": str(128 * MB)})  # above the mount point: not the container's
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == 512 * MB
    assert container.processors() == 1


def test_v1_container_process_in_a_group_below_its_own(container, tmp_path):
    host = v1_host(tmp_path, cgroup="/docker/abc/worker", mount_root="/docker/abc")
    assert host.memory == host.hierarchies / "memory" / "worker"
    write(host.memory.parent, {"memory.limit_in_bytes": str(512 * MB)})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == 512 * MB


def test_v1_a_group_that_only_starts_like_the_mount_root_is_read_at_the_mount_point(container, tmp_path):
    """/docker/abcdef is not below a mount root of /docker/abc: its name must not be cut into "def"."""
    host = v1_host(tmp_path, cgroup="/docker/abc", mount_root="/docker/abc")
    write(host.memory, {"memory.limit_in_bytes": str(512 * MB)})
    write(host.hierarchies, {"memory.limit_in_bytes": str(128 * MB)})  # above the mount point
    cgroup = host.proc_self / "cgroup"
    cgroup.write_text(cgroup.read_text().replace("/docker/abc", "/docker/abcdef"))
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == 512 * MB


def test_v1_container_with_its_own_cgroup_namespace(container, tmp_path):
    """/proc/self/cgroup says "/" and the mounts show "/": the container's group is the mount point."""
    host = v1_host(tmp_path, cgroup="/")
    write(host.memory, {"memory.limit_in_bytes": str(512 * MB)})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == 512 * MB


# cgroup v2

@pytest.mark.parametrize("cpu_max, processors, answer", [
    ("50000 100000", 1, CONTAINERIZED),
    ("150000 100000", 2, CONTAINERIZED),
    ("max 100000", AFFINITY, NOT_CONTAINERIZED),
])
def test_v2_cpu_max_is_processors_rounded_up(container, tmp_path, cpu_max, processors, answer):
    host = v2_host(tmp_path)
    write(host.group, {"cpu.max": cpu_max})
    assert container.initialize(host.proc_self) == answer
    assert container.processors() == min(processors, AFFINITY)


def test_v2_processors_never_exceed_the_affinity_count(container, tmp_path):
    host = v2_host(tmp_path)
    write(host.group, {"cpu.max": f"{(AFFINITY + 2) * 100000} 100000"})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.processors() == AFFINITY


def test_v2_memory_max(container, tmp_path):
    host = v2_host(tmp_path)
    write(host.group, {"memory.max": str(512 * MB)})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == 512 * MB
    assert container.get("physical_memory") == 512 * MB


def test_v2_memory_max_max_is_no_limit(container, tmp_path):
    host = v2_host(tmp_path)
    assert container.initialize(host.proc_self) == NOT_CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == NO_LIMIT
    assert container.get("memory_and_swap_limit_in_bytes") == NO_LIMIT
    assert container.get("memory_soft_limit_in_bytes") == NO_LIMIT
    assert container.get("physical_memory") == MACHINE_MEMORY


@pytest.mark.parametrize("swap, memory_and_swap", [(256, 768), (0, 512)])
def test_v2_memory_and_swap_is_memory_max_plus_swap_max(container, tmp_path, swap, memory_and_swap):
    host = v2_host(tmp_path)
    write(host.group, {"memory.max": str(512 * MB), "memory.swap.max": str(swap * MB)})
    container.initialize(host.proc_self)
    assert container.get("memory_and_swap_limit_in_bytes") == memory_and_swap * MB


def test_v2_memory_low_is_the_soft_limit(container, tmp_path):
    host = v2_host(tmp_path)
    write(host.group, {"memory.low": str(256 * MB)})
    container.initialize(host.proc_self)
    assert container.get("memory_soft_limit_in_bytes") == 256 * MB


def test_v2_current_peak_anon_and_file(container, tmp_path):
    host = v2_host(tmp_path)
    write(host.group, {"memory.current": "123456789", "memory.peak": "234567890", "memory.stat": V2_MEMORY_STAT})
    container.initialize(host.proc_self)
    assert container.get("memory_usage_in_bytes") == 123456789
    assert container.get("memory_max_usage_in_bytes") == 234567890
    assert container.get("rss_usage_in_bytes") == 4349952
    assert container.get("cache_usage_in_bytes") == 9134080


def test_v2_memory_stat_fields_are_matched_whole(container, tmp_path):
    """anon_thp and file_mapped start with anon and file; placed first, they must not be read for them."""
    host = v2_host(tmp_path)
    write(host.group, {"memory.stat": "anon_thp 1\nfile_mapped 2\nanon 3\nfile 4\n"})
    container.initialize(host.proc_self)
    assert container.get("rss_usage_in_bytes") == 3
    assert container.get("cache_usage_in_bytes") == 4


def test_v2_nested_groups_the_lowest_limits_win(container, tmp_path):
    host = v2_host(tmp_path)
    write(host.group.parent, {"memory.max": str(256 * MB), "cpu.max": "50000 100000"})
    write(host.group, {"memory.max": str(512 * MB)})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == 256 * MB
    assert container.processors() == 1


def test_v2_limits_above_the_mount_point_are_not_seen(container, tmp_path):
    host = v2_host(tmp_path)
    write(host.mount.parent, {"memory.max": str(128 * MB), "cpu.max": "50000 100000"})
    assert container.initialize(host.proc_self) == NOT_CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == NO_LIMIT
    assert container.processors() == AFFINITY


@pytest.mark.parametrize("cgroup, mount_root", [("/docker/abc", "/docker/abc"), ("/", "/")])
def test_v2_container_reads_its_group_at_the_mount_point(container, tmp_path, cgroup, mount_root):
    """In the host's cgroup namespace, then in its own: either way the container's group is the mount point."""
    host = v2_host(tmp_path, cgroup=cgroup, mount_root=mount_root)
    assert host.group == host.mount
    write(host.group, {"memory.max": str(512 * MB), "cpu.max": "50000 100000"})
    assert container.initialize(host.proc_self) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == 512 * MB
    assert container.processors() == 1


# No cgroup at all

def no_cgroup_mounts(tmp_path):
    return fake_proc_self(tmp_path, [f"9:memory:{POD}", f"4:cpu,cpuacct:{POD}"], OTHER_MOUNTS)


def empty_proc_self_cgroup(tmp_path):
    host = v1_host(tmp_path)
    write(host.memory, {"memory.limit_in_bytes": str(512 * MB)})
    (host.proc_self / "cgroup").write_text("")
    return host.proc_self


def no_proc_self_files(tmp_path):
    return tmp_path / "proc" / "self"


@pytest.mark.parametrize("proc_self", [no_cgroup_mounts, empty_proc_self_cgroup, no_proc_self_files])
def test_without_a_cgroup_limits_read_as_unreadable_and_the_machine_is_whole(container, tmp_path, proc_self):
    assert container.initialize(proc_self(tmp_path)) == NOT_CONTAINERIZED
    for name in LONG_LONG_GETTERS[1:]:
        assert container.get(name) == UNREADABLE, name
    assert container.get("physical_memory") == MACHINE_MEMORY
    assert container.processors() == AFFINITY


# The version handshake and the hook

@pytest.mark.parametrize("version, answer", [(240099, LIBRARY_TOO_NEW), (240101, LIBRARY_TOO_OLD)])
def test_a_wrong_version_is_refused(container, tmp_path, version, answer):
    assert container.initialize(v1_host(tmp_path).proc_self, version) == answer


def test_the_hook_keeps_its_own_copy_of_the_folder(library, container, tmp_path):
    host = v1_host(tmp_path)
    write(host.memory, {"memory.limit_in_bytes": str(512 * MB)})
    name = ctypes.create_string_buffer(str(host.proc_self).encode())
    library.lab_container_use_proc(name)
    ctypes.memset(name, ord("x"), len(name) - 1)
    assert library.svm_container_initialize(VERSION) == CONTAINERIZED
    assert container.get("memory_limit_in_bytes") == 512 * MB


def test_the_hook_given_null_reads_the_real_proc_self_again(library, container, tmp_path):
    def readings():
        assert library.svm_container_initialize(VERSION) in (NOT_CONTAINERIZED, CONTAINERIZED)
        return [container.processors()] + [container.get(name) for name in LONG_LONG_GETTERS]

    library.lab_container_use_proc(b"/proc/self")
    real = readings()
    host = v2_host(tmp_path)
    write(host.group, {"memory.max": str(3 * MB), "cpu.max": "50000 100000", "memory.current": "7"})
    container.initialize(host.proc_self)
    library.lab_container_use_proc(None)
    assert readings()[:3] == real[:3]  # processors, physical memory, limit: usage moves between readings
    assert 1 <= real[0] <= AFFINITY
