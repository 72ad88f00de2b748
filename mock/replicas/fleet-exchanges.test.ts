/**
 * The fleet's stream of exchanges on a real redis-server: appends from two replicas at once are
 * numbered 1 to N across both, each naming its replica; the stream keeps exactly its cap, the
 * newest; a reader pages by seq; and an exchange comes back as it went, a bigint included.
 */
import { expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { joinFleet } from './fleet.ts';
import { fleetExchanges } from './fleet-exchanges.ts';
import type { ReplicaRedis } from './replica-redis.ts';

const { clients } = replicaClients(2);

/** An exchange of a create, told apart by its path. */
function exchangeOf(path: string, categoryId: number | bigint = 1): Exchange {
  return {
    kind: 'api',
    arrival: 1,
    arrivalsWhenAnswered: 1,
    atMs: 1,
    realMs: 1,
    answeredAtMs: 2,
    answeredRealMs: 2,
    durationMs: 1,
    method: 'POST',
    path,
    query: '',
    operationId: 'createPet',
    params: {},
    keyId: 'free-1',
    plan: 'free',
    authorization: 'bearer',
    contentType: 'application/json',
    clientId: 'app',
    connection: 'http-1',
    oneCopy: false,
    possibleCopy: false,
    body: { kept: null, bytes: 10, truncated: false, hash: 7, json: { value: { categoryId } } },
    status: 201,
    headers: { 'X-RateLimit-Remaining': '59' },
    answerBody: '{"id":1}',
    errorCode: null,
    injected: null,
    dropped: false,
    breaks: [],
    quota: null,
    rateLimit: { limit: 60, remaining: 59, reset: 60 },
    violations: 0,
  };
}

test('appends from two replicas at once are numbered across both; the stream keeps its cap, newest', async () => {
  const fleet = await joinFleet(clients[0] as ReplicaRedis, 'journal', { settings: {} });
  const streams = ['replica-a', 'replica-b'].map((name, index) =>
    fleetExchanges(clients[index] as ReplicaRedis, 'journal', fleet, name, 30),
  );
  const seqs = await Promise.all(
    Array.from({ length: 100 }, (_, index) =>
      streams[index % 2]?.append(exchangeOf(`/v1/pets/${index}`)),
    ),
  );
  expect([...seqs].sort((a, b) => Number(a) - Number(b))).toEqual(
    Array.from({ length: 100 }, (_, index) => index + 1),
  );
  const kept = (await streams[0]?.read(0, 1000)) ?? [];
  expect(kept.map((entry) => entry.seq)).toEqual(
    Array.from({ length: 30 }, (_, index) => index + 71),
  );
  for (const entry of kept) {
    // Each appended the exchanges of its own parity, in the order it sent them.
    const { path } = entry.exchange as Exchange;
    const sent = Number(path.slice('/v1/pets/'.length));
    expect(entry.replica).toBe(sent % 2 === 0 ? 'replica-a' : 'replica-b');
  }
  expect((await streams[1]?.read(90, 5))?.map((entry) => entry.seq)).toEqual([91, 92, 93, 94, 95]);
  expect(await streams[1]?.read(100, 5)).toEqual([]);
});

test('an exchange comes back as it went, a categoryId past 2^53 included', async () => {
  const fleet = await joinFleet(clients[0] as ReplicaRedis, 'exact', { settings: {} });
  const stream = fleetExchanges(clients[0] as ReplicaRedis, 'exact', fleet, 'replica-a', 10);
  const sent = exchangeOf('/v1/pets', 2n ** 63n - 1n);
  await stream.append(sent);
  const [entry] = await stream.read(0, 1);
  expect(entry).toEqual({ seq: 1, replica: 'replica-a', exchange: sent });
});
