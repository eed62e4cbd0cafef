// The gateway (article 004): each iteration sends one request through /{model}/gateway/api/..., drawn from the
// article's mix: 40 % heavy (~55 KB, ~69 ms), 35 % data (~5 KB, ~21 ms), 25 % process (a POST echo, ~20 ms). The
// backends wait on timers, so they do not limit the run: the gateway does.
//
//   k6 run --no-usage-report k6/gateway.js                              (open model, 150/s, all models)
//   MODEL=virtual LOAD_MODEL=closed VUS=16 DURATION=60s k6 run --no-usage-report k6/gateway.js    (the article's wrk -c16)
//   MODEL=virtual LOAD_MODEL=closed VUS=100 DURATION=60s k6 run --no-usage-report k6/gateway.js   (wrk -c100)
//
// See k6/README.md for every variable.

import http from 'k6/http';
import { BASE_URL, SMOKE } from './lib/config.js';
import { checkResponse, get, isJsonError, json, post } from './lib/http.js';
import { loadOptions } from './lib/load.js';
import { summaryHandler } from './lib/summary.js';
import { weightedPicker } from './lib/weighted.js';

const pickBackend = weightedPicker([['heavy', 40], ['data', 35], ['process', 25]]);

export const options = loadOptions('gateway', {
  rate: 150, // iterations/s, all models together (open model)
  vus: 16, // concurrent connections, all models together (closed model): the article's first wrk step
  duration: '30s',
  latency: 0.06, // expected seconds per request (the mix's mean): sizes the open model's VU pool
  p99: 500, // ms, the SLO (the bench's gateway scenario): heavy's slowest backend answer takes 316 ms
});

export { setup } from './lib/target.js';

// A small order, the same for every request: process echoes it.
const ORDER = JSON.stringify({ order: 4004, customer: 'c-17', lines: [{ sku: 'SKU-00042', qty: 2 }, { sku: 'SKU-01234', qty: 1 }] });
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const http502 = http.expectedStatuses(502);

export default function () {
  const model = __ENV.SCENARIO_MODEL;
  const backend = pickBackend();
  const url = `${BASE_URL}/${model}/gateway/api/${backend}`;
  const name = `${backend === 'process' ? 'POST' : 'GET'} /${model}/gateway/api/${backend}`;
  const params = { tags: { backend } };
  const res = backend === 'process'
    ? post(url, name, Object.assign({ headers: JSON_HEADERS }, params), ORDER)
    : get(url, name, params);
  checkResponse(res, {
    'gateway: status 200': (r) => r.status === 200,
    'gateway: the backend asked, annotated by this model': (r) => {
      const body = json(r);
      return body.backend === backend && body._gateway !== undefined && body._gateway.model === model
        && body._gateway.instance === r.headers['X-Gateway-Instance'];
    },
    'gateway: process echoes the order': (r) => backend !== 'process' || (json(r).payload || {}).order === 4004,
  });

  if (SMOKE && __ITER === 0) {
    const failing = get(`${BASE_URL}/${model}/gateway/api/data?status=503`,
      `GET /${model}/gateway/api/data (backend fails)`, { responseCallback: http502 });
    checkResponse(failing, {
      'gateway: a backend 503 -> JSON 502': (r) => isJsonError(r, 502, 'downstream_error'),
    });
  }
}

export const handleSummary = summaryHandler();
