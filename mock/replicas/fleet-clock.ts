/**
 * The time source of a fleet: Redis's clock, read by every replica, so replicas on hosts whose
 * clocks differ (by a second, or by an hour when one host's clock is wrong) agree on when a
 * window ends and how long a Retry-After is. A replica cannot ask Redis the time on every
 * request (that would be a round trip before each answer), so it measures how far its own clock
 * is from Redis's, as NTP does: it sends TIME, takes Redis's reading as the middle of the round
 * trip, and keeps the measurement with the shortest round trip among the recent ones, whose
 * error is at most half that round trip. It measures again now and then, since clocks drift.
 *
 * The fleet's clock (createClock over this source) then reads `source() + offset` as the fake's
 * own does, and a frozen clock, which every test that counts windows uses, is exact on every
 * replica.
 */
import type { ReplicaRedis } from './replica-redis.ts';

/** How often a replica measures its clock against Redis's again. */
const remeasureMs = 10_000;
/** How many measurements a replica keeps to pick the shortest round trip from. */
const measurementsKept = 8;

/** One measurement: how far Redis's clock is ahead of this host's, and how sure. */
interface Measurement {
  readonly aheadMs: number;
  readonly roundTripMs: number;
}

/** Redis's clock as a replica reads it. */
export interface FleetTimeSource {
  /** Redis's time now, in epoch milliseconds, from this host's clock and the best measurement. */
  now(): number;
  /** Half the round trip of the measurement in use: how far `now()` may be from Redis's. */
  readonly errorMs: number;
  /** Measures once more now (a replica does it every few seconds by itself). */
  measure(): Promise<void>;
  /** Stops measuring (the replica is stopping). */
  stop(): void;
}

/**
 * Measures the clock of `redis` (connected) against `hostNow` (this host's clock, `Date.now`
 * unless a test gives another) and keeps doing so; resolves after the first measurement.
 */
export async function fleetTimeSource(
  redis: ReplicaRedis,
  hostNow: () => number = Date.now,
): Promise<FleetTimeSource> {
  const kept: Measurement[] = [];
  let best: Measurement = { aheadMs: 0, roundTripMs: Number.POSITIVE_INFINITY };
  const measure = async (): Promise<void> => {
    const sent = hostNow();
    const [seconds, microseconds] = await redis.time();
    const received = hostNow();
    const redisMs = Number(seconds) * 1000 + Number(microseconds) / 1000;
    kept.push({ aheadMs: redisMs - (sent + received) / 2, roundTripMs: received - sent });
    if (kept.length > measurementsKept) kept.shift();
    best = kept.reduce((a, b) => (b.roundTripMs < a.roundTripMs ? b : a));
  };
  await measure();
  // A measurement that fails (Redis away for a moment) keeps the last good one; the requests
  // that need Redis say so themselves.
  const timer = setInterval(() => void measure().catch(() => {}), remeasureMs);
  timer.unref();
  return {
    now: () => hostNow() + best.aheadMs,
    get errorMs() {
      return best.roundTripMs / 2;
    },
    measure,
    stop: () => clearInterval(timer),
  };
}
