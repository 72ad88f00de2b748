/**
 * Reproducible randomness for chaos: a 32-bit string hash (FNV-1a) to derive one stream per
 * operation and key from the seed, and mulberry32 as the generator. Small, fast and the same on
 * every platform, so a printed seed replays the same answers anywhere.
 */

/** FNV-1a over the UTF-16 code units of `text`, as an unsigned 32-bit integer. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A generator of numbers in [0, 1) for one named stream of a seed: the same seed and name give
 * the same sequence.
 * @example const next = seededRandom(42, 'listPets|demo-free'); next(); // 0.2...
 */
export function seededRandom(seed: number, stream: string): () => number {
  let state = hash32(`${seed}|${stream}`);
  return () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
