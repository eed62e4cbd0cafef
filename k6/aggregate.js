// User aggregation (article 000): a 100 ms base call, then 300 ms and 500 ms calls in parallel,
// so a healthy answer takes about 600 ms whatever the load; queueing shows as time above that.
// Each iteration asks for a random user id in 1..USERS.
//
//   k6 run --no-usage-report k6/aggregate.js                       (open model, 30/s, all models)
//   MODEL=worker LOAD_MODEL=closed VUS=150 RAMP_UP=60s DURATION=3m k6 run --no-usage-report k6/aggregate.js
//
// See k6/README.md for every variable.

import http from 'k6/http';
import { BASE_URL, SMOKE, envInt } from './lib/config.js';
import { checkResponse, get, isJsonError } from './lib/http.js';
import { aggregateFault } from './lib/aggregate.js';
import { loadOptions } from './lib/load.js';
import { summaryHandler } from './lib/summary.js';

const USERS = Math.max(1, envInt('USERS', 100000));
// Lower bound of a correct answer: 100 + max(300, 500) ms, less a little for clock jitter.
// Faster means a step was skipped (or the delays were configured otherwise: then set it, 0 = off).
const MIN_MS = envInt('MIN_AGGREGATE_MS', 590);
const MIN_SEQUENTIAL_MS = MIN_MS + 300;

export const options = loadOptions('aggregate', {
  rate: 30, // iterations/s, all models together (open model): 10/s each
  vus: 30, // concurrent users, all models together (closed model); the article's JMeter used 150
  duration: '30s',
  latency: 0.6, // expected seconds per request: sizes the open model's VU pool
  p99: 1000, // ms, the SLO (the bench's aggregate scenario): the ideal is ~600 ms
});

export { setup } from './lib/target.js';

const http400 = http.expectedStatuses(400);

// One check per answer: at 1,000 users k6 shares the machine with the app, and each check is a metric sample
// (with four checks per answer, k6 spent 12 % more CPU per iteration). What was wrong is logged instead, once per VU
// and from the first VUs only, like lib/http.js does with failed requests.
let faultLogged = false;
function aggregateChecks(prefix, id, minMs) {
  return {
    [`${prefix}: 200 with the requested user, complete` + (minMs > 0 ? `, in ${minMs} ms or more` : '')]: (r) => {
      const fault = aggregateFault(r, id, minMs);
      if (fault !== null && !faultLogged && __VU <= 20) {
        faultLogged = true;
        console.warn(`${prefix} ${r.url}: ${fault}`);
      }
      return fault === null;
    },
  };
}

export default function () {
  const model = __ENV.SCENARIO_MODEL;
  const id = 1 + Math.floor(Math.random() * USERS);
  const res = get(`${BASE_URL}/${model}/users/${id}/aggregate`, `GET /${model}/users/{id}/aggregate`);
  checkResponse(res, aggregateChecks('aggregate', id, MIN_MS));

  if (SMOKE && __ITER === 0) {
    // The sequential reference (~900 ms) and the JSON 400 of an id that is not a number.
    const seq = get(`${BASE_URL}/${model}/users/${id}/aggregate/sequential`,
      `GET /${model}/users/{id}/aggregate/sequential`);
    checkResponse(seq, aggregateChecks('sequential', id, MIN_SEQUENTIAL_MS));
    const missing = get(`${BASE_URL}/${model}/users/not-a-number/aggregate`,
      `GET /${model}/users/not-a-number/aggregate`, { responseCallback: http400 });
    checkResponse(missing, {
      'aggregate: bad id -> JSON 400': (r) => isJsonError(r, 400, 'bad_request'),
    });
  }
}

export const handleSummary = summaryHandler();
