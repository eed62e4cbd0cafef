"""What a request costs the app at steady state: its CPU per successful request at common rates (the cost runs), with
Student's t intervals over the interleaved runs, and each model as a multiple of the cheapest: the geometric mean of
the ratios of one repetition's runs, with the t interval of their logs. The A/A twin, a second app of one model, gives
the noise floor a ratio is told apart beyond. Why these intervals: bench/README.md, "Reading the report"."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from benchlab.formatting import ONE_RUN, TOO_FEW_REQUESTS
from benchlab.model import TWIN_SUFFIX, LoadKind

LEVEL = 0.95
# The CPU clock's tick, in which the kernel counts a process's CPU time (USER_HZ, 100 on Linux): psutil's cpu_times.
CPU_TICK_MS = 10.0


@dataclass(frozen=True)
class Floor:
    """The A/A control of one scenario's cost rate: one model's CPU per request in its twin (the same build, started
    apart) against the app the models share, paired by repetition. How far two apps of one build differ in this run
    and case: a ratio between models is told apart only beyond it."""
    scenario: str
    model: str  # the twin's model
    rate: float
    runs: int  # the repetitions both ran
    ratio: float  # the twin's CPU per request / the app's, over those repetitions (Paired)
    low: float  # its 95 % interval
    high: float

    @property
    def factor(self) -> float:
        """The floor as a factor of at least 1: the least the twin strayed, either way, that its runs' scatter cannot
        explain (the near end of its interval; 1 where the interval holds 1). The model's ratio brings its own
        interval: the twin's ratio itself, or its far end, would count the runs' scatter twice."""
        return max(1.0, self.low, 1 / self.high if self.high > 0 else 1.0)


@dataclass(frozen=True)
class Cost:
    scenario: str
    model: str
    rate: float  # the common arrival rate, requests/s
    runs: int
    cpu_ms: float  # the app's CPU ms per successful request: mean over the runs
    low: float  # its 95 % interval (Student's t over the runs)
    high: float
    ratio: float  # against the cheapest model at the same rate, over the repetitions both ran (Paired; 1: the cheapest)
    ratio_low: float
    ratio_high: float
    pairs: int  # the repetitions the ratio is over
    cheapest_settled: bool  # whether the cheapest one's cost is settled (unsettled()): a ratio of it is read only then
    rss_mb: float | None  # median of the runs' peak RSS
    alloc_mb_per_s: float | None  # median allocation rate
    k6_cpu_ms: float | None  # k6's CPU per request, median: what the load generator paid for the same requests
    floor: Floor | None = None  # the A/A control at this rate (None: no twin ran)
    runtime: str = ""
    ladder: str = ""  # the cost rates of its runtime, "250, 500, 1000": compared with the runtimes that ran the same

    @property
    def unsettled(self) -> str | None:
        """What stands in place of the cost's interval where its runs do not bound it, or None (unsettled())."""
        return unsettled(self.runs, self.cpu_ms, self.low, self.high)

    @property
    def ratio_unsettled(self) -> str | None:
        """The same for its ratio to the cheapest: ONE_RUN from one pair of runs, TOO_FEW_REQUESTS where either cost
        is unsettled (or no repetition paired them); None where the ratio can be read."""
        if self.pairs == 1:
            return ONE_RUN
        return TOO_FEW_REQUESTS if self.pairs < 2 or self.unsettled or not self.cheapest_settled else None

    @property
    def detectable(self) -> bool:
        """Whether the model's cost differs from the cheapest one's beyond the interval."""
        return not self.ratio_low <= 1 <= self.ratio_high

    @property
    def told_apart(self) -> bool:
        """Whether the difference is also beyond the variation between two apps of one build (the A/A floor), with
        both costs settled; without a twin nothing is."""
        return self.floor is not None and self.ratio_unsettled is None and self.ratio_low > self.floor.factor

    @property
    def undecided(self) -> bool:
        """Whether its ratio's estimate lies beyond the A/A floor and its interval does not (more_verdict_runs)."""
        return self.floor is not None and not self.told_apart and self.ratio > self.floor.factor

    @property
    def requests_per_core_s(self) -> float:
        """The most one core could serve at this cost: 1,000 ms / CPU ms per request."""
        return 1000 / self.cpu_ms


def per_run(rows: pd.DataFrame) -> pd.Series:
    """Each cost run's app CPU ms per successful request (the rows' figure is per finished request)."""
    ok = rows.requests - rows.errors
    return (rows.app_cpu_ms_per_req * rows.requests / ok.where(ok > 0)).astype(float)


