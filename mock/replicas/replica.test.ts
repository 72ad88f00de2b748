/**
 * A replica's reading of the fleet's exchanges on a real redis-server: a reader that fell more
 * than the stream's cap behind says how many exchanges it missed, and reads on from the oldest
 * kept; catch-ups asked for at once read each exchange once.
 */
import { expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
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
    await replica.finishFounding();
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
