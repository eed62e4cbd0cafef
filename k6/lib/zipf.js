// Ids drawn from a Zipf distribution: rank k (1..n) comes with probability proportional to 1/k^s, so a few ids are
// asked for again and again and most rarely, as real traffic does; a cache of a given size then sees a realistic hit
// ratio instead of the near-zero one of uniform ids. s around 1 is typical of web traffic; larger s, hotter head.
//
// Rejection-inversion sampling (W. Hörmann, G. Derflinger, "Rejection-inversion to generate variates from monotone
// discrete distributions", 1996), as in Apache Commons' ZipfDistribution: exact, O(1) per draw and no table, so that
// 100,000 ids cost nothing per VU.

function helper1(x) {
  return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (1 / 2 - x * (1 / 3 - x / 4));
}

function helper2(x) {
  return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + (x / 2) * (1 + (x / 3) * (1 + x / 4));
}

// Returns a function that draws ranks 1..n; rank 1 is the most frequent.
export function zipfSampler(n, s) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`the number of ids must be a positive integer, got ${n}`);
  if (!(s > 0)) throw new Error(`the Zipf exponent must be positive, got ${s}`);
  const h = (x) => Math.exp(-s * Math.log(x));
  const hIntegral = (x) => {
    const logX = Math.log(x);
    return helper2((1 - s) * logX) * logX;
  };
  const hIntegralInverse = (x) => Math.exp(helper1(Math.max(-1, x * (1 - s))) * x);
  const hIntegralX1 = hIntegral(1.5) - 1;
  const hIntegralN = hIntegral(n + 0.5);
  const cut = 2 - hIntegralInverse(hIntegral(2.5) - h(2));
  return function sample() {
    for (;;) {
      const u = hIntegralN + Math.random() * (hIntegralX1 - hIntegralN);
      const x = hIntegralInverse(u);
      const k = Math.min(n, Math.max(1, Math.floor(x + 0.5)));
      if (k - x <= cut || u >= hIntegral(k + 0.5) - h(k)) return k;
    }
  };
}
