/** Time as the fake sees it: real by default, settable and advanceable for QA and tests. */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
}

/** A clock the control surface can move: it keeps ticking from wherever it was set. */
export interface ControllableClock extends Clock {
  /** Jumps to an absolute time (epoch ms); the clock keeps ticking from there unless frozen. */
  set(epochMs: number): void;
  /** Moves the clock forward (or back, with a negative value) by `ms`. */
  advance(ms: number): void;
  /** Stops the clock at its current reading (`true`) or lets it tick again (`false`). */
  freeze(frozen: boolean): void;
  /** Whether the clock is frozen. */
  readonly frozen: boolean;
  /** Back to real time, unfrozen. */
  reset(): void;
}

/**
 * Creates a controllable clock over a time source (real time by default).
 * @example const clock = createClock(); clock.advance(61_000); // a minute window has passed
 */
export function createClock(source: () => number = Date.now): ControllableClock {
  let offset = 0;
  let frozenAt: number | undefined;
  const now = () => frozenAt ?? source() + offset;
  return {
    now,
    set(epochMs) {
      if (!Number.isFinite(epochMs)) throw new RangeError(`clock: cannot set to ${epochMs}`);
      if (frozenAt !== undefined) frozenAt = epochMs;
      else offset = epochMs - source();
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new RangeError(`clock: cannot advance by ${ms}`);
      if (frozenAt !== undefined) frozenAt += ms;
      else offset += ms;
    },
    freeze(frozen) {
      if (frozen && frozenAt === undefined) frozenAt = now();
      if (!frozen && frozenAt !== undefined) {
        offset = frozenAt - source();
        frozenAt = undefined;
      }
    },
    get frozen() {
      return frozenAt !== undefined;
    },
    reset() {
      offset = 0;
      frozenAt = undefined;
    },
  };
}
