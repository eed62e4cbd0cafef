// The app's cache counters, read from its Prometheus metrics: the local tier's (Caffeine, cache "aggregate") and the
// Redis tier's (lab_cache_remote_total). Read in setup() and teardown(), their difference is the run's hit ratio.

import http from 'k6/http';
import { BASE_URL } from './config.js';

const SERIES = [
  ['local', 'hit', /^cache_gets_total\{[^}]*cache="aggregate"[^}]*result="hit"[^}]*\} (\S+)$/m],
  ['local', 'miss', /^cache_gets_total\{[^}]*cache="aggregate"[^}]*result="miss"[^}]*\} (\S+)$/m],
  ['remote', 'hit', /^lab_cache_remote_total\{[^}]*result="hit"[^}]*\} (\S+)$/m],
  ['remote', 'miss', /^lab_cache_remote_total\{[^}]*result="miss"[^}]*\} (\S+)$/m],
  ['remote', 'error', /^lab_cache_remote_total\{[^}]*result="error"[^}]*\} (\S+)$/m],
  ['remote', 'skipped', /^lab_cache_remote_total\{[^}]*result="skipped"[^}]*\} (\S+)$/m],
];

// { local: { hit, miss }, remote: { hit, miss, error, skipped } }, or null when the metrics cannot be read.
export function cacheCounters() {
  const res = http.get(`${BASE_URL}/q/metrics`, { timeout: '5s', tags: { name: 'GET /q/metrics' } });
  if (res.status !== 200) return null;
  const counters = { local: {}, remote: {} };
  for (const [tier, result, pattern] of SERIES) {
    const match = String(res.body).match(pattern);
    counters[tier][result] = match ? Number(match[1]) : 0;
  }
  return counters;
}

function ratio(hits, lookups) {
  return lookups > 0 ? `${((hits / lookups) * 100).toFixed(1)}% of ${lookups}` : 'no lookups';
}

// One line: each tier's hit ratio between two readings. The Redis tier is asked only on local misses; its lookups
// include those that failed or were skipped while Redis was failing. The local tier's lookups are not shown: Quarkus
// 3.33 counts each one twice (the ratio is right; see docs/design.md, "Known limits").
export function hitRatios(before, after) {
  if (!before || !after) return 'counters not readable from /q/metrics';
  const delta = (tier, result) => after[tier][result] - before[tier][result];
  const local = delta('local', 'hit') + delta('local', 'miss');
  const remote = ['hit', 'miss', 'error', 'skipped'].reduce((sum, r) => sum + delta('remote', r), 0);
  const localRatio = local > 0 ? `${((delta('local', 'hit') / local) * 100).toFixed(1)}%` : 'no lookups';
  return `local tier hits ${localRatio}; Redis tier hits ${ratio(delta('remote', 'hit'), remote)} lookups ` +
    `(errors ${delta('remote', 'error')}, skipped ${delta('remote', 'skipped')})`;
}
