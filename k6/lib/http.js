// One way to send a measured request and to check what came back, shared by the scenarios.

import http from 'k6/http';
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import { SMOKE, TIMEOUT, envInt } from './config.js';

// Requests that got no HTTP answer at all (status 0: timeout, refused, reset). k6 already counts
// them in http_req_failed and keeps their durations in http_req_duration; these counters say how
// many of the failures were of this kind, so that they stand beside the latencies. They are added
// to only when it happens: a sample per request would cost k6 more than a rare failure is worth.
// Each sample carries its scenario's tags, so the per-model series exist wherever one failed.
export const transportErrors = new Counter('transport_errors');
// The subset of transport errors that hit TIMEOUT (k6 error code 1050).
export const requestTimeouts = new Counter('request_timeouts');

export const REQUEST_TIMEOUT_ERROR_CODE = 1050;

// One iteration in CHECK_EVERY (per VU, its first included) reads and checks the answer's body; the
// others are judged by their status alone (http_req_failed), and k6 does not even copy their bodies
// into the script. By hand every iteration is checked (1); bench/run samples in its measured runs,
// where k6 shares the machine with the app and every microsecond of k6 is one the app does not get.
// A smoke run checks everything.
export const CHECK_EVERY = SMOKE ? 1 : Math.max(1, envInt('CHECK_EVERY', 1));

export function checkedIteration() {
  return __ITER % CHECK_EVERY === 0;
}

// `name` groups URLs that differ only by ids into one series (the URL itself when absent); the
// model is a tag of the scenario each model runs in (load.js), so every sample has it already.
function send(method, url, name, params, body) {
  const options = Object.assign({ timeout: TIMEOUT }, params);
  if (name) options.tags = Object.assign({ name }, params.tags);
  if (!checkedIteration()) options.responseType = 'none';
  const res = http.request(method, url, body, options);
  if (res.status === 0) {
    transportErrors.add(1);
    if (res.error_code === REQUEST_TIMEOUT_ERROR_CODE) requestTimeouts.add(1);
  }
  return res;
}

export function get(url, name, params = {}) {
  return send('GET', url, name, params);
}

// A POST, without a body unless one is given (the report takes what it needs from the token).
export function post(url, name, params = {}, body = null) {
  return send('POST', url, name, params, body);
}

export function json(res) {
  try {
    return res.json() || {};
  } catch (e) {
    return {};
  }
}

// Log what went wrong, once per VU and only from the first VUs: enough to see the cause without
// flooding the terminal when a whole run fails (the counts are in the summary).
let logged = false;
function logFailure(res) {
  // k6 itself logs every request that got no answer ("Request Failed").
  if (logged || __VU > 20 || res.status === 0) return;
  logged = true;
  console.warn(`[${__ENV.SCENARIO_MODEL}] ${res.request.method} ${res.url} -> ${res.status}: ` +
    `${String(res.body).slice(0, 200)}`);
}

// The checks of a checked iteration (see CHECK_EVERY); the other iterations pass.
export function checkResponse(res, checks) {
  if (!checkedIteration()) return true;
  const ok = check(res, checks);
  if (!ok) logFailure(res);
  return ok;
}

// Checks shared by the scenarios' error probes: the app answers errors as JSON
// {"status", "error", "message"}.
export function isJsonError(res, status, error) {
  const body = json(res);
  return res.status === status && body.status === status && (!error || body.error === error);
}
