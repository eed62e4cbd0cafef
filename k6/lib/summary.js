// End-of-test summary. With SUMMARY_FILE set, the whole summary data goes there as JSON (for the
// benchmark driver) and stdout gets a short per-model table written here, because k6's own text
// summary cannot be called from a script offline. Without SUMMARY_FILE, k6 prints its usual text.
//
// Every latency below includes failed requests (k6 records a duration for them too); the error
// columns stand beside the latencies, so a run that only looks fast because requests failed
// shows it.

import { BASE_URL, MODELS } from './config.js';
import { runParameters } from './load.js';

const STATS = ['med', 'p(90)', 'p(95)', 'p(99)', 'max'];

function ms(value) {
  if (value === undefined || value === null) return '-';
  return value >= 1000 ? `${(value / 1000).toFixed(2)}s` : `${value.toFixed(1)}ms`;
}

function pad(cells, widths) {
  return cells.map((c, i) => String(c).padEnd(widths[i])).join(' ').trimEnd();
}

function values(data, name) {
  const metric = data.metrics[name];
  return metric ? metric.values : {};
}

function row(data, label, filter) {
  const dur = values(data, `http_req_duration${filter}`);
  const reqs = values(data, `http_reqs${filter}`);
  const failed = values(data, `http_req_failed${filter}`);
  const checks = values(data, `checks${filter}`);
  const seconds = data.state.testRunDurationMs / 1000;
  return [
    label,
    reqs.count || 0,
    ((reqs.count || 0) / seconds).toFixed(1),
    // http_req_failed is a Rate of "failed": its passes are the failed requests.
    failed.passes || 0,
    values(data, `transport_errors${filter}`).count || 0,
    checks.passes + checks.fails > 0 ? `${(checks.rate * 100).toFixed(2)}%` : '-',
    ...STATS.map((s) => ms(dur[s])),
  ];
}

function crossedThresholds(data) {
  const crossed = [];
  for (const [name, metric] of Object.entries(data.metrics)) {
    for (const [expr, result] of Object.entries(metric.thresholds || {})) {
      if (!result.ok) crossed.push(`${name} ${expr}`);
    }
  }
  return crossed;
}

export function compactSummary(title, data) {
  if (!data.lab.setupCompleted) {
    return `\n${title}: setup() failed, no load was run (the reason is logged above)\n\n`;
  }
  const header = ['model', 'reqs', 'req/s', 'failed', 'transport', 'checks', ...STATS];
  const widths = [9, 7, 7, 7, 10, 8, 9, 9, 9, 9, 9];
  const lines = [pad(header, widths)];
  for (const model of MODELS) {
    if (data.metrics[`http_reqs{model:${model}}`]) lines.push(pad(row(data, model, `{model:${model}}`), widths));
  }
  const dropped = values(data, 'dropped_iterations').count || 0;
  const timeouts = values(data, 'request_timeouts').count || 0;
  const crossed = crossedThresholds(data);
  return [
    '',
    `${title}: ${(data.state.testRunDurationMs / 1000).toFixed(1)}s; latencies include failed requests`,
    ...lines,
    `dropped iterations: ${dropped}; timeouts: ${timeouts}; summary JSON: ${__ENV.SUMMARY_FILE}`,
    crossed.length === 0 ? 'thresholds: all passed' : `thresholds crossed:\n  ${crossed.join('\n  ')}`,
    '',
    '',
  ].join('\n');
}

// The script's handleSummary, titled with the name it gave loadOptions().
export function summaryHandler() {
  return function handleSummary(data) {
    const title = runParameters.script;
    const file = __ENV.SUMMARY_FILE;
    // k6 calls handleSummary even when setup() threw; setupCompleted tells a reader of the JSON
    // that such a file holds no measurement.
    data.lab = Object.assign({ baseUrl: BASE_URL,
      setupCompleted: Boolean(data.setup_data && data.setup_data.ready) }, runParameters);
    // Returning nothing makes k6 print its own text summary.
    if (!file) return undefined;
    return { [file]: JSON.stringify(data, null, 2), stdout: compactSummary(title, data) };
  };
}
