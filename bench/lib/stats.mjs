// Numbers shared by the benches: medians and percentiles of timed samples, the way the
// latency tables print them, and the seeded PRNG the generated projects are drawn from.
// Node built-ins only (bench/generate.mjs promises that).

/** Median of the samples; the mean of the two middle ones for an even count. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Nearest-rank percentile: the smallest sample with at least p % of the samples at or below it. */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** A latency in ms as the keystroke tables print it: two decimals under 10 ms, one above. */
export const fmtLatency = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

/** mulberry32: a small seeded PRNG returning floats in [0, 1); the same seed, the same sequence. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
