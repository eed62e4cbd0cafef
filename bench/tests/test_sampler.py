"""The sampler's reading of the app's /lab/saturation: the series it sums into its columns; and of its CPU quota's
counters, from which a run's throttling comes."""
from benchlab.run.measure import sampler
from benchlab.run.measure.sampler import metric_values
from benchlab.run.provision import budget

JVM = """# TYPE jvm_gc_pause_seconds summary
jvm_gc_pause_seconds_count{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 12.0
jvm_gc_pause_seconds_sum{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 0.25
jvm_gc_pause_seconds_sum{action="end of major GC",cause="Allocation Failure",gc="MarkSweepCompact"} 0.5
# TYPE lab_gc_time_seconds counter
lab_gc_time_seconds_total 0.8
"""
# The executable: its collectors report their time, but Micrometer's pause timer has no series.
NATIVE = """# TYPE lab_gc_time_seconds counter
lab_gc_time_seconds_total 1.5
# TYPE jvm_memory_used_bytes gauge
jvm_memory_used_bytes{area="heap",id="young generation space"} 1048576.0
jvm_memory_used_bytes{area="nonheap",id="metaspace"} 2048.0
"""


def test_the_jvms_gc_pauses_come_from_micrometers_pause_timer():
    values = metric_values(JVM)
    assert values["gc_pause_seconds"] == 0.75 and values["gc_pause_count"] == 12.0


def test_the_executables_gc_pauses_come_from_its_collectors_time():
    values = metric_values(NATIVE)
    assert values["gc_pause_seconds"] == 1.5 and "gc_pause_count" not in values
    assert values["heap_used_bytes"] == 1048576.0


def test_the_rigs_busy_share_is_the_mean_over_its_own_cpus():
    from types import SimpleNamespace as Cpu
    per_cpu = [Cpu(idle=10.0, iowait=0.0), Cpu(idle=90.0, iowait=5.0), Cpu(idle=50.0, iowait=0.0)]
    assert sampler.busy_pct(per_cpu, (0,)) == 90.0
    assert sampler.busy_pct(per_cpu, (0, 2)) == 70.0  # CPU 1 is not in that set


def test_each_sample_holds_the_quotas_counters_and_a_run_its_throttling_between_the_first_and_the_last(tmp_path):
    counters = iter([budget.Throttling(100, 10, 200.0), budget.Throttling(160, 40, 800.0)])
    smp = sampler.Sampler(None, "http://127.0.0.1:1/lab/saturation", str(tmp_path / "s.csv"),
                          throttling=lambda: next(counters))
    smp.sample(0.0, None)
    assert {k: smp.rows[0][k] for k in sampler.THROTTLING} == dict(cfs_periods=100, cfs_throttled=10,
                                                                   cfs_throttled_ms=200.0)
    # the measured part: 6 s between its first and its last sample, 60 periods of 100 ms
    smp.rows = [dict(at=10.0, cfs_periods=100, cfs_throttled=10, cfs_throttled_ms=200.0), dict(at=13.0),
                dict(at=16.0, cfs_periods=160, cfs_throttled=40, cfs_throttled_ms=800.0)]
    assert smp.throttled() == (50.0, 100.0)
    smp.rows = smp.rows[:2]  # one reading: nothing to tell
    assert smp.throttled() == (None, None)
    assert sampler.Sampler(None, "", "").throttled() == (None, None)  # no quota of ours: no counters
