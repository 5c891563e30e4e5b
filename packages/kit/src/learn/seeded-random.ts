/**
 * mulberry32: a small, fast, seeded generator of numbers in [0, 1). Everything Weft samples (SVD
 * test matrices, bootstrap resamples, synthetic bundles) uses it, so a seed always gives the same
 * model, interval or bundle.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