def k6_per_run(rows: pd.DataFrame) -> pd.Series:
    """Each run's k6 CPU ms per successful request: what the load generator paid for the requests the app served."""
    return (rows.k6_cpu_pct * 10 / rows.ok_rps.where(rows.ok_rps > 0)).astype(float)


@dataclass(frozen=True)
class K6AboveApp:
    """A cost run in which k6 spent more CPU per successful request than the app: the load generator then took more
    of the shared cores than the app it measured, and weighed on its figures as other processes do."""
    scenario: str
    model: str
    rate: float
    repetition: int
    k6_ms: float  # k6's CPU ms per successful request (k6_per_run)
    app_ms: float  # the app's (per_run)


def k6_above_app(runs: pd.DataFrame) -> list[K6AboveApp]:
    """Every cost run, the twin's too, in which k6's CPU per successful request exceeded the app's."""
    rows = runs[runs.load_model == LoadKind.COST]
    app, k6 = per_run(rows), k6_per_run(rows)
    return [K6AboveApp(r.scenario, r.model, float(r.load), int(r.repetition), float(k6[i]), float(app[i]))
            for i, r in rows[k6 > app].iterrows()]


def unsettled(runs: int, cost: float, low: float, high: float) -> str | None:
    """What stands in place of a cost's interval where its runs do not bound it, or None: ONE_RUN, whose scatter from
    run to run is unknown; TOO_FEW_REQUESTS where the interval is unbounded or wider than the cost itself. At 20/s,
    two runs of 60 requests each gave "0.000 to 1.2 ms": the CPU clock's 10 ms ticks scatter them."""
    if runs < 2:
        return ONE_RUN
    return TOO_FEW_REQUESTS if high - low > cost else None


def cost_interval(values: np.ndarray, tick_ms_per_request: float) -> tuple[float, float]:
    """The t interval of a cost's runs, from 0 at the lowest: a cost is not negative, whatever two scattered runs
    allow. Unbounded where the runs agree within one tick of the CPU clock per request: the ticks hid their scatter
    (two runs of 1,000 requests read 0.2390 and 0.2392 ms, "0.239 to 0.239")."""
    if len(values) and np.ptp(values) < tick_ms_per_request:
        return 0.0, math.inf
    low, high = t_interval(values)
    return max(0.0, low), high


def tick_per_request(rows: pd.DataFrame) -> float:
    """One tick of the CPU clock spread over the successful requests of the shortest of these runs: the least
    difference in CPU per request that their CPU times can show."""
    ok = (rows.requests - rows.errors).min()
    return CPU_TICK_MS / ok if ok > 0 else math.inf


def t_interval(values: np.ndarray) -> tuple[float, float]:
    """The 95 % interval of the mean of a few runs; unbounded from fewer than 2, or where they agree to the last digit:
    the CPU clock's ticks (10 ms) hid their scatter (two runs of 60 requests at 20/s both read 1.750 ms)."""
    if len(values) < 2 or stats.sem(values) == 0:
        return -math.inf, math.inf
    low, high = stats.t.interval(LEVEL, len(values) - 1, loc=values.mean(), scale=stats.sem(values))
    return float(low), float(high)


def log_ratios(model: pd.Series, cheapest: pd.Series) -> np.ndarray:
    """The log of model / cheapest for each repetition both ran (Series indexed by repetition)."""
    return np.log((model / cheapest).dropna().to_numpy())


@dataclass(frozen=True)
class Paired:
    """A ratio of two sides' CPU per request over the repetitions both ran: the geometric mean of each repetition's
    ratio, and the t interval of their logs. Estimate and interval from the same runs: a ratio of means over 4 runs
    and 7 read 1.15x beside its paired interval of 1.18 to 1.26."""
    ratio: float
    low: float
    high: float
    pairs: int


def paired(model: pd.Series, reference: pd.Series) -> Paired:
    """model / reference from the runs of the same repetition (Series indexed by repetition); NaN where none paired."""
    logs = log_ratios(model, reference)
    low, high = t_interval(logs)
    return Paired(float(np.exp(logs.mean())) if len(logs) else math.nan,
                  math.exp(low) if low > -math.inf else 0.0, math.exp(high) if high < math.inf else math.inf,
                  len(logs))


def twins(runs: pd.DataFrame) -> pd.Series:
    """Which rows are the A/A twin's (a table written before the twin has none)."""
    return runs.get("twin", pd.Series(False, index=runs.index)).fillna(False).astype(bool)


