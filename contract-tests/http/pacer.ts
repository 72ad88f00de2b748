/**
 * Spends the key's quota deliberately: waits for X-RateLimit-Reset when X-RateLimit-Remaining
 * reaches 0, and never sends before a Retry-After it was given has elapsed (interface, "Limits",
 * rules 2 and 3), so a run can never earn a ban.
 */
import type { HarnessClock } from './clock.ts';
import type { Exchange } from './exchange.ts';
import { parseRetryAfter } from './retry-after.ts';

/** Thrown when the quota would make the harness wait longer than `--max-wait` allows. */
export class RateLimitedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RateLimitedError';
  }
}

/**
 * Thrown when the run's wall-time bound (`--max-duration`) has passed, or a wait would end past
 * it: the run stops with no verdict for the checks left, naming what it was waiting for.
 */
export class RunDurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunDurationError';
  }
}

/** The key's quota as the last answers told it. */
export interface KnownQuota {
  /** X-RateLimit-Remaining, less the requests sent since. */
  readonly remaining?: number;
  /** X-RateLimit-Limit of the last answer that carried it. */
  readonly limit?: number;
  /** X-RateLimit-Reset, in epoch ms. */
  readonly resetAt?: number;
}

/** A wait the pacer is about to make, for a progress line (waits over a second). */
interface PacerWait {
  readonly ms: number;
  /** What it waits for, naming the header, e.g. `Retry-After: 30`. */
  readonly reason: string;
}

/** What the pacer knows about the key's quota. */
export interface Pacer {
  /**
   * Waits, if needed, before a request: always until a Retry-After has elapsed, and until
   * X-RateLimit-Reset when Remaining is 0 unless `untilReset` is false. A request sent with the
   * key (`spends`) counts against the known Remaining at once, so an answer without the headers
   * cannot make the pacer overspend.
   */
  beforeSend(untilReset: boolean, spends: boolean): Promise<void>;
  /** Learns from an answer to a request sent with the key. */
  observe(exchange: Exchange): void;
  /** Blocks sends until `until` (epoch ms, target clock), e.g. after a 429; `reason` names why. */
  blockUntil(until: number, reason: string): void;
  /**
   * Milliseconds left before the run's bound (`--max-duration`), so an answer still awaited
   * does not hold the run past it; undefined without a bound.
   */
  msLeft(): number | undefined;
  /** The error that stops the run at its bound while `what` (e.g. awaiting an answer). */
  boundPassed(what: string): RunDurationError;
  /** Milliseconds spent waiting so far. */
  readonly waitedMs: number;
  /** What the last answers said of the quota. */
  known(): KnownQuota;
}

/** What the user of a pacer chooses (`--max-wait`, `--max-duration`, a progress line). */
export interface PacerChoices {
  /** Longest single wait before giving up, in ms. */
  readonly maxWaitMs: number;
  /** Told of every wait longer than a second, before it starts. */
  readonly onWait?: (wait: PacerWait) => void;
  /**
   * The run's bound (`--max-duration`), in ms from the pacer's creation on `clock`: no request
   * is sent and no wait begins that would end past it. Default: no bound.
   */
  readonly maxDurationMs?: number;
}

/** Options of a pacer: the choices, and the run's clock and random source. */
export interface PacerOptions extends PacerChoices {
  readonly clock: HarnessClock;
  /** Random source for jitter, in [0, 1). */
  readonly random: () => number;
}

