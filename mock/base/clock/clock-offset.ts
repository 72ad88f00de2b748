/**
 * How far the fake's clock is from real time, in words a person reads at a glance: the two
 * largest units (`179 d 1 h behind real time`, `2 min 5 s ahead of real time`), not a count of
 * milliseconds such as `-15470879364 ms`.
 */

const units = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
  ['ms', 1],
] as const;

/**
 * The offset of the fake's clock from real time (`fake - real`, in ms), e.g. `179 d 1 h behind
 * real time`; `at real time` under a millisecond.
 * @example describeClockOffset(-15_470_879_364) // '179 d 1 h behind real time'
 */
export function describeClockOffset(offsetMs: number): string {
  let rest = Math.round(Math.abs(offsetMs));
  if (rest === 0) return 'at real time';
  const parts: string[] = [];
  for (const [name, size] of units) {
    if (parts.length === 2) break;
    const count = Math.floor(rest / size);
    // After the first unit, the next one is shown even when it is 0 only if a larger one was.
    if (count > 0) parts.push(`${count} ${name}`);
    else if (parts.length === 1) break;
    rest -= count * size;
  }
  return `${parts.join(' ')} ${offsetMs < 0 ? 'behind' : 'ahead of'} real time`;
}
