/**
 * A replica's reading of the fleet's exchanges on a real redis-server: a reader that fell more
 * than the stream's cap behind says how many exchanges it missed, and reads on from the oldest
 * kept; catch-ups asked for at once read each exchange once. And a founder overtaken while it
 * seeded the fleet writes nothing over the fleet founded anew, and serves that one.
 */
import { expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
import { createSharedFake } from '../core/fake.ts';
import { createFakeFetch } from '../core/fake-fetch.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { exchangeKeys } from './redis-keys.ts';
import { redisTarget } from './redis-url.ts';
import { connectReplica } from './replica.ts';

const { clients, server } = replicaClients(1);

/** A list's exchange, told apart by its query. */
function exchangeOf(index: number): Exchange {
  return {
    kind: 'api',
    arrival: index,
    arrivalsWhenAnswered: index,
    atMs: 1,
    realMs: 1,
    answeredAtMs: 2,
    answeredRealMs: 2,
    durationMs: 1,
    method: 'GET',
    path: '/v1/pets',
    query: `?limit=${index}`,
    operationId: 'listPets',
    params: {},
    keyId: 'free-1',
    plan: 'free',
    authorization: 'bearer',
    contentType: null,
    clientId: 'app',
    connection: 'http-1',
    oneCopy: false,
    possibleCopy: false,
    body: { kept: null, bytes: null, truncated: false, hash: null, json: null },
    status: 200,
    headers: {},
    answerBody: '[]',
    errorCode: null,
    injected: null,
    dropped: false,
    breaks: [],
    quota: null,
    rateLimit: null,
    violations: null,
  };
}

test('a replica whose recorders fell past the stream cap says how many exchanges they missed, and catch-ups asked for at once read each exchange once', async () => {
  const lines: string[] = [];
  const target = redisTarget(server().url, undefined);
  if (target === undefined) throw new Error('no Redis URL');
  const replica = await connectReplica({
    redis: target,
    prefix: 'behind',
    settings: {},
    log: (line) => lines.push(line),
  });
  try {
    await replica.seedIfFounded(async () => {});
    const { exchanges } = replica.shared({ clock: replica.clock, keys: [], policies: [] });
    const read: string[] = [];
    const reader = (exchange: Exchange) => read.push(exchange.query);
    exchanges.send(exchangeOf(1));
    const [seqKey] = exchangeKeys('behind');
    const sent = async (count: number) => {
      while (Number(await clients[0]?.get(seqKey)) < count)
        await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await sent(1);
    await Promise.all([exchanges.catchUp(reader, () => {}), exchanges.catchUp(reader, () => {})]);
    expect(read).toEqual(['?limit=1']);
    // 5,010 more: the stream keeps the newest 5,000, so the first 10 of them are gone.
    for (let index = 2; index <= 5_011; index++) exchanges.send(exchangeOf(index));
    await sent(5_011);
    await exchanges.catchUp(reader, () => {});
    expect(read).toHaveLength(5_001);
    expect(read[1]).toBe('?limit=12');
    expect(lines).toEqual([
      "petstore-fake: 10 of the fleet's exchanges left Redis's stream (it keeps the newest 5000) before this replica read them: its journal, coverage, Pact file and client report miss them",
    ]);
  } finally {
    replica.close();
  }
}, 60_000);

test('a founder overtaken before it seeded the fleet writes nothing over the fleet founded anew, says so, and then serves that fleet', async () => {
  const target = redisTarget(server().url, undefined);
  if (target === undefined) throw new Error('no Redis URL');
  const lines: string[] = [];
  const join = (foundingTimeoutMs?: number) =>
    connectReplica({
      redis: target,
      prefix: 'overtaken',
      settings: {},
      log: (line) => lines.push(line),
      foundingTimeoutMs,
    });
  const slow = await join();
  // A founding time-out of 0: the slow founder is overdue at once, as after 10 s of seeding.
  const next = await join(0);
  const seedOf = (name: string) => [{ id: 1, name, categoryId: 1, status: 'available' as const }];
  const fakes = await Promise.all(
    [
      { replica: next, seed: seedOf('Rex') },
      { replica: slow, seed: seedOf('Stale') },
    ].map(async ({ replica, seed }) => ({
      replica,
      fake: await createSharedFake({ seed, origin: 'http://fleet.test' }, replica.shared),
    })),
  );
  try {
    for (const { replica, fake } of fakes) await replica.seedIfFounded(() => fake.control.reset());
    expect(lines).toEqual([
      'petstore-fake: another replica founded the fleet under the Redis prefix "overtaken" anew while this one seeded it, which it did not: this replica serves that fleet',
    ]);
    for (const { fake } of fakes) {
      const fetch = createFakeFetch(fake.behaviour, ['http://fleet.test']);
      const answer = await fetch('http://fleet.test/v1/pets/1', {
        headers: { authorization: 'Bearer free-demo-key' },
      });
      expect({ status: answer.status, body: await answer.json() }).toEqual({
        status: 200,
        body: seedOf('Rex')[0],
      });
    }
  } finally {
    slow.close();
    next.close();
  }
});
