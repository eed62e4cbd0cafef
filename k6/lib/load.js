// Load presets: turns RATE / VUS / DURATION / LOAD_MODEL into named k6 scenarios, one per model,
// plus the per-model thresholds that sit next to them.
//
// Open model (default): iterations start at a fixed arrival rate whatever the server does, so a
// slow server cannot slow down the test and hide its own latency (no coordinated omission).
// This is the one to compare latencies with.
// Closed model: a fixed number of VUs loop back to back, each with its own keep-alive
// connection, like Bombardier's connections or JMeter's threads. Throughput is the result there.

import { SMOKE, TIMEOUT, env, envDuration, envInt, envNumber, selectedModels } from './config.js';

// A k6 duration ("1m30s", "500ms") in seconds.
export function seconds(duration) {
  let total = 0;
  for (const [, n, unit] of duration.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(n) * { ms: 0.001, s: 1, m: 60, h: 3600 }[unit];
  }
  return total;
}

export let runParameters = {};

// name: the script's name, as its file and the bench's scenario spell it ('jwt-mysql'): the k6
// scenarios are named after it (jwt-mysql_virtual, ...) and so is its summary (summary.js).
// preset: this script's defaults, e.g. { rate: 100, vus: 50, duration: '30s', latency: 0.01,
// p99: 50 }, where latency is the expected seconds per request, used only to size the VU pool of
// the open model, and p99 the scenario's SLO in ms (see thresholds below).
export function loadOptions(name, preset) {
  const models = selectedModels();
  const loadModel = env('LOAD_MODEL', 'open').toLowerCase();
  if (!['open', 'closed'].includes(loadModel)) {
    throw new Error(`LOAD_MODEL must be open or closed, got '${loadModel}'`);
  }
  const duration = envDuration('DURATION', preset.duration);
  const rampUp = env('RAMP_UP', '') === '' ? '' : envDuration('RAMP_UP', '');
  const stepAt = env('STEP_AT', '') === '' ? 0 : seconds(envDuration('STEP_AT', ''));
  const stepFactor = envNumber('STEP_FACTOR', 2);
  if (stepAt && (rampUp || stepAt >= seconds(duration) || stepFactor <= 0)) {
    throw new Error('STEP_AT must fall within DURATION, without RAMP_UP, and STEP_FACTOR must be above 0');
  }

  // RATE, VUS, PRE_ALLOCATED_VUS and MAX_VUS are totals for the run, shared evenly by the models.
  const n = models.length;
  const rate = envInt('RATE', preset.rate);
  const vus = envInt('VUS', preset.vus);
  if (rate < 1 || vus < 1) throw new Error('RATE and VUS must be at least 1');
  const perModelRate = rate / n;
  // Pre-allocated VUs: three times the expected concurrency (rate x latency), and at least the
  // arrivals of 100 ms (20 per model at the least). k6 starts more VUs (up to maxVUs) when they
  // run out, but iterations due meanwhile are dropped: without the 100 ms, a 60 ms stall at
  // 1,400 point selects/s (a GC pause) dropped 0.5 % of them, which the SLO counts as failures.
  const preAllocated = Math.ceil(envInt('PRE_ALLOCATED_VUS',
    n * Math.max(20, Math.ceil(perModelRate * Math.max(preset.latency * 3, 0.1)))) / n);
  // Enough VUs for every request to wait for its full timeout, capped so that an overloaded
  // server makes k6 report dropped_iterations instead of eating the machine's memory: at
  // 1,000 VUs, or three times the expected concurrency when that is more (1,600 aggregations/s
  // keep ~1,000 requests in flight at the ideal 0.6 s).
  const cap = Math.max(1000, Math.ceil(perModelRate * preset.latency * 3));
  const maxVUs = Math.max(preAllocated, Math.ceil(
    envInt('MAX_VUS', n * Math.min(cap, Math.ceil(perModelRate * seconds(TIMEOUT)))) / n));

  const scenarios = {};
  for (const model of models) {
    const base = { tags: { model }, env: { SCENARIO_MODEL: model } };
    let scenario;
    if (SMOKE) {
      // A tiny correctness run: a few requests per model, one after the other.
      scenario = { executor: 'per-vu-iterations', vus: 1, iterations: envInt('SMOKE_ITERATIONS', 3),
        maxDuration: '30s' };
    } else if (loadModel === 'open' && stepAt) {
      // A step: RATE until STEP_AT, then STEP_FACTOR times it (in a second) to the end, as a load balancer in front
      // of a scaled-out app meets it (the bench's scale-out scenario).
      scenario = { executor: 'ramping-arrival-rate', startRate: rate, timeUnit: `${n}s`,
        stages: [{ duration: `${stepAt}s`, target: rate }, { duration: '1s', target: rate * stepFactor },
          { duration: `${Math.max(0, seconds(duration) - stepAt - 1)}s`, target: rate * stepFactor }],
        preAllocatedVUs: Math.ceil(preAllocated * stepFactor), maxVUs: Math.ceil(maxVUs * stepFactor) };
    } else if (loadModel === 'open' && !rampUp) {
      // rate per timeUnit of n seconds = RATE / n per second, exact even when RATE % n != 0.
      scenario = { executor: 'constant-arrival-rate', rate, timeUnit: `${n}s`, duration,
        preAllocatedVUs: preAllocated, maxVUs };
    } else if (loadModel === 'open') {
      scenario = { executor: 'ramping-arrival-rate', startRate: 0, timeUnit: `${n}s`,
        stages: [{ duration: rampUp, target: rate }, { duration, target: rate }],
        preAllocatedVUs: preAllocated, maxVUs };
    } else if (!rampUp) {
      scenario = { executor: 'constant-vus', vus: Math.ceil(vus / n), duration };
    } else {
      // JMeter-style: users join one by one over RAMP_UP, then all of them run for DURATION.
      scenario = { executor: 'ramping-vus', startVUs: 0,
        stages: [{ duration: rampUp, target: Math.ceil(vus / n) }, { duration, target: Math.ceil(vus / n) }] };
    }
    scenarios[`${name}_${model}`] = Object.assign(scenario, base);
  }

  // What this run was asked to do, in plain values, for the summary JSON (see summary.js).
  runParameters = { script: name, models, loadModel: SMOKE ? 'smoke' : loadModel, rate, vus, duration,
    rampUp: rampUp || null, stepAt: stepAt || null, stepFactor: stepAt ? stepFactor : null, timeout: TIMEOUT, preAllocatedVUs: preAllocated, maxVUs };

  return {
    scenarios,
    thresholds: thresholds(models, preset),
    summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'],
    // Requests are grouped by the `name` tag, so the URL tag would only add cardinality.
    systemTags: ['status', 'method', 'name', 'group', 'check', 'error', 'error_code', 'scenario',
      'expected_response'],
  };
}

