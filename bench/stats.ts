/**
 * The few statistics the bench reports: medians across rounds, percentiles of one run's latencies,
 * and ratios that stay readable when a side is missing.
 */

/** The median of some numbers (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The `p`-th percentile (0-100) of values already sorted ascending, nearest-rank; NaN when empty. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** `a / b`, or NaN when either side is missing or `b` is zero. */
export function ratio(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0)
    return Number.NaN;
  return a / b;
}

/** Smallest and largest of some numbers, for showing how much rounds disagreed. */
export function spread(values: readonly number[]): { min: number; max: number } {
  return values.length === 0
    ? { min: Number.NaN, max: Number.NaN }
    : { min: Math.min(...values), max: Math.max(...values) };
}

/** A growable list of float samples (latencies in ms) that does not box every number. */
export class Samples {
  #values = new Float64Array(1024);
  #length = 0;

  /** Adds one sample. */
  push(value: number): void {
    if (this.#length === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = value;
  }

  /** How many samples were added. */
  get length(): number {
    return this.#length;
  }

  /** The samples sorted ascending (a copy). */
  sorted(): Float64Array {
    return this.#values.slice(0, this.#length).sort();
  }
}