def costs(runs: pd.DataFrame) -> list[Cost]:
    """Per scenario (and variant), rate and model, from the cost runs of the tidy table; at each rate the cheapest
    model first, with the twin's floor where it ran."""
    rows = runs[runs.load_model == LoadKind.COST].copy()
    if rows.empty:
        return []
    rows["cpu_ms"] = per_run(rows)
    rows["k6_ms"] = k6_per_run(rows)
    if "runtime" not in rows:
        rows["runtime"] = ""
    # runtimes are compared where they ran the same cost rates: a block whose search moved its rates below a knee
    # shares a rate with another by chance only
    rows["ladder"] = rows.groupby(["scenario", "runtime"]).load.transform(
        lambda rates: ", ".join(f"{r:g}" for r in sorted(set(rates))))
    on_twin = twins(rows)
    out = []
    for (scenario, ladder, rate), at in rows[~on_twin].groupby(["scenario", "ladder", "load"], sort=False):
        by_rep = by_repetition(at)
        if not by_rep:
            continue
        twin_rows = rows[on_twin & (rows.scenario == scenario) & (rows.ladder == ladder) & (rows.load == rate)]
        # one twin per runtime where the report compares runtimes' models as models: the widest floor holds for all
        floors = [f for _, g in twin_rows.groupby("model") if (f := a_a_floor(g, by_rep, scenario, float(rate)))]
        floor = max(floors, key=lambda f: f.factor, default=None)
        order = sorted(by_rep, key=lambda m: by_rep[m].mean())  # the cheapest first
        bounds = {m: cost_interval(by_rep[m].to_numpy(), tick_per_request(at[at.model == m])) for m in order}
        cheapest = by_rep[order[0]]
        cheapest_settled = unsettled(len(cheapest), float(cheapest.mean()), *bounds[order[0]]) is None
        for model in order:
            g, mean = at[at.model == model], float(by_rep[model].mean())
            vs = Paired(1.0, 1.0, 1.0, len(cheapest)) if model == order[0] else paired(by_rep[model], cheapest)
            out.append(Cost(scenario, model, float(rate), len(by_rep[model]), mean, *bounds[model], vs.ratio, vs.low,
                            vs.high, vs.pairs, cheapest_settled, median(g.rss_peak_mb), median(g.alloc_mb_per_s),
                            median(g.k6_ms), floor, str(g.runtime.iloc[0]), ladder))
    return out


def by_repetition(at: pd.DataFrame) -> dict[str, pd.Series]:
    """Each model's CPU per request by repetition, from cost rows of one rate with their cpu_ms."""
    by_rep = {m: g.groupby("repetition").cpu_ms.mean().dropna() for m, g in at.groupby("model", sort=False)}
    return {m: v for m, v in by_rep.items() if len(v)}


def a_a_floor(twin_rows: pd.DataFrame, by_rep: dict[str, pd.Series], scenario: str, rate: float) -> Floor | None:
    """A twin's CPU per request against its model's in the shared app, paired by repetition (None: no such model)."""
    twin = twin_rows.groupby("repetition").cpu_ms.mean().dropna()
    model = twin_rows.model.iloc[0].replace(TWIN_SUFFIX, "", 1)  # "virtual twin (jvm-cpu0.25)": "virtual (...)"
    if model not in by_rep or twin.empty:
        return None
    vs = paired(twin, by_rep[model])
    return Floor(scenario, model, rate, vs.pairs, vs.ratio, vs.low, vs.high) if vs.pairs else None


def verdict_costs(found: list[Cost], scenario: str) -> list[Cost]:
    """A scenario's costs at the rates its verdicts are read at: per runtime, the highest every model of it ran (a
    block whose search moved its cost rates below a knee has rates of its own). In costs()'s order: at each rate, the
    cheapest first."""
    mine = [c for c in found if c.scenario == scenario]
    chosen = set()
    for runtime in {c.runtime for c in mine}:
        theirs = [c for c in mine if c.runtime == runtime]
        models = {c.model for c in theirs}
        common = [c.rate for c in theirs if {x.model for x in theirs if x.rate == c.rate} == models]
        chosen.add((runtime, max(common or [c.rate for c in theirs])))
    return [c for c in mine if (c.runtime, c.rate) in chosen]


@dataclass(frozen=True)
class MoreRuns:
    """Repetitions to add to a verdict's rate: for the models whose verdict is undecided, and the cheapest."""
    rate: float
    runs: int  # the repetitions each of `models` then holds
    added: int  # how many that adds
    models: tuple[str, ...]  # the cheapest first


