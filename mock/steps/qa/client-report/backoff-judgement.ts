/**
 * How one retry chain's own waits are judged for exponential backoff (Limits, rule 2): a pure
 * function of the waits measured between a failure's answer and the next try's arrival, which
 * the README's definition, the report and backoff-judgement.test.ts's simulation share.
 *
 * A correct client gets a `fail` by bad luck less than 1 time in 1,000: the floor is the total a
 * full-jitter client falls under 1 time in 20,000 (backoff-floor.ts), and a fixed interval or a
 * straight line is called only on a fit no jitter of a doubling delay makes (the simulation
 * counts it, per library formula). A loaded machine only lengthens a measured wait, which never
 * moves a chain under the floor, and each shape rule sets the longest wait aside once there are
 * enough, so one stalled retry does not hide a fixed interval.
 */
import { backoffFloorMs, floorReference } from './backoff-floor.ts';

/** The thresholds of the definition; the report shows them under `tolerance`. */
export const backoffRules = {
  floor: floorReference,
  /** Own waits one chain needs before it can pass or fail. */
  minWaits: 3,
  /** The first own waits of a chain that are kept and judged. */
  judgedWaits: floorReference.toRetries,
  /** Own waits needed to call them a fixed interval. */
  minFixedWaits: 4,
  /** From this many waits, the longest is set aside before the fixed-interval check (a delayed retry). */
  fixedAsideFrom: 6,
  /** Waits within this ratio of each other (largest / smallest) are a fixed interval. */
  fixedRatio: 1.2,
  /** Own waits needed to call growth linear. */
  minLinearWaits: 5,
  /** From this many waits, the one furthest above the line is set aside before the linear check. */
  linearAsideFrom: 7,
  /** Waits that a straight line fits within this share of their mean (RMS) are linear growth. */
  linearSpread: 0.03,
  /**
   * Growth that passes: the longest of the third and later waits, at position k, is at least
   * this share of 2^(k-2) times the shortest wait before it. Doubling from the first wait gives
   * 2^(k-1): one doubling is spare for jitter and for a retry a loaded machine delayed.
   */
  growthShare: 0.9,
  /** For growth, a wait under this counts as this long (a hot loop's 0 ms then 1 ms is not growth). */
  growthFloorMs: floorReference.baseMs,
} as const;

/** The verdict on one chain of own waits, with why in words. */
export type ChainJudgement =
  | { readonly verdict: 'pass' | 'fail' | 'inconclusive'; readonly why: string }
  | { readonly verdict: 'too-few'; readonly why: string };

const {
  minWaits,
  judgedWaits,
  minFixedWaits,
  fixedAsideFrom,
  fixedRatio,
  minLinearWaits,
  linearAsideFrom,
  linearSpread,
  growthShare,
  growthFloorMs,
} = backoffRules;

/**
 * A duration as a reason cites it, to the tenth of a millisecond: in ms under a second, else in
 * seconds with up to four decimals. So every number a reason shows is the one judged, as the
 * report's own `waits` hold it (waits of 6, 4 and 2 ms read "6 ms, 4 ms, 2 ms", never "0.01 s").
 */
export function duration(ms: number): string {
  const tenths = Math.round(ms * 10) / 10;
  if (Math.abs(tenths) < 1000) return `${tenths} ms`;
  return `${Number((tenths / 1000).toFixed(4))} s`;
}

function list(waits: readonly number[]): string {
  return waits.map((w) => duration(w)).join(', ');
}

/** The first count of retries whose total wait is under the floor, with the numbers. */
function underFloor(waits: readonly number[]) {
  let total = 0;
  for (const [i, wait] of waits.entries()) {
    total += wait;
    const floor = backoffFloorMs(i + 1);
    if (floor !== undefined && total < floor) return { retries: i + 1, total, floor };
  }
  return undefined;
}

/** The waits less the longest one (a retry a loaded machine may have delayed) when there are `from` or more. */
function withoutLongest(waits: readonly number[], from: number): number[] {
  if (waits.length < from) return [...waits];
  const longest = waits.indexOf(Math.max(...waits));
  return waits.filter((_, i) => i !== longest);
}

/** The least-squares line through points (x, y): its slope, the mean of y, the RMS residual. */
function linearFit(points: readonly (readonly [number, number])[]) {
  const n = points.length;
  const meanX = points.reduce((a, [x]) => a + x, 0) / n;
  const mean = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - meanX) * (y - mean);
    sxx += (x - meanX) ** 2;
  }
  const slope = sxy / sxx;
  const residual = ([x, y]: readonly [number, number]) => y - (mean + slope * (x - meanX));
  const rms = Math.sqrt(points.reduce((a, p) => a + residual(p) ** 2, 0) / n);
  return { slope, mean, rms, residual };
}

