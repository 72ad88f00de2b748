/** Reproducible randomness: per-check seeds derived from the run's seed, and a seeded PRNG. */
import { seededRandom as fakeSeededRandom } from '../../mock/internal/entry.ts';

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

/** A seeded PRNG in [0, 1) (the fake's mulberry32), for jitter that replays the same way. */
export function seededRandom(seed: number): () => number {
  return fakeSeededRandom(seed, 'harness');
}

/** A fresh random run seed (a signed 32-bit integer, as fast-check takes). */
export function randomSeed(): number {
  return (Math.random() * 2 ** 32) | 0;
}
