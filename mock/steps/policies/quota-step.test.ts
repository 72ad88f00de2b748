import { expect, test } from 'vitest';
import { jsonAnswer } from '../../base/messages/answer.ts';
import { inMemoryLedger, type QuotaLedger } from '../../base/quota/quota.ts';
import type { KeyUsage } from '../../base/quota/rate-limit.ts';
import { createContext, runPipeline } from '../../pipeline/pipeline.ts';
import { authenticateStep, callerSlot, identifyStep } from './auth.ts';
import { quotaSlot, quotaStep } from './quota-step.ts';
import { createRefuse } from './refusal.ts';

const limits = { perMinute: 1, perDay: 100 };
const key = { id: 'k1', key: 'secret-key-1', plan: 'free' } as const;

/** One request of key k1 through the quota step alone, at `now`. */
function request(ledger: QuotaLedger, now: number) {
  const url = new URL('http://127.0.0.1:4010/v1/pets');
  const context = createContext(
    {
      method: 'GET',
      url: url.href,
      header: () => null,
      headerList: () => [],
      body: () => new Uint8Array(),
    },
    url,
    now,
  );
  const usage: KeyUsage = {
    minute: { start: 0, count: 0 },
    day: { start: 0, count: 0 },
    violations: 0,
    retryAt: 0,
    bannedUntil: 0,
  };
  context.set(callerSlot, { key, usage, limits });
  const { step } = quotaStep({ quota: ledger, refuse: createRefuse('seconds') }, {});
  return runPipeline([step], () => jsonAnswer(200, []), context).then((answer) => ({
    answer,
    decision: context.get(quotaSlot),
  }));
}

test('a ledger that answers later decides as the in-memory one does: the step waits for it, then admits or refuses', async () => {
  const records = new Map<string, KeyUsage>();
  const now = Date.UTC(2027, 0, 1);
  const own = inMemoryLedger(records);
  // An engine shared by processes answers a round trip later.
  const later: QuotaLedger = {
    decide: (...args) =>
      new Promise((resolve) => setTimeout(() => resolve(own.decide(...args)), 5)),
    clear: () => own.clear(),
    read: (keyId) => new Promise((resolve) => setTimeout(() => resolve(own.read(keyId)), 5)),
  };
  const first = await request(later, now);
  expect(first.answer.status).toBe(200);
  expect(first.decision?.verdict).toBe('admitted');
  const second = await request(later, now);
  expect(second.answer.status).toBe(429);
  expect(second.answer.headers['Retry-After']).toBe('60');
  expect(second.decision?.verdict).toBe('limited');
  expect(records.get('k1')?.minute.count).toBe(1);
});

test("authentication takes the caller's usage from the ledger, waiting for one that reads later", async () => {
  const records = new Map<string, KeyUsage>();
  const own = inMemoryLedger(records);
  const later: QuotaLedger = {
    decide: (...args) => own.decide(...args),
    clear: () => own.clear(),
    read: (keyId) => new Promise((resolve) => setTimeout(() => resolve(own.read(keyId)), 5)),
  };
  const url = new URL('http://127.0.0.1:4010/v1/pets');
  const context = createContext(
    {
      method: 'GET',
      url: url.href,
      header: (name) => (name === 'authorization' ? `Bearer ${key.key}` : null),
      headerList: () => [],
      body: () => new Uint8Array(),
    },
    url,
    Date.UTC(2027, 0, 1),
  );
  const steps = [
    identifyStep([{ ...key }]),
    authenticateStep({ plans: { free: limits }, quota: later }),
  ];
  const answer = await runPipeline(steps, () => jsonAnswer(200, []), context);
  expect(answer.status).toBe(200);
  // The record the ledger holds for the key, which its next decision changes.
  expect(context.get(callerSlot)?.usage).toBe(records.get('k1'));
  expect(context.get(callerSlot)?.limits).toEqual(limits);
});