/** Whether the waits lie on a rising straight line, the one furthest above it set aside from 7 waits. */
function linear(waits: readonly number[]) {
  let points = waits.map((w, i) => [i, w] as const);
  let fit = linearFit(points);
  if (points.length >= linearAsideFrom) {
    const furthest = points.reduce((a, p) => (fit.residual(p) > fit.residual(a) ? p : a));
    points = points.filter((p) => p !== furthest);
    fit = linearFit(points);
  }
  return fit.slope > 0 && fit.rms <= linearSpread * fit.mean ? fit : undefined;
}

/**
 * The growth the pass rule reads: the longest wait from the third on, where, and against what;
 * `longestWait` and `shortestWait` are the waits as measured, `longest` and `shortest` as they
 * count (at least `growthFloorMs`).
 */
function growth(waits: readonly number[]) {
  const floored = waits.map((w) => Math.max(w, growthFloorMs));
  const later = floored.slice(2);
  const longest = Math.max(...later);
  const k = later.indexOf(longest) + 3;
  const before = waits.slice(0, k - 1);
  const shortestWait = Math.min(...before);
  const shortest = Math.max(shortestWait, growthFloorMs);
  return {
    longest,
    longestWait: waits[k - 1] as number,
    k,
    shortest,
    shortestWait,
    needed: growthShare * 2 ** (k - 2) * shortest,
  };
}

/**
 * Judges the first own waits of one chain, in order: `fail` when the total of the first n is
 * under the floor (no backoff), when 4 or more are a fixed interval or 5 or more a straight line;
 * `pass` when they grew (see `growthShare`); `too-few` under 3 waits; else `inconclusive`.
 */
export function judgeChain(allWaits: readonly number[]): ChainJudgement {
  const waits = allWaits.slice(0, judgedWaits);
  const n = waits.length;
  if (n < minWaits)
    return {
      verdict: 'too-few',
      why: `${n} own wait(s) in a row; ${minWaits} are needed before a chain can pass or fail`,
    };
  const under = underFloor(waits);
  if (under !== undefined)
    return {
      verdict: 'fail',
      why: `no backoff: the first ${under.retries} retries waited ${duration(under.total)} in all (${list(waits.slice(0, under.retries))}), under the floor of ${duration(under.floor)} that exponential backoff with full jitter from ${floorReference.baseMs} ms falls under 1 time in ${Math.round(1 / floorReference.perCount).toLocaleString('en-US')}`,
    };
  const steady = withoutLongest(waits, fixedAsideFrom);
  if (n >= minFixedWaits && Math.max(...steady) <= fixedRatio * Math.min(...steady))
    return {
      verdict: 'fail',
      why: `a fixed interval, not exponential: ${steady.length} of ${n} waits within ${fixedRatio}x of each other (${list(waits)})`,
    };
  const line = n >= minLinearWaits ? linear(waits) : undefined;
  if (line !== undefined)
    return {
      verdict: 'fail',
      why: `linear growth, not exponential: about +${duration(line.slope)} per retry (${list(waits)})`,
    };
  const grew = growth(waits);
  if (grew.longest >= grew.needed)
    return {
      verdict: 'pass',
      why: `waits grew: retry ${grew.k} waited ${duration(grew.longest)}, at least ${growthShare} x 2^${grew.k - 2} times ${grew.shortestWait < growthFloorMs ? `the ${duration(growthFloorMs)} a shorter wait counts as` : 'the shortest before it'} (${list(waits)})`,
    };
  return {
    verdict: 'inconclusive',
    why: `waits did not grow enough to pass (${list(waits)}: retry ${grew.k} waited ${duration(grew.longestWait)}${grew.longestWait < growthFloorMs ? `, which counts as ${duration(growthFloorMs)}` : ''}; ${duration(grew.needed)} was needed, ${growthShare} x 2^${grew.k - 2} times ${grew.shortestWait < growthFloorMs ? `the ${duration(growthFloorMs)} the shortest wait before it (${duration(grew.shortestWait)}) counts as` : `the shortest wait before it (${duration(grew.shortestWait)})`}), nor are they under the floor, a fixed interval or a straight line; more retries in a row give a verdict`,
  };
}
