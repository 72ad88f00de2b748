/**
 * The fleet's time source on a real redis-server: replicas whose host clocks differ by an hour,
 * or run slow, read the same time from it, within the error each one states (half its best round
 * trip), and that time is Redis's own.
 */
import { beforeAll, expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
import { fleetTimeSource } from './fleet-clock.ts';
import type { ReplicaRedis } from './replica-redis.ts';

const { clients } = replicaClients();
let redis: ReplicaRedis;
beforeAll(() => {
  redis = clients[0] as ReplicaRedis;
});

/** Redis's clock read directly, in epoch ms. */
async function redisNow(): Promise<number> {
  const [seconds, microseconds] = await redis.time();
  return Number(seconds) * 1000 + Number(microseconds) / 1000;
}

test("replicas on hosts an hour apart read one time: Redis's, within the error each states", async () => {
  const hourAhead = () => Date.now() + 3_600_000;
  const hourBehind = () => Date.now() - 3_600_000;
  const sources = await Promise.all([
    fleetTimeSource(redis, hourAhead),
    fleetTimeSource(redis, hourBehind),
    fleetTimeSource(redis),
  ]);
  for (const source of sources) for (let round = 0; round < 5; round++) await source.measure();
  const before = await redisNow();
  const readings = sources.map((source) => source.now());
  const after = await redisNow();
  for (const [index, reading] of readings.entries()) {
    const error = (sources[index]?.errorMs ?? 0) + 1;
    expect(reading).toBeGreaterThanOrEqual(before - error);
    expect(reading).toBeLessThanOrEqual(after + error);
  }
  // The host clocks are two hours apart; the readings are not.
  expect(Math.max(...readings) - Math.min(...readings)).toBeLessThan(after - before + 50);
  for (const source of sources) source.stop();
});
