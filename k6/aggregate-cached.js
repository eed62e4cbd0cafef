// The cached user aggregation: the same answer as aggregate.js, through a local (Caffeine) and a shared (Redis) cache
// tier. Ids follow a Zipf distribution over 1..USERS (exponent ZIPF_S), so that a cache of a given size sees the hit
// ratio of real traffic: a hit answers in milliseconds, a miss pays the aggregation's ~600 ms.
// setup() and teardown() read the app's cache counters: the run's hit ratio per tier is logged at the end.
//
//   k6 run --no-usage-report k6/aggregate-cached.js                         (open model, 150/s, all models)
//   MODEL=reactive RATE=600 ZIPF_S=0.9 DURATION=2m k6 run --no-usage-report k6/aggregate-cached.js
//
// The models share one cache (a hit is a hit whichever model filled it): to compare them, run one model at a time,
// each on a freshly started app. See k6/README.md for every variable.

import http from 'k6/http';
import { BASE_URL, SMOKE, envInt, envNumber } from './lib/config.js';
import { cacheCounters, hitRatios } from './lib/cache.js';
import { checkResponse, get, isJsonError, json } from './lib/http.js';
import { loadOptions } from './lib/load.js';
import { summaryHandler } from './lib/summary.js';
import { assertTargetReady } from './lib/target.js';
import { zipfSampler } from './lib/zipf.js';

const USERS = Math.max(1, envInt('USERS', 100000));
const ZIPF_S = envNumber('ZIPF_S', 1.1);
const nextId = zipfSampler(USERS, ZIPF_S);

export const options = loadOptions('aggregate-cached', {
  rate: 150, // iterations/s, all models together (open model): 50/s each
  vus: 30, // concurrent users, all models together (closed model)
  duration: '30s',
  latency: 0.2, // expected seconds per request, hits and misses together: sizes the open model's VU pool
  p99: 1000, // ms, the SLO (the bench's cache scenario): a miss takes ~600 ms, a hit a few
});

export function setup() {
  assertTargetReady();
  return { ready: true, counters: cacheCounters() };
}

const FIELDS = ['age', 'sex', 'phone', 'level'];
const http400 = http.expectedStatuses(400);

export default function () {
  const model = __ENV.SCENARIO_MODEL;
  const id = nextId();
  const res = get(`${BASE_URL}/${model}/users/${id}/aggregate/cached`,
    `GET /${model}/users/{id}/aggregate/cached`);
  checkResponse(res, {
    'cached: status 200': (r) => r.status === 200,
    'cached: id and name are the requested user\'s': (r) => {
      const body = json(r);
      return body.id === id && body.name === `User ${id}`;
    },
    'cached: has age, sex, phone, level': (r) => {
      const body = json(r);
      return FIELDS.every((f) => body[f] !== undefined && body[f] !== null);
    },
  });

  if (SMOKE && __ITER === 0) {
    const bad = get(`${BASE_URL}/${model}/users/not-a-number/aggregate/cached`,
      `GET /${model}/users/not-a-number/aggregate/cached`, { responseCallback: http400 });
    checkResponse(bad, {
      'cached: bad id -> JSON 400': (r) => isJsonError(r, 400, 'bad_request'),
    });
  }
}

export function teardown(data) {
  const ratios = hitRatios(data.counters, cacheCounters());
  console.log(`cache during the run (ZIPF_S=${ZIPF_S}, USERS=${USERS}): ${ratios}`);
}

export const handleSummary = summaryHandler();