def more_verdict_runs(runs: pd.DataFrame, scenario: str, most: int) -> MoreRuns | None:
    """Where a model's ratio to the cheapest lies beyond the A/A floor and its interval does not, the repetitions
    that bring it and the cheapest to `most`, where `most` could clear the floor (could_clear); None where no verdict
    is undecided, none could be decided, or they hold `most` already. Not as few as the first runs' scatter promises:
    two added runs, one of them disturbed, left a 1.21x ratio undecided. Asked once, after the planned runs; the
    verdict is read once more, after the added ones: looking after each would tell apart more ties by chance. Runs of
    one scenario, runtime and variant, as the table has them."""
    found = verdict_costs(costs(runs), scenario)
    if not found or found[0].floor is None:
        return None
    rows = runs[(runs.load_model == LoadKind.COST) & ~twins(runs) & (runs.load == found[0].rate)].copy()
    rows["cpu_ms"] = per_run(rows)
    by_rep = by_repetition(rows)
    cheapest_runs = by_rep[found[0].model]
    undecided = [c.model for c in found[1:] if c.undecided
                 and could_clear(log_ratios(by_rep[c.model], cheapest_runs), c.floor.factor, most)]
    held = min((len(by_rep[m]) for m in [found[0].model, *undecided]), default=most)
    if not undecided or held >= most:
        return None
    return MoreRuns(found[0].rate, most, most - held, (found[0].model, *undecided))


def could_clear(logs: np.ndarray, floor: float, most: int) -> bool:
    """Whether `most` paired runs would clear the floor, were the mean and the scatter of these log ratios the truth
    (their mean is the ratio's estimate, Paired): their interval's half-width within the estimate's lead on the floor.
    Worker's JWT + MySQL 1.06x against a floor of x1.03, scattered by 10 %, would need dozens."""
    gap = logs.mean() - math.log(floor) if len(logs) >= 2 else 0.0
    if gap <= 0:
        return False
    return bool(stats.t.ppf((1 + LEVEL) / 2, most - 1) * float(np.std(logs, ddof=1)) / math.sqrt(most) < gap)


def cheapest(runs: pd.DataFrame, scenario: str, runtime: str) -> str | None:
    """The model whose request costs least in a runtime's cost runs of a scenario as configured (None: none ran)."""
    found = verdict_costs(costs(runs[(runs.runtime == runtime) & (runs.scenario == scenario)
                                     & (runs.variant.fillna("") == "")]), scenario)
    return found[0].model if found else None


def median(values: pd.Series) -> float | None:
    values = values.dropna()
    return float(values.median()) if len(values) else None


@dataclass(frozen=True)
class Gain:
    """One model's steady CPU per request in this build (after) against another build (before, --builds), from the
    cost runs of one interleaved run: each repetition's blocks ran one after the other, an app each."""
    scenario: str
    model: str
    rate: float
    before: str  # the runtimes: jvm-NAME, the other build
    after: str  # jvm, this build
    before_ms: float
    after_ms: float
    ratio: float  # after / before over the runs' pairs (the k-th run of either build in a repetition, Paired)
    low: float  # its 95 % interval
    high: float
    pairs: int
    per_app: tuple[float, ...]  # the ratio of each repetition's pair of apps: the variation between apps
    failed: int  # failed requests in both builds' cost runs


def gains(runs: pd.DataFrame, before: str, after: str, cost_repeat: int) -> list[Gain]:
    """Per scenario, cost rate and model: this build's CPU per request against the other build's."""
    rows = runs[(runs.load_model == LoadKind.COST) & runs.runtime.isin([before, after]) & ~twins(runs)].copy()
    rows["cpu_ms"] = per_run(rows)
    out = []
    for (scenario, rate, model), at in rows.groupby(["scenario", "load", "model"], sort=False):
        side = {rt: g.groupby("repetition").cpu_ms.mean().dropna() for rt, g in at.groupby("runtime")}
        if set(side) != {before, after}:
            continue
        vs = paired(side[after], side[before])
        apps = pd.DataFrame({"after": side[after], "before": side[before]}).dropna()
        apps["app"] = (apps.index - 1) // cost_repeat
        per_app = tuple(float(g["after"].mean() / g["before"].mean()) for _, g in apps.groupby("app"))
        out.append(Gain(scenario, model, float(rate), before, after, float(side[before].mean()),
                        float(side[after].mean()), vs.ratio, vs.low, vs.high, vs.pairs, per_app,
                        int(at.errors.sum())))
    return out
