// What a right aggregation answer is, for every script that asks for one (aggregate.js, burst.js).

import { json } from './http.js';

const FIELDS = ['age', 'sex', 'phone', 'level'];

// What is wrong with an aggregation answer, or null when it is right.
export function aggregateFault(res, id, minMs) {
  if (res.status !== 200) return `status ${res.status}`;
  const body = json(res);
  if (body.id !== id || body.name !== `User ${id}`) return `not user ${id}: ${res.body}`;
  const missing = FIELDS.filter((f) => body[f] === undefined || body[f] === null);
  if (missing.length > 0) return `missing ${missing.join(', ')}`;
  if (minMs > 0 && res.timings.duration < minMs) return `answered in ${res.timings.duration} ms, below ${minMs} ms`;
  return null;
}
