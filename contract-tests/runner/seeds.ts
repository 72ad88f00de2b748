/** Reproducible randomness: per-check seeds derived from the run's seed, and a seeded PRNG. */

/** A 32-bit seed for one check, stable for a given run seed and check id. */
export function checkSeed(runSeed: number, checkId: string): number {
  // FNV-1a over "seed:id": changing either gives an unrelated seed.
  let hash = 0x811c9dc5;
  for (const char of `${runSeed}:${checkId}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash | 0;
}

/** A seeded PRNG in [0, 1) (mulberry32), for jitter that replays the same way. */
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

/** A fresh random run seed (a signed 32-bit integer, as fast-check takes). */
export function randomSeed(): number {
  return (Math.random() * 2 ** 32) | 0;
}
