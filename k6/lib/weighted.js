// A weighted choice per iteration: each item is drawn with probability weight / sum of weights, from the cumulative
// weights (one Math.random() per draw), as a traffic mix is drawn request by request.

// items: [[value, weight], ...] with positive weights. Returns a function that draws one value.
export function weightedPicker(items) {
  if (items.length === 0 || items.some(([, w]) => !(w > 0))) {
    throw new Error('a weighted choice needs items with positive weights');
  }
  const total = items.reduce((sum, [, w]) => sum + w, 0);
  let running = 0;
  const cumulative = items.map(([value, w]) => [value, (running += w) / total]);
  return function pick() {
    const u = Math.random();
    for (const [value, upTo] of cumulative) {
      if (u < upTo) return value;
    }
    return cumulative[cumulative.length - 1][0];
  };
}
