"""What the parts of one benchmark share: its configuration, plan and processes, and what it has measured so far."""
import dataclasses
import os

from benchlab.config import Config
from benchlab.model import RunRow
from benchlab.plan.planner import Plan
from benchlab.results.environment import Environment
from benchlab.run.procs import ProcessManager


@dataclasses.dataclass
class BenchState:
    config: Config
    plan: Plan
    pm: ProcessManager
    rows: list[RunRow] = dataclasses.field(default_factory=list)
    failures: list[str] = dataclasses.field(default_factory=list)  # what makes the run fail: k6 or the app broken
    env: Environment = dataclasses.field(default_factory=Environment)  # results.json's
    # Each host runtime's CPU budget (provision/budget.CpuBudget) where --app-cpus asks for one: warm-ups lift it,
    # measured steps run within it. Set by the runner; untyped here, beneath the provisioning layer that defines it.
    budgets: dict[str, object] = dataclasses.field(default_factory=dict)

    def budget(self, runtime: str):
        """The runtime's CPU budget, None where its app has none (the whole machine, or a container's own limit)."""
        return self.budgets.get(runtime)

    @property
    def out(self) -> str:
        return self.config.out

    @property
    def logs(self) -> str:
        return os.path.join(self.config.out, "logs")

    @property
    def base_url(self) -> str:
        """The app of ours (not --target's)."""
        return f"http://127.0.0.1:{self.config.port}"
