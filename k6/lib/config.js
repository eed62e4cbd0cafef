// Everything a run can change comes from __ENV (k6 run -e NAME=value, or the shell's environment).
// This file only reads and validates it; load.js turns it into scenarios.

export const MODELS = ['virtual', 'worker', 'reactive'];

export function env(name, fallback) {
  const value = __ENV[name];
  return value === undefined || value === '' ? fallback : value;
}

export function envInt(name, fallback) {
  const raw = env(name, undefined);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  }
  return n;
}

export function envNumber(name, fallback) {
  const raw = env(name, undefined);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    throw new Error(`${name} must be a non-negative number, got '${raw}'`);
  }
  return n;
}

export function envFlag(name) {
  return ['1', 'true', 'yes', 'on'].includes(String(env(name, '')).toLowerCase());
}

// k6 durations ("30s", "1m30s", "500ms") are passed to k6 as they are; only the shape is checked
// here, so that a typo fails at start-up with the variable's name rather than deep inside k6.
export function envDuration(name, fallback) {
  const value = env(name, fallback);
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(value)) {
    throw new Error(`${name} must be a duration such as 500ms, 10s or 1m30s, got '${value}'`);
  }
  return value;
}

// `quarkus:dev` listens on 8080; a trailing slash would double up in the URLs.
export const BASE_URL = env('BASE_URL', 'http://localhost:8080').replace(/\/+$/, '');

// Per-request timeout. A request that hits it counts as failed (status 0) and its duration, the
// timeout itself, stays in http_req_duration.
export const TIMEOUT = envDuration('TIMEOUT', '10s');

export const SMOKE = envFlag('SMOKE');

// MODEL=all (the default) runs one scenario per model at the same time; otherwise just the one.
export function selectedModels() {
  const model = env('MODEL', 'all').toLowerCase();
  if (model === 'all') return MODELS.slice();
  if (!MODELS.includes(model)) {
    throw new Error(`MODEL must be one of ${MODELS.join('|')}|all, got '${model}'`);
  }
  return [model];
}
