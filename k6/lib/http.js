// One way to send a measured request and to check what came back, shared by the scenarios.

import http from 'k6/http';
import { check } from 'k6';
import { Counter } from 'k6/metrics';
import { TIMEOUT } from './config.js';

// Requests that got no HTTP answer at all (status 0: timeout, refused, reset). k6 already counts
// them in http_req_failed and keeps their durations in http_req_duration; these counters say how
// many of the failures were of this kind, so that they stand beside the latencies.
export const transportErrors = new Counter('transport_errors');
// The subset of transport errors that hit TIMEOUT (k6 error code 1050).
export const requestTimeouts = new Counter('request_timeouts');

const REQUEST_TIMEOUT_ERROR_CODE = 1050;

// `name` groups URLs that differ only by ids into one series; `model` is what runs compare.
function send(method, url, model, name, params, body = null) {
  const tags = Object.assign({ model, name }, params.tags);
  const res = http.request(method, url, body, Object.assign({ timeout: TIMEOUT }, params, { tags }));
  // Adding 0 as well keeps each counter's per-model series present when nothing failed.
  transportErrors.add(res.status === 0 ? 1 : 0, tags);
  requestTimeouts.add(res.error_code === REQUEST_TIMEOUT_ERROR_CODE ? 1 : 0, tags);
  return res;
}

export function get(url, model, name, params = {}) {
  return send('GET', url, model, name, params);
}

// A POST, without a body unless one is given (the report takes what it needs from the token).
export function post(url, model, name, params = {}, body = null) {
  return send('POST', url, model, name, params, body);
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
function logFailure(res, model) {
  // k6 itself logs every request that got no answer ("Request Failed").
  if (logged || __VU > 20 || res.status === 0) return;
  logged = true;
  console.warn(`[${model}] ${res.request.method} ${res.url} -> ${res.status}: ${String(res.body).slice(0, 200)}`);
}

export function checkResponse(res, model, checks) {
  const ok = check(res, checks, { model });
  if (!ok) logFailure(res, model);
  return ok;
}

// Checks shared by the scenarios' error probes: the app answers errors as JSON
// {"status", "error", "message"}.
export function isJsonError(res, status, error) {
  const body = json(res);
  return res.status === status && body.status === status && (!error || body.error === error);
}
