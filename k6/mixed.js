// I/O mixed with CPU work (article 002): a 100 ms downstream call, then CPU rounds of SHA-256 over 4 KB (a few
// microseconds each), on the model's own thread (the reactive model: on the event loop), or with OFFLOAD=1 on the
// app's bounded CPU pool. Compare the two at the same rate to see whether offloading helps a model.
//
//   k6 run --no-usage-report k6/mixed.js                          (open model, 60/s, 1,000 rounds, all models)
//   MODEL=reactive OFFLOAD=1 CPU=5000 RATE=200 k6 run --no-usage-report k6/mixed.js
//
// See k6/README.md for every variable.

import http from 'k6/http';
import { BASE_URL, SMOKE, envFlag, envInt } from './lib/config.js';
import { checkResponse, get, isJsonError, json } from './lib/http.js';
import { loadOptions } from './lib/load.js';
import { summaryHandler } from './lib/summary.js';

const CPU = envInt('CPU', 1000);
const OFFLOAD = envFlag('OFFLOAD');
const ENDPOINT = OFFLOAD ? 'mixed/offload' : 'mixed';
// The downstream call alone takes 100 ms; a faster answer skipped it.
const MIN_MS = 95;

export const options = Object.assign(loadOptions('mixed', {
  rate: 60, // iterations/s, all models together (open model)
  vus: 30, // concurrent users, all models together (closed model)
  duration: '30s',
  latency: 0.12, // expected seconds per request: sizes the open model's VU pool
  p99: 500, // ms, the SLO (the bench's mixed scenario): the ideal is 100 ms plus the rounds
}), { tags: { variant: OFFLOAD ? 'offload' : 'inline', cpu: String(CPU) } });

export { setup } from './lib/target.js';

const http400 = http.expectedStatuses(400);

export default function () {
  const model = __ENV.SCENARIO_MODEL;
  const res = get(`${BASE_URL}/${model}/${ENDPOINT}?cpu=${CPU}`, `GET /${model}/${ENDPOINT}`);
  checkResponse(res, {
    'mixed: status 200': (r) => r.status === 200,
    'mixed: the rounds asked, a SHA-256 digest, offloaded as asked': (r) => {
      const body = json(r);
      return body.cpu === CPU && /^[0-9a-f]{64}$/.test(body.digest || '') && body.offloaded === OFFLOAD;
    },
    'mixed: includes the 100 ms downstream call': (r) => r.status !== 200 || r.timings.duration >= MIN_MS,
  });

  if (SMOKE && __ITER === 0) {
    const invalid = get(`${BASE_URL}/${model}/${ENDPOINT}?cpu=abc`, `GET /${model}/${ENDPOINT} (invalid)`,
      { responseCallback: http400 });
    checkResponse(invalid, { 'mixed: cpu not a number -> JSON 400': (r) => isJsonError(r, 400, 'bad_request') });
  }
}

export const handleSummary = summaryHandler();
