/**
 * What makes the harness safe to point at a shared staging server: read-only unless allowed,
 * recognisable names when writing, the request budget, every 429 honoured, and server faults
 * reported as findings rather than crashes.
 */
import { expect, test } from 'vitest';
import { defaultSeed } from '../mock/internal/entry.ts';
import { intercept } from '../test/harness-fixtures/mutants/intercept.ts';
import type { Exchange } from './http/exchange.ts';
import { createRunClient } from './runner/run-client.ts';
import { runSuite } from './runner/run-suite.ts';
import { directFakeTarget } from './targets/fake-target.ts';

async function record(options: Parameters<typeof directFakeTarget>[0] = {}) {
  const exchanges: Exchange[] = [];
  const target = await directFakeTarget(options);
  return { target, exchanges, onExchange: (exchange: Exchange) => exchanges.push(exchange) };
}

test('a non-loopback server is only read by default, in at most the 60-request budget', async () => {
  const { target, exchanges, onExchange } = await record({ apiKey: 'free-demo-key' });
  const result = await runSuite({
    client: createRunClient({ ...target, loopback: false }, { seed: 3, budget: 60, onExchange }),
  });
  // The only other requests are errors.largeRequests' bodies: without a key and no NewPet, so
  // nothing can be created from them.
  const written = exchanges.filter((exchange) => exchange.spec.method !== 'GET');
  expect(written.map((exchange) => exchange.spec.auth)).toEqual(['none', 'none']);
  for (const exchange of written) expect(exchange.spec.body).not.toMatch(/"name"|"categoryId"/);
  expect(result.requests).toBeLessThanOrEqual(60);
  expect(result.answered429).toBe(0);
  const created = result.results.find((check) => check.id === 'createPet.created');
  expect(created?.status).toBe('skip');
  expect(created?.skip).toBe('not-selected');
  expect(created?.reason).toMatch(/opt-in: --allow-writes/);
  expect(result.results.filter((check) => check.status === 'fail')).toEqual([]);
  expect(target.fake.control.snapshot().pets).toHaveLength(defaultSeed.length);
});

test('with writes allowed, every pet the run creates is named with the run prefix', async () => {
  const { target } = await record();
  const result = await runSuite({
    client: createRunClient({ ...target, loopback: false }, { seed: 4, budget: 400 }),
    writes: true,
    runPrefix: 'contract-test1-',
  });
  const created = target.fake.control.snapshot().pets.slice(defaultSeed.length);
  expect(created.length).toBeGreaterThan(10);
  for (const pet of created) expect(pet.name.startsWith('contract-test1-')).toBe(true);
  expect(result.results.filter((check) => check.status === 'fail')).toEqual([]);
});

test('a --budget too small for the checks asked stops after the preflight, naming the number needed', async () => {
  const { target, exchanges, onExchange } = await record();
  await expect(
    runSuite({ client: createRunClient(target, { seed: 5, budget: 15, onExchange }) }),
  ).rejects.toThrow(
    /--budget 15 is too small for the checks asked: they need at least 70 requests; rerun with --budget 70/,
  );
  expect(exchanges).toHaveLength(1);
});

test('a 429 is honoured: the client waits for Retry-After and retries, and the check passes', async () => {
  const { target, exchanges, onExchange } = await record();
  target.fake.control.force('listPets', 429, 2, 3);
  const result = await runSuite({
    client: createRunClient(target, { seed: 6, budget: 300, onExchange }),
    runs: 2,
    only: ['listPets.'],
  });
  expect(result.answered429).toBe(2);
  // First retry after Retry-After (3 s), the second after max(Retry-After, 2 s backoff).
  expect(result.waitedMs).toBeGreaterThanOrEqual(6000);
  expect(exchanges.slice(0, 3).map((exchange) => exchange.response?.status)).toEqual([
    429, 429, 200,
  ]);
  expect(result.results.filter((check) => check.status === 'fail')).toEqual([]);
});

test('a server that keeps answering 429 stops the check after three honoured retries, without a ban', async () => {
  const { target } = await record();
  const result = await runSuite({
    client: createRunClient(target, { seed: 6, budget: 300, onExchange: () => {} }),
    runs: 2,
    only: ['getPet.notFound'],
  });
  target.fake.control.force('getPet', 429, 100, 1);
  const stubborn = await runSuite({
    client: createRunClient(target, { seed: 6, budget: 300 }),
    runs: 2,
    only: ['getPet.notFound'],
  });
  expect(result.results.find((check) => check.id === 'getPet.notFound')?.status).toBe('pass');
  const outcome = stubborn.results.find((check) => check.id === 'getPet.notFound');
  expect(outcome?.status).toBe('skip');
  expect(outcome?.reason).toMatch(/still answered 429 after 3 honoured retries/);
  expect(stubborn.answered429).toBe(4);
  expect(
    target.fake.control.keys().find((key) => key.id === 'demo-enterprise')?.bannedUntil,
  ).toBeNull();
});

test('timeouts and dropped connections are findings, never a crash of the harness', async () => {
  const { target } = await record({
    // In id order, so the first pet listed, which getPet.found reads, is pet 1: the one that hangs.
    fake: { listOrder: 'oldest-first' },
    wrap: (fake) =>
      intercept(fake, (call) =>
        call.operation === 'getPet' && call.url.pathname.endsWith('/1')
          ? new Promise<Response>(() => {}) // never answers
          : call.operation === 'getPet' && /\/-\d+$/.test(call.url.pathname)
            ? Promise.resolve(Response.error())
            : call.forward(),
      ),
  });
  const result = await runSuite({
    client: createRunClient(target, { seed: 8, budget: 300, timeoutMs: 200 }),
    runs: 3,
  });
  const faults = result.results.find((check) => check.id === 'server.noFaults');
  expect(faults?.status).toBe('fail');
  expect(faults?.failure?.message).toMatch(/no answer within 200 ms|connection reset/);
  expect(result.results.find((check) => check.id === 'getPet.found')?.failure?.message).toMatch(
    /server fault/,
  );
});
