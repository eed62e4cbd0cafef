// Long-held connections (article 002): each request asks the app to answer after HOLD_MS, so the app holds the
// connection that long: a sleeping virtual thread, a waiting worker-pool thread, or a pending timer on the event loop.
// The closed model holds VUS connections at once, the article's long polling:
//
//   k6 run --no-usage-report k6/hold.js                  (open model, 90/s, 1 s holds, all models)
//   MODEL=virtual LOAD_MODEL=closed VUS=1000 HOLD_MS=10000 TIMEOUT=30s DURATION=60s k6 run --no-usage-report k6/hold.js
//
// Thousands of connections need file descriptors on both sides: `ulimit -n` of the shell that runs k6 and of the
// app. See k6/README.md for every variable.

import http from 'k6/http';
import { BASE_URL, SMOKE, TIMEOUT, envInt } from './lib/config.js';
import { checkResponse, get, isJsonError, json } from './lib/http.js';
import { loadOptions, seconds } from './lib/load.js';
import { summaryHandler } from './lib/summary.js';

const HOLD_MS = envInt('HOLD_MS', 1000);
if (HOLD_MS >= seconds(TIMEOUT) * 1000) {
  throw new Error(`TIMEOUT (${TIMEOUT}) must be longer than HOLD_MS (${HOLD_MS} ms), or every request times out`);
}
// Timers may fire a little early by the client's clock; a hold answered sooner than this was not held.
const CLOCK_SLACK_MS = 10;

export const options = Object.assign(loadOptions('hold', {
  rate: 90, // iterations/s, all models together (open model)
  vus: 300, // connections held at once, all models together (closed model)
  duration: '30s',
  latency: HOLD_MS / 1000, // expected seconds per request: sizes the open model's VU pool
  p99: HOLD_MS + 1000, // ms, the SLO (the bench's hold scenario at 10 s): beyond the hold itself is queueing
}), { tags: { hold_ms: String(HOLD_MS) } });

export { setup } from './lib/target.js';

const http400 = http.expectedStatuses(400);

export default function () {
  const model = __ENV.SCENARIO_MODEL;
  const res = get(`${BASE_URL}/${model}/hold?ms=${HOLD_MS}`, `GET /${model}/hold`);
  checkResponse(res, {
    'hold: status 200': (r) => r.status === 200,
    'hold: held as long as asked': (r) => json(r).heldMs === HOLD_MS,
    'hold: not answered early': (r) => r.status !== 200 || r.timings.duration >= HOLD_MS - CLOCK_SLACK_MS,
  });

  if (SMOKE && __ITER === 0) {
    const invalid = get(`${BASE_URL}/${model}/hold?ms=-1`, `GET /${model}/hold (invalid)`,
      { responseCallback: http400 });
    checkResponse(invalid, { 'hold: negative ms -> JSON 400': (r) => isJsonError(r, 400, 'bad_request') });
  }
}

export const handleSummary = summaryHandler();
