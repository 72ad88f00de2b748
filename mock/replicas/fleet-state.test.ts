/**
 * The fleet's shared control state on a real redis-server: a change saved through one replica
 * is what the next check of another finds, at once; a check of a current copy carries no state;
 * of changes saved at once on one version only one is saved; and once Redis loses the fleet (a flush), or another
 * fleet is founded under the prefix, a check or a save says so and writes nothing.
 */
import { expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
import { joinFleet } from './fleet.ts';
import { type FleetControlState, FleetLostError, fleetStateStore } from './fleet-state.ts';
import { fleetKey } from './redis-keys.ts';
import type { ReplicaRedis } from './replica-redis.ts';

const { clients } = replicaClients(2);

const first = () => clients[0] as ReplicaRedis;
const second = () => clients[1] as ReplicaRedis;
const frozenState: FleetControlState = {
  clock: { frozenAt: Date.UTC(2026, 11, 2, 12, 0, 0) },
  keys: [
    { id: 'free-1', key: 'free-key-0001', plan: 'free' },
    { id: 'added', key: 'added-key-0002', plan: 'pro', limits: { perMinute: 5, perDay: 50 } },
  ],
  policies: { injectedFailures: { forced: { createPet: { status: 503, remaining: 2 } } } },
};

test('what one replica saves, the next check of another finds; a current copy gets no state', async () => {
  const { epoch } = await joinFleet(first(), 'shared', { settings: {} });
  const a = fleetStateStore(first(), 'shared', { epoch });
  const b = fleetStateStore(second(), 'shared', { epoch });
  expect(await b.check('0')).toMatchObject({ changed: false });
  const version = await a.save('0', frozenState);
  expect(version).toBe('1');
  const seen = await b.check('0');
  expect(seen).toMatchObject({ changed: true, version, state: frozenState });
  expect(await b.check(version ?? '')).toMatchObject({ changed: false });
  // Redis's clock rides along on every check.
  expect(Math.abs((seen as { redisMs: number }).redisMs - Date.now())).toBeLessThan(5_000);
});

test('of changes saved at once on one version, one is saved and the others are told to read again', async () => {
  const { epoch } = await joinFleet(first(), 'concurrent', { settings: {} });
  const stores = [first(), second()].map((client) =>
    fleetStateStore(client, 'concurrent', { epoch }),
  );
  const store = (index: number) => stores[index % 2] as (typeof stores)[number];
  const saved = await Promise.all(
    Array.from({ length: 10 }, (_, index) =>
      store(index).save('0', { ...frozenState, clock: { offsetMs: index } }),
    ),
  );
  expect(saved.filter((version) => version !== undefined)).toEqual(['1']);
  // A replica told to read again makes its change on what it read, and that one is saved.
  expect(await store(1).check('0')).toMatchObject({ changed: true, version: '1' });
  expect(await store(1).save('1', frozenState)).toBe('2');
  expect(await store(0).check('1')).toMatchObject({
    changed: true,
    version: '2',
    state: frozenState,
  });
});

test('once Redis loses the fleet, or another is founded under its prefix, both calls say so and write nothing', async () => {
  const { epoch } = await joinFleet(first(), 'lost', { settings: {} });
  const store = fleetStateStore(second(), 'lost', { epoch });
  await store.save('0', frozenState);
  await first().flushAll();
  await expect(store.check('1')).rejects.toBeInstanceOf(FleetLostError);
  await expect(store.save('1', frozenState)).rejects.toThrow(
    'the fleet\'s record under the Redis prefix "lost" is gone',
  );
  expect(await first().exists(fleetKey('lost'))).toBe(0);
  const refounded = await joinFleet(first(), 'lost', { settings: {} });
  expect(refounded.epoch).not.toBe(epoch);
  await expect(store.check('0')).rejects.toBeInstanceOf(FleetLostError);
  await expect(store.save('0', frozenState)).rejects.toBeInstanceOf(FleetLostError);
  expect(await first().hGet(fleetKey('lost'), 'keys')).toBeNull();
});