// The SLO as thresholds: p99 under P99_MS and failed requests at most MAX_ERROR_RATE, per model. bench/run passes
// its own SLO for the scenario in both (its module in bench/benchlab/scenarios/), and each script's default p99 is
// that same number, so a run by hand and the bench judge alike. A smoke run is a few requests: no latency threshold.
function thresholds(models, preset) {
  const maxErrorRate = envNumber('MAX_ERROR_RATE', 0.001);
  const p99 = envInt('P99_MS', preset.p99);
  const minChecks = envNumber('MIN_CHECK_RATE', 0.99);
  const t = {
    // Always true: declared so that the run-wide counters are in the summary even when zero.
    transport_errors: ['count>=0'],
    request_timeouts: ['count>=0'],
    dropped_iterations: ['count>=0'],
  };
  for (const model of models) {
    t[`http_req_failed{model:${model}}`] = [`rate<=${maxErrorRate}`];
    t[`http_req_duration{model:${model}}`] = SMOKE ? ['max>=0'] : [`p(99)<${p99}`];
    t[`checks{model:${model}}`] = [`rate>=${minChecks}`];
    // Always true, as above: they put the per-model counts and rates into the summary.
    t[`http_reqs{model:${model}}`] = ['count>=0'];
    t[`transport_errors{model:${model}}`] = ['count>=0'];
    t[`http_req_duration{model:${model},expected_response:true}`] = ['max>=0'];
  }
  return t;
}
