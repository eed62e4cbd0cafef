// Burst (a pod's edge): RATE JWT + MySQL requests/s offered for DURATION, spread over the models, each with TIMEOUT
// to be answered. An app at its edge must answer what it cannot serve (503 or a refused connection), not leave it to
// time out. Every request ends in one of five counters:
//   burst_served      200 with the token's own user
//   burst_shed        503: service_overloaded as JSON with Retry-After, or a bare one (counted in burst_bare_503 too)
//   burst_refused     no HTTP answer, but no wait either: the connection refused or reset
//   burst_unanswered  nothing within TIMEOUT
//   burst_wrong       anything else: another status, another user
// AGGREGATE_RATE aggregations/s run beside it (0 by default), each with AGGREGATE_TIMEOUT: an app at its edge sheds
// the lookups and serves these. Each counts in aggregate_served (a complete answer for the id asked) or aggregate_lost.
//
//   RATE=3000 TIMEOUT=1s DURATION=15s AGGREGATE_RATE=30 bench/k6 run k6/burst.js
//
// The integration test PodEdgeIT runs it against the packaged app within 0.5 CPU; k6/README.md has every variable.

import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { BASE_URL, TIMEOUT, envDuration, envInt, selectedModels } from './lib/config.js';
import { aggregateFault } from './lib/aggregate.js';
import { REQUEST_TIMEOUT_ERROR_CODE, json } from './lib/http.js';
import { seconds } from './lib/load.js';
import { assertTargetReady } from './lib/target.js';
import { assertTokensFresh, loadTokens, randomToken } from './lib/tokens.js';

const tokens = loadTokens(import.meta.resolve('../target/tokens.txt'));
const models = selectedModels();
const rate = envInt('RATE', 3000);
// VUs for every request to wait its full TIMEOUT, at most MAX_VUS: past them k6 drops iterations and counts them in
// dropped_iterations, as offered but never sent.
const maxVUs = Math.min(envInt('MAX_VUS', 3000), Math.ceil(rate * seconds(TIMEOUT)) + 1);
const duration = envDuration('DURATION', '15s');
const aggregateRate = envInt('AGGREGATE_RATE', 0);
const aggregateTimeout = __ENV.AGGREGATE_TIMEOUT || '10s';
const aggregateUsers = envInt('AGGREGATE_USERS', 2000);
const aggregateVUs = Math.ceil(aggregateRate * seconds(aggregateTimeout)) + 1;

const scenarios = {
  burst: { executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration,
    preAllocatedVUs: Math.min(maxVUs, Math.ceil(rate / 10)), maxVUs },
};
if (aggregateRate > 0) {
  scenarios.aggregations = { executor: 'constant-arrival-rate', rate: aggregateRate, timeUnit: '1s', duration,
    preAllocatedVUs: aggregateVUs, maxVUs: aggregateVUs, exec: 'aggregation' };
}

export const options = {
  scenarios,
  summaryTrendStats: ['med', 'p(99)', 'max'],
  systemTags: ['status', 'error_code', 'scenario'],
  // The submetric makes k6 count the aggregations it could not send apart from the burst's.
  thresholds: aggregateRate > 0 ? { 'dropped_iterations{scenario:aggregations}': ['count>=0'] } : {},
};

const counters = Object.fromEntries(['served', 'shed', 'refused', 'unanswered', 'wrong'].map(
  (name) => [name, new Counter(`burst_${name}`)]));
// A 503 without the app's JSON: Quarkus itself answers some so under overload, before the app sees the request.
const bare503 = new Counter('burst_bare_503');
const aggregateServed = new Counter('aggregate_served');
const aggregateLost = new Counter('aggregate_lost');

export function setup() {
  assertTokensFresh(tokens);
  assertTargetReady();
  return { ready: true };
}

function outcome(res, email) {
  if (res.status === 0) return res.error_code === REQUEST_TIMEOUT_ERROR_CODE ? 'unanswered' : 'refused';
  if (res.status === 200) return json(res).email === email() ? 'served' : 'wrong';
  if (res.status === 503) {
    const body = json(res);
    if (!(body.status === 503 && body.error === 'service_overloaded' && res.headers['Retry-After'])) bare503.add(1);
    return 'shed';
  }
  return 'wrong';
}

export default function () {
  const model = models[__ITER % models.length];
  const [token, email] = randomToken(tokens);
  const res = http.get(`${BASE_URL}/${model}/users/me`, {
    headers: { Authorization: `Bearer ${token}` }, timeout: TIMEOUT, tags: { name: 'GET /{model}/users/me' },
    // Every answer is judged here, so none is a failure to k6.
    responseCallback: http.expectedStatuses({ min: 0, max: 599 }),
  });
  const kind = outcome(res, email);
  counters[kind].add(1);
  if (kind === 'wrong' && __ITER < 5) console.warn(`wrong answer: ${res.status} ${String(res.body).slice(0, 200)}`);
}

// An aggregation beside the burst: anything but a complete answer for its id is lost.
export function aggregation() {
  const model = models[__ITER % models.length];
  const id = 1 + Math.floor(Math.random() * aggregateUsers);
  const res = http.get(`${BASE_URL}/${model}/users/${id}/aggregate`, {
    timeout: aggregateTimeout, tags: { name: 'GET /{model}/users/{id}/aggregate' },
    responseCallback: http.expectedStatuses({ min: 0, max: 599 }),
  });
  const fault = aggregateFault(res, id, 0);
  (fault === null ? aggregateServed : aggregateLost).add(1);
  if (fault !== null && __ITER < 5) console.warn(`aggregation lost: ${fault}`);
}

// The counters and k6's dropped iterations as one JSON object, to SUMMARY_FILE when it is set, and on stdout.
export function handleSummary(data) {
  const count = (name) => (data.metrics[name] ? data.metrics[name].values.count : 0);
  const result = { rate, timeout: TIMEOUT, maxVUs, setupCompleted: Boolean(data.setup_data && data.setup_data.ready),
    dropped: count('dropped_iterations') };
  for (const name of Object.keys(counters)) result[name] = count(`burst_${name}`);
  result.bare503 = count('burst_bare_503');
  result.aggregateServed = count('aggregate_served');
  result.aggregateLost = count('aggregate_lost');
  result.aggregateDropped = count('dropped_iterations{scenario:aggregations}');
  const text = `${JSON.stringify(result)}\n`;
  return __ENV.SUMMARY_FILE ? { [__ENV.SUMMARY_FILE]: text, stdout: text } : { stdout: text };
}
