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
  /** Where the clock stands against its time source, to take it to storage (see `load`). */
  save(): ClockState;
  /**
   * Puts the clock where `save` found it: a frozen clock at the same time, a ticking one the same
   * distance from its source, so windows and bans saved with it keep their times.
   */
  load(state: ClockState): void;
}

/** A clock's position as saved: frozen at a time, or ticking at a distance from its source. */
export type ClockState = { readonly frozenAt: number } | { readonly offsetMs: number };

/** The times the fake's clock may show (the epoch to the end of year 9999 UTC): every header date is valid. */
const clockRange = { min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) } as const;

/** Whether `epochMs` is a time the clock may show. */
function inClockRange(epochMs: number): boolean {
  return Number.isFinite(epochMs) && epochMs >= clockRange.min && epochMs <= clockRange.max;
}

/** Why `what` would take the clock to `epochMs` out of its range (naming the bounds), or `undefined`. */
export function clockRangeProblem(epochMs: number, what: string): string | undefined {
  if (inClockRange(epochMs)) return undefined;
  const [min, max] = [clockRange.min, clockRange.max].map((ms) => new Date(ms).toISOString());
  return `${what} must keep the clock between ${min} and ${max}`;
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
      if (!inClockRange(epochMs)) throw new RangeError(`clock: cannot set to ${epochMs}`);
      if (frozenAt !== undefined) frozenAt = epochMs;
      else offset = epochMs - source();
    },
    advance(ms) {
      if (!inClockRange(now() + ms)) throw new RangeError(`clock: cannot advance by ${ms}`);
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
    save: () => (frozenAt === undefined ? { offsetMs: offset } : { frozenAt }),
    load(state) {
      const at = 'frozenAt' in state ? state.frozenAt : source() + state.offsetMs;
      if (!inClockRange(at)) throw new RangeError(`clock: cannot load a clock at ${at}`);
      if ('frozenAt' in state) {
        frozenAt = state.frozenAt;
      } else {
        frozenAt = undefined;
        offset = state.offsetMs;
      }
    },
  };
}
