/**
 * How one retry chain's own waits are judged for exponential backoff (Limits, rule 2). A pure
 * function over the waits, so the README's definition and its tests read the same numbers.
 *
 * Grounded in what real libraries wait when no Retry-After dictates it: ky 2 `0.3 * 2^(n-1)` s
 * (full jitter `random * delay` when `jitter: true`), got 16 `2^(n-1)` s plus 0-100 ms noise,
 * axios-retry 4 `exponentialDelay` `2^n * 100` ms plus 0-20%, p-retry 9 `minTimeout * factor^n`
 * (factor 2; `randomize` multiplies by 1-2): steady doubling, or doubling under a random factor.
 * Fixed intervals, hot loops and axios-retry's `linearDelay` (`n * 100` ms) are not exponential.
 */

/** The thresholds of the definition; the report shows them as `tolerance`. */
export const backoffRules = {
  /**
   * A wait shorter than this is no wait (a hot loop's 0 ms then 1 ms is not growth; on a loaded
   * machine an immediate retry takes tens of ms). Full jitter (ky's 0.3 s cap first) puts all of
   * 3 waits under it about 6 times in 10,000.
   */
  floorMs: 50,
  /** Own waits one chain needs before it can pass. */
  minWaits: 3,
  /** Own waits needed to call them a fixed interval: with fewer, doubling under jitter looks the same too often. */
  minFixedWaits: 4,
  /** Own waits needed to call growth linear (with 4, equal jitter reads linear 1 time in 300). */
  minLinearWaits: 5,
  /** Each own wait at least this many times the one before is steady exponential growth. */
  growthFactor: 1.6,
  /** Waits within this ratio of each other (largest / smallest) are a fixed interval. */
  fixedRatio: 1.25,
  /** Waits that a straight line fits within this share of their mean (RMS) are linear growth. */
  linearSpread: 0.05,
} as const;

/** The verdict on one chain of own waits, with why in words. */
export type ChainJudgement =
  | { readonly verdict: 'pass' | 'fail' | 'inconclusive'; readonly why: string }
  | { readonly verdict: 'too-few'; readonly why: string };

const { floorMs, minWaits, minFixedWaits, minLinearWaits, growthFactor, fixedRatio, linearSpread } =
  backoffRules;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 0)} s`;
}

function list(waits: readonly number[]): string {
  return waits.map((w) => seconds(w)).join(', ');
}

/** The least-squares line through the waits: its slope per retry, the mean, the RMS residual. */
function linearFit(waits: readonly number[]): { slope: number; mean: number; rms: number } {
  const n = waits.length;
  const meanX = (n - 1) / 2;
  const mean = waits.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of waits.entries()) {
    sxy += (x - meanX) * (y - mean);
    sxx += (x - meanX) ** 2;
  }
  const slope = sxy / sxx;
  const residuals = waits.map((y, x) => y - (mean + slope * (x - meanX)));
  return { slope, mean, rms: Math.sqrt(residuals.reduce((a, r) => a + r * r, 0) / n) };
}

/**
 * Judges the own waits of one chain, in order: `pass` (each at least 1.6x the one before),
 * `fail` (3 waits of a hot loop, 4 of a fixed interval, 5 of linear growth), `inconclusive`
 * (irregular waits that jitter may explain), `too-few` (fewer than 3 waits).
 */
export function judgeChain(waits: readonly number[]): ChainJudgement {
  const floored = waits.map((w) => Math.max(w, floorMs));
  if (waits.length >= minWaits && waits.every((w) => w < floorMs))
    return {
      verdict: 'fail',
      why: `no backoff: ${waits.length} retries in a row each within ${floorMs} ms of the failure (${list(waits)})`,
    };
  if (waits.length < minWaits)
    return {
      verdict: 'too-few',
      why: `${waits.length} own wait(s) in a row; ${minWaits} are needed to tell exponential from linear growth`,
    };
  const ratios = floored.slice(1).map((w, i) => w / (floored[i] as number));
  if (ratios.every((r) => r >= growthFactor))
    return {
      verdict: 'pass',
      why: `waits grew at least ${growthFactor}x each time (${list(waits)})`,
    };
  if (waits.length >= minFixedWaits && Math.max(...floored) <= fixedRatio * Math.min(...floored))
    return { verdict: 'fail', why: `a fixed interval, not exponential (${list(waits)})` };
  const fit = linearFit(floored);
  if (waits.length >= minLinearWaits && fit.slope > 0 && fit.rms <= linearSpread * fit.mean)
    return {
      verdict: 'fail',
      why: `linear growth, not exponential: about +${seconds(fit.slope)} per retry (${list(waits)})`,
    };
  return {
    verdict: 'inconclusive',
    why: `waits did not grow ${growthFactor}x each time (${list(waits)}), but ${minFixedWaits} waits are needed to call them fixed and ${minLinearWaits} linear, and jitter may explain them; more retries in a row, or jitter off, give a verdict`,
  };
}
