/**
 * The floor under which a chain's waits are no backoff at all, from a reference client and an
 * error rate rather than a hand-picked number: for each count n of retries, the total of the
 * first n waits that a correct full-jitter client falls under only 1 time in 20,000. The
 * reference waits `random() x min(cap, base x 2^(k-1))` before retry k (full jitter, AWS's
 * "Exponential Backoff And Jitter"); any client whose every wait is at least as long in
 * distribution (a larger base or cap, equal or no jitter, p-retry's `randomize`, a loaded machine
 * delaying a retry) falls under it less often. A total of independent uniforms has an exact
 * distribution (a weighted Irwin-Hall sum), so the floor is computed, not sampled.
 */

/** The reference client and the error rate the floor is built for (shown in the report). */
export const floorReference = {
  /** First wait's cap, ms: the smallest base a backoff may start from. */
  baseMs: 50,
  /** Largest wait, ms: a backoff may stop growing (a cap) anywhere at or above it. */
  capMs: 3200,
  /** Chance, per count of retries, that the reference client's total falls under the floor. */
  perCount: 5e-5,
  /** The counts of retries the floor is checked at: from the first retry up to 3..10 of them. */
  fromRetries: 3,
  toRetries: 10,
} as const;

/** P(sum of a_k x U_k <= x) for independent uniforms U_k on [0, 1] (inclusion-exclusion). */
function weightedUniformSumCdf(weights: readonly number[], x: number): number {
  const n = weights.length;
  let factorial = 1;
  for (let i = 2; i <= n; i++) factorial *= i;
  const product = weights.reduce((p, w) => p * w, 1);
  let total = 0;
  // Only subsets whose weights sum below x contribute: few, for the small x of a floor.
  const visit = (i: number, sum: number, sign: number): void => {
    if (sum >= x) return;
    if (i === n) {
      total += sign * (x - sum) ** n;
      return;
    }
    visit(i + 1, sum, sign);
    visit(i + 1, sum + (weights[i] as number), -sign);
  };
  visit(0, 0, 1);
  return total / (factorial * product);
}

/** The total of n reference waits that the reference client falls under with chance `p`. */
function quantile(weights: readonly number[], p: number): number {
  let low = 0;
  let high = weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (weightedUniformSumCdf(weights, mid) < p) low = mid;
    else high = mid;
  }
  return low;
}

/** The reference client's largest wait before retry k (1-based), ms. */
function referenceDelay(k: number): number {
  return Math.min(floorReference.capMs, floorReference.baseMs * 2 ** (k - 1));
}

/** Floor (ms) on the total of the first n waits, by n; computed once. */
const floors = new Map<number, number>();
for (let n = floorReference.fromRetries; n <= floorReference.toRetries; n++) {
  const weights = Array.from({ length: n }, (_, i) => referenceDelay(i + 1));
  floors.set(n, Math.floor(quantile(weights, floorReference.perCount)));
}

/** The floor on the total of the first `retries` waits, ms, or undefined where none is checked. */
export function backoffFloorMs(retries: number): number | undefined {
  return floors.get(retries);
}
