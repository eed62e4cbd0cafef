"""Article 000's executor sizes: the worker model's aggregation branches on a dedicated ThreadPoolExecutor at the
article's sizes, virtual and reactive beside them, at the article's 150 users (closed model). The report shows each
setting's throughput against the ideal, and whether the latency kept growing (a queue that keeps filling)."""
from benchlab.model import (AGGREGATE_IDEAL_S, AGGREGATE_SLO_P99_MS, REACTIVE, VIRTUAL, WORKER, InPreset, Limit,
                            Scenario, Variant)
from benchlab.scenarios.aggregate import AGGREGATE, WORKER_STARVES_ABOVE

NAME = "executors"
# Article 000 let latencies grow to 22 s: this scenario lifts the 6 s deadline so that the growth shows.
NO_EARLY_DEADLINE = (("lab.aggregate.deadline", "60s"),)


def branch_executor(core: int, max_size: int, queue: int) -> tuple[tuple[str, str], ...]:
    """The worker model's branches on a dedicated ThreadPoolExecutor (io.concurrencylab.worker.BranchExecutor)."""
    return (("lab.worker.branches.executor", "dedicated"), ("lab.worker.branches.core-size", str(core)),
            ("lab.worker.branches.max-size", str(max_size)), ("lab.worker.branches.queue-size", str(queue)))


SCENARIO = Scenario(
    NAME, "aggregate.js", slo_p99_ms=AGGREGATE_SLO_P99_MS, limit=Limit.OFFERED, ideal_latency_s=AGGREGATE_IDEAL_S,
    worker_starves_above_in_flight=WORKER_STARVES_ABOVE, worker_branches_nest=True, k6_timeout_s=60.0,
    variants=(Variant("", NO_EARLY_DEADLINE, (VIRTUAL, REACTIVE)),
              Variant("worker-pool", NO_EARLY_DEADLINE, (WORKER,)),
              Variant("article-small", NO_EARLY_DEADLINE + branch_executor(6, 12, 500), (WORKER,)),
              Variant("article-50-150", NO_EARLY_DEADLINE + branch_executor(50, 150, 500), (WORKER,)),
              Variant("article-100-300", NO_EARLY_DEADLINE + branch_executor(100, 300, 500), (WORKER,))),
    # quick: the article's 150 users with the extremes of the sweep
    quick=InPreset("vus:150", variants=("", "article-small"), selected=False),
    default=InPreset("vus:150,100,200,300", selected=False), probes=(AGGREGATE,))
