// setup() helpers: stop before the load starts when the run could only produce errors.

import http from 'k6/http';
import { BASE_URL } from './config.js';

// One quick request. Note it is counted in the run-wide http_* metrics (it is one request among
// thousands), but not in the {model:...} ones, which hold only the measured requests.
export function assertTargetReady() {
  const url = `${BASE_URL}/q/health/ready`;
  const res = http.get(url, { timeout: '5s', tags: { name: 'setup: GET /q/health/ready' } });
  if (res.status !== 200) {
    const why = res.status === 0 ? res.error : `HTTP ${res.status} ${String(res.body).slice(0, 300)}`;
    throw new Error(`The app at ${BASE_URL} is not ready (${url}: ${why}). ` +
      'Start it (./mvnw quarkus:dev serves http://localhost:8080) or point BASE_URL at it.');
  }
}

// setup() of a script that needs nothing but a ready app (`export { setup } from './lib/target.js';`): no load
// starts against an app that is not there.
export function setup() {
  assertTargetReady();
  return { ready: true };
}