/** A header holding a non-negative integer (X-RateLimit-*), or undefined when it holds none. */
export function integerHeader(headers: Headers | undefined, name: string): number | undefined {
  const value = headers?.get(name)?.trim();
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Creates a pacer. */
export function createPacer({
  clock,
  maxWaitMs,
  random,
  onWait,
  maxDurationMs,
}: PacerOptions): Pacer {
  const deadline = maxDurationMs === undefined ? undefined : clock.now() + maxDurationMs;
  const bound = () => `--max-duration ${Math.round((maxDurationMs ?? 0) / 1000)} s`;
  // Why the last wait was made, so a run stopped by its bound says what it was waiting for.
  let lastWait: string | undefined;
  // X-RateLimit-Remaining as known when the last request with the key was sent.
  let remainingAtSend: number | undefined;
  let remaining: number | undefined;
  let limit: number | undefined;
  let resetAt: number | undefined;
  let blockedUntil = 0;
  let blockedBecause = 'Retry-After';
  // What the last 429 said of the plan (empty when it was planned), for the waits it causes.
  let unplannedNote = '';
  let waitedMs = 0;

  const wait = async (until: number, why: string) => {
    const ms = until - clock.now();
    if (ms <= 0) return;
    if (ms > maxWaitMs) {
      throw new RateLimitedError(
        `waiting for ${why} would take ${Math.ceil(ms / 1000)} s, more than --max-wait ${Math.round(maxWaitMs / 1000)} s`,
      );
    }
    // Jitter spreads retries of clients that were refused together (up to 10%, at most 1 s).
    const jitter = Math.min(1000, ms * 0.1) * random();
    // A wait longer than --max-wait is refused as such, even when it would also pass the bound.
    if (deadline !== undefined && clock.now() + ms + jitter > deadline)
      throw new RunDurationError(
        `${bound()} would pass while waiting ${Math.ceil((ms + jitter) / 1000)} s for ${why}`,
      );
    if (ms + jitter > 1000) onWait?.({ ms: ms + jitter, reason: why });
    lastWait = why;
    waitedMs += ms + jitter;
    await clock.sleep(ms + jitter);
  };

  return {
    async beforeSend(untilReset, spends) {
      if (deadline !== undefined && clock.now() >= deadline)
        throw new RunDurationError(
          `${bound()} passed${lastWait === undefined ? ' (no wait: the answers took that long)' : `; the last wait was for ${lastWait}`}`,
        );
      await wait(blockedUntil, blockedBecause);
      if (untilReset && remaining === 0 && resetAt !== undefined) {
        // One extra second: X-RateLimit-Reset has one-second resolution.
        await wait(
          resetAt + 1000,
          `X-RateLimit-Reset ${resetAt / 1000} (X-RateLimit-Remaining is 0)${unplannedNote}`,
        );
        remaining = undefined;
      }
      if (spends) remainingAtSend = remaining;
      if (spends && remaining !== undefined) remaining = Math.max(0, remaining - 1);
    },
    observe(exchange) {
      const response = exchange.response;
      if (response === undefined || !exchange.authenticated) return;
      const before = remainingAtSend;
      const left = integerHeader(response.headers, 'X-RateLimit-Remaining');
      const reset = integerHeader(response.headers, 'X-RateLimit-Reset');
      limit = integerHeader(response.headers, 'X-RateLimit-Limit') ?? limit;
      if (left !== undefined) remaining = left;
      if (reset !== undefined) resetAt = reset * 1000;
      if (response.status !== 429 && left !== undefined) unplannedNote = '';
      if (response.status === 429) {
        // A 429 the headers did not announce (Remaining above 0, or none sent): the plan was
        // wrong, so the next request waits for what this answer says, and the wait says why.
        const unplanned =
          before === 0
            ? ''
            : ` (an unplanned 429: ${before === undefined ? 'X-RateLimit-Remaining not known' : `X-RateLimit-Remaining was ${before}`}; the run re-plans: no request before it)`;
        unplannedNote = unplanned;
        // What this answer said of the window, and nothing older: a 429 without X-RateLimit-*
        // (a gateway's own limiter, say) gives no Reset to wait for, so the next wait is its
        // Retry-After or the client's backoff, never an earlier answer's Reset.
        if (left === undefined) {
          remaining = undefined;
          resetAt = undefined;
        } else remaining = 0;
        const value = response.headers.get('Retry-After');
        const retry = parseRetryAfter(value, clock.now());
        if (retry !== undefined && clock.now() + retry.waitMs > blockedUntil) {
          blockedUntil = clock.now() + retry.waitMs;
          blockedBecause = `Retry-After: ${value}${unplanned}`;
        }
      }
    },
    blockUntil(until, reason) {
      if (until > blockedUntil) {
        blockedUntil = until;
        blockedBecause = `${reason}${unplannedNote}`;
      }
    },
    // On the harness's clock, as the bound itself (a virtual clock's under --fake).
    msLeft: () => (deadline === undefined ? undefined : Math.max(0, deadline - clock.now())),
    boundPassed: (what) => new RunDurationError(`${bound()} passed ${what}`),
    known: () => ({
      ...(remaining === undefined ? {} : { remaining }),
      ...(limit === undefined ? {} : { limit }),
      ...(resetAt === undefined ? {} : { resetAt }),
    }),
    get waitedMs() {
      return waitedMs;
    },
  };
}
