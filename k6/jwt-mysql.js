// JWT + MySQL (article 001): verify the bearer token, read its email claim, select that user's
// row, return it. Each iteration sends one request with a token picked at random from the
// pre-made tokens file, so the database reads are spread over the users like in the article.
//
//   k6 run --no-usage-report k6/jwt-mysql.js                      (open model, 100/s, all models)
//   MODEL=reactive LOAD_MODEL=closed VUS=100 k6 run --no-usage-report k6/jwt-mysql.js
//
// See k6/README.md for every variable.

import http from 'k6/http';
import { BASE_URL, SMOKE } from './lib/config.js';
import { checkResponse, get, isJsonError, json } from './lib/http.js';
import { loadOptions } from './lib/load.js';
import { summaryHandler } from './lib/summary.js';
import { assertTargetReady } from './lib/target.js';
import { assertTokensFresh, loadTokens, randomToken } from './lib/tokens.js';

const tokens = loadTokens(import.meta.resolve('../target/tokens.txt'));

export const options = loadOptions('jwt-mysql', {
  rate: 100, // iterations/s, all models together (open model)
  vus: 50, // concurrent users, all models together (closed model): Bombardier's first step
  duration: '30s',
  latency: 0.02, // expected seconds per request: sizes the open model's VU pool
  p99: 50, // ms, the SLO (the bench's jwt-mysql scenario): a point select takes a few ms
});

export function setup() {
  assertTokensFresh(tokens);
  assertTargetReady();
  return { ready: true };
}

const FIELDS = ['first', 'last', 'city', 'county', 'age'];
const http401 = http.expectedStatuses(401);

export default function () {
  const model = __ENV.SCENARIO_MODEL;
  const [token, email] = randomToken(tokens);
  const res = get(`${BASE_URL}/${model}/users/me`, `GET /${model}/users/me`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  checkResponse(res, {
    'me: status 200': (r) => r.status === 200,
    "me: email is the token's user": (r) => json(r).email === email(),
    'me: has first, last, city, county, age': (r) => {
      const body = json(r);
      return FIELDS.every((f) => body[f] !== undefined && body[f] !== null);
    },
  });

  if (SMOKE && __ITER === 0) {
    // A bad token must be refused with the JSON error, not answered or crashed on. The 401 is
    // expected here, so it does not count as a failed request.
    const refused = get(`${BASE_URL}/${model}/users/me`, `GET /${model}/users/me (bad token)`, {
      headers: { Authorization: 'Bearer not-a-jwt' },
      responseCallback: http401,
    });
    checkResponse(refused, {
      'me: bad token -> 401 invalid_token': (r) => isJsonError(r, 401, 'invalid_token'),
    });
  }
}

export const handleSummary = summaryHandler();
