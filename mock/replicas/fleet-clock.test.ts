/**
 * The fleet's time source on a real redis-server: replicas whose host clocks differ by an hour,
 * or run slow, read the same time from it, within the error each one states (half its best round
 * trip), and that time is Redis's own.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RedisServer, startRedisServer } from '../../test/support/redis-server.ts';
import { fleetTimeSource } from './fleet-clock.ts';
import { type ReplicaRedis, replicaRedis } from './replica-redis.ts';

let server: RedisServer;
let redis: ReplicaRedis;

beforeAll(async () => {
  server = await startRedisServer();
  redis = replicaRedis(server.url);
  redis.on('error', (error) => {
    throw error;
  });
  await redis.connect();
}, 20_000);

afterAll(async () => {
  redis?.destroy();
  await server?.remove();
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
