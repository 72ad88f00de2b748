import { expect, test } from 'vitest';
import { BudgetSpentError, createBudget } from './budget.ts';
import { createClient } from './client.ts';
import type { HarnessClock } from './clock.ts';
import type { RequestSpec } from './exchange.ts';
import { createPacer, RateLimitedError, RunDurationError } from './pacer.ts';

const listing: RequestSpec = {
  method: 'GET',
  path: '/pets',
  auth: 'key',
  operationId: 'listPets',
};

/** A client over a virtual clock and a server that answers every request 429, Retry-After: 1. */
function throttledClient(budget: number) {
  let now = 1_000_000_000_000;
  const clock: HarnessClock = {
    now: () => now,
    async sleep(ms) {
      now += ms;
    },
  };
  const sentAt: number[] = [];
  const fetch = async () => {
    sentAt.push(now);
    return new Response('{}', { status: 429, headers: { 'Retry-After': '1' } });
  };
  const client = createClient({
    route: () => ({ sendUrl: 'http://h/v1/pets', reproUrl: 'http://h/v1/pets' }),
    apiKey: 'key-123456',
    timeoutMs: 1000,
    budget: createBudget(budget),
    pacer: createPacer({ clock, maxWaitMs: 90_000, random: () => 0 }),
    clock,
    onExchange: () => {},
    fetch,
  });
  return { client, sentAt, elapsed: () => now - 1_000_000_000_000 };
}

test('retries a 429 no sooner than Retry-After and with backoff of 1 s, 2 s, 4 s', async () => {
  const { client, sentAt } = throttledClient(10);
  await expect(client.send(listing)).rejects.toThrow(/still answered 429 after 3/);
  const gaps = sentAt.slice(1).map((at, index) => at - (sentAt[index] ?? 0));
  expect(gaps).toEqual([1000, 2000, 4000]);
});

test('does not wait for a Retry-After when the budget allows no further request', async () => {
  const { client, sentAt, elapsed } = throttledClient(2);
  await expect(client.send(listing)).rejects.toBeInstanceOf(BudgetSpentError);
  expect(sentAt).toHaveLength(2);
  // The second 429 asked for 2 s more; the budget ended the run before that wait.
  expect(elapsed()).toBe(1000);
});

test('after a request is refused through all its retries, sends nothing more', async () => {
  const { client, sentAt, elapsed } = throttledClient(20);
  await expect(client.send(listing)).rejects.toBeInstanceOf(RateLimitedError);
  const before = elapsed();
  await expect(client.send(listing)).rejects.toThrow(/not sent: an earlier request/);
  expect(sentAt).toHaveLength(4);
  expect(elapsed()).toBe(before);
});

test('--max-duration: an answer still awaited at the bound is awaited no longer; the run stops there, and the server is not blamed for a timeout', async () => {
  // A server that never answers; --timeout far longer than the bound (200 ms of real time).
  const fetch = (_url: string | URL | Request, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
    });
  const exchanges: unknown[] = [];
  const clock: HarnessClock = { now: () => Date.now(), sleep: async () => {} };
  const client = createClient({
    route: () => ({ sendUrl: 'http://h/v1/pets', reproUrl: 'http://h/v1/pets' }),
    apiKey: 'key-123456',
    timeoutMs: 600_000,
    budget: createBudget(5),
    pacer: createPacer({ clock, maxWaitMs: 90_000, random: () => 0, maxDurationMs: 200 }),
    clock,
    onExchange: (exchange) => exchanges.push(exchange),
    fetch,
  });
  const stop = await client.send(listing).catch((error: unknown) => error);
  expect(stop).toBeInstanceOf(RunDurationError);
  expect((stop as Error).message).toMatch(
    /^--max-duration 0 s passed while awaiting the answer to GET http:\/\/h\/v1\/pets \(no answer after \d+ ms; --timeout is 600000 ms\)$/,
  );
  expect(exchanges).toEqual([]);
  expect(client.stats.faults).toBe(0);
});
