/**
 * Replicas' copies of the fleet's control state on a real redis-server: the clock one replica
 * froze or moved is where another's next refresh puts its own, keys added or changed on one are
 * the other's, and two changes made at once on two replicas both stand.
 */
import { expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
import { createClock } from '../base/clock/clock.ts';
import type { KeyEntry } from '../base/quota/plans.ts';
import { joinFleet } from './fleet.ts';
import { fleetCopy, type ReplicaState } from './fleet-copy.ts';
import { fleetStateStore } from './fleet-state.ts';
import type { ReplicaRedis } from './replica-redis.ts';

const { clients } = replicaClients(2);

const fileKeys: readonly KeyEntry[] = [
  { id: 'free-1', key: 'free-key-0001', plan: 'free' },
  { id: 'pro-1', key: 'pro-key-0001', plan: 'pro' },
];

/** Two replicas of the fleet `prefix`, whose clocks read one time source (Redis's, in a fleet). */
async function twoReplicas(prefix: string) {
  const { epoch } = await joinFleet(clients[0] as ReplicaRedis, prefix, { settings: {} });
  let sourceMs = Date.UTC(2026, 11, 2, 12, 0, 0);
  const source = () => sourceMs;
  return {
    tick: (ms: number) => {
      sourceMs += ms;
    },
    replicas: clients.map((client) => {
      const state: ReplicaState = {
        clock: createClock(source),
        keys: fileKeys.map((key) => ({ ...key })),
        policies: [],
      };
      return { state, copy: fleetCopy(fleetStateStore(client, prefix, { epoch }), state) };
    }),
  };
}

test("a clock set and frozen on one replica reads the same on the other's next refresh", async () => {
  const { tick, replicas } = await twoReplicas('clock');
  const [a, b] = replicas as [(typeof replicas)[number], (typeof replicas)[number]];
  await a.copy.change(() => a.state.clock.advance(90_000));
  await b.copy.refresh();
  expect(b.state.clock.now()).toBe(a.state.clock.now());
  tick(1_000);
  expect(b.state.clock.now()).toBe(a.state.clock.now());
  await a.copy.change(() => a.state.clock.freeze(true));
  tick(5_000);
  await b.copy.refresh();
  expect(b.state.clock.frozen).toBe(true);
  expect(b.state.clock.now()).toBe(Date.UTC(2026, 11, 2, 12, 1, 31));
});

test('a key added on one replica and a plan changed at once on the other both stand', async () => {
  const { replicas } = await twoReplicas('keys');
  const [a, b] = replicas as [(typeof replicas)[number], (typeof replicas)[number]];
  await Promise.all([
    a.copy.change(() => {
      a.state.keys.push({ id: 'added', key: 'added-key-0001', plan: 'free' });
    }),
    b.copy.change(() => {
      const pro = b.state.keys.find((key) => key.id === 'pro-1') as KeyEntry;
      pro.limits = { perMinute: 5, perDay: 50 };
    }),
  ]);
  await a.copy.refresh();
  await b.copy.refresh();
  const expected = [
    { id: 'free-1', key: 'free-key-0001', plan: 'free' },
    { id: 'pro-1', key: 'pro-key-0001', plan: 'pro', limits: { perMinute: 5, perDay: 50 } },
    { id: 'added', key: 'added-key-0001', plan: 'free' },
  ];
  expect(a.state.keys).toEqual(expected);
  expect(b.state.keys).toEqual(expected);
});

test('a control call that changes nothing saves nothing, and says what it returned', async () => {
  const { replicas } = await twoReplicas('read-only');
  const [a] = replicas as [(typeof replicas)[number]];
  expect(await a.copy.change(() => a.state.keys.length)).toBe(2);
  expect(await clients[0]?.hGet('{read-only}:fleet', 'version')).toBeNull();
});
