// The report (article 003): POST /{model}/users/me/report reads the token's user and the users of
// the same city, county and age (eight reads) and inserts one row into `reports`, in one
// transaction, so that each request holds a database connection for several round trips. With a
// small connection pool, requests queue for a connection; this is the pool-sweep scenario's load.
//
//   k6 run --no-usage-report k6/report.js                          (open model, 50/s, all models)
//   MODEL=worker LOAD_MODEL=closed VUS=50 k6 run --no-usage-report k6/report.js
//
// See k6/README.md for every variable.

import http from 'k6/http';
import { BASE_URL, SMOKE } from './lib/config.js';
import { checkResponse, isJsonError, json, post } from './lib/http.js';
import { loadOptions } from './lib/load.js';
import { summaryHandler } from './lib/summary.js';
import { assertTargetReady } from './lib/target.js';
import { assertTokensFresh, loadTokens, randomToken } from './lib/tokens.js';

const tokens = loadTokens(import.meta.resolve('../target/tokens.txt'));

export const options = loadOptions('report', {
  rate: 50, // iterations/s, all models together (open model)
  vus: 50, // concurrent users, all models together (closed model): the article's 50 users
  duration: '30s',
  latency: 0.05, // expected seconds per request: sizes the open model's VU pool
  p99: 500, // ms, the SLO (the bench's pool-sweep scenario): nine statements on one connection
});

export function setup() {
  assertTokensFresh(tokens);
  assertTargetReady();
  return { ready: true };
}

const http401 = http.expectedStatuses(401);

export default function () {
  const model = __ENV.SCENARIO_MODEL;
  const [token, email] = randomToken(tokens);
  const res = post(`${BASE_URL}/${model}/users/me/report`, `POST /${model}/users/me/report`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  checkResponse(res, {
    'report: status 200': (r) => r.status === 200,
    "report: the token's user, counted among the city's": (r) => {
      const body = json(r);
      return body.email === email() && body.cityUsers >= 1 && body.countyUsers >= 1 && body.sameAge >= 1;
    },
  });

  if (SMOKE && __ITER === 0) {
    const refused = post(`${BASE_URL}/${model}/users/me/report`, `POST /${model}/users/me/report (bad token)`, {
        headers: { Authorization: 'Bearer not-a-jwt' },
        responseCallback: http401,
      });
    checkResponse(refused, {
      'report: bad token -> 401 invalid_token': (r) => isJsonError(r, 401, 'invalid_token'),
    });
  }
}

export const handleSummary = summaryHandler();
