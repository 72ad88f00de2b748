import { expect, test } from 'vitest';
import { jsonAnswer } from '../../base/messages/answer.ts';
import { inMemoryLedger, type QuotaLedger } from '../../base/quota/quota.ts';
import type { KeyUsage } from '../../base/quota/rate-limit.ts';
import { createContext, runPipeline } from '../../pipeline/pipeline.ts';
import { authenticateStep, callerSlot, callerUsage, identifyStep } from './auth.ts';
import { quotaSlot, quotaStep } from './quota-step.ts';
import { createRefuse } from './refusal.ts';

const limits = { perMinute: 1, perDay: 100 };
const key = { id: 'k1', key: 'secret-key-1', plan: 'free' } as const;

/** A `GET /v1/pets` context at `now`, sending `authorization` when given. */
function contextOf(now: number, authorization: string | null = null) {
  const url = new URL('http://127.0.0.1:4010/v1/pets');
  return createContext(
    {
      method: 'GET',
      url: url.href,
      header: (name) => (name === 'authorization' ? authorization : null),
      headerList: () => [],
      body: () => new Uint8Array(),
    },
    url,
    now,
  );
}

/** `own`, as an engine shared by processes answers it: each decision and read 5 ms later. */
function answeringLater(own: QuotaLedger): QuotaLedger {
  const later = <Value>(value: () => Value | Promise<Value>) =>
    new Promise<Value>((resolve) => setTimeout(() => resolve(value()), 5));
  return {
    decide: (...args) => later(() => own.decide(...args)),
    clear: () => own.clear(),
    read: (keyId) => later(() => own.read(keyId)),
    write: (keyId, usage) => own.write(keyId, usage),
  };
}

/** One request of key k1 through the quota step alone, at `now`. */
function request(ledger: QuotaLedger, now: number) {
  const context = contextOf(now);
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
  const later = answeringLater(inMemoryLedger(records));
  const first = await request(later, now);
  expect(first.answer.status).toBe(200);
  expect(first.decision?.verdict).toBe('admitted');
  const second = await request(later, now);
  expect(second.answer.status).toBe(429);
  expect(second.answer.headers['Retry-After']).toBe('60');
  expect(second.decision?.verdict).toBe('limited');
  expect(records.get('k1')?.minute.count).toBe(1);
});

test("authentication takes the caller's usage from the ledger at once, or, from one that reads later, goes on while it reads and gives the record to a step that shows it", async () => {
  const records = new Map<string, KeyUsage>();
  const own = inMemoryLedger(records);
  const context = contextOf(Date.UTC(2027, 0, 1), `Bearer ${key.key}`);
  const ownSteps = [
    identifyStep([{ ...key }]),
    authenticateStep({ plans: { free: limits }, quota: own }),
  ];
  expect((await runPipeline(ownSteps, () => jsonAnswer(200, []), context)).status).toBe(200);
  // The record the ledger holds for the key, which its next decision changes.
  expect(context.get(callerSlot)?.usage).toBe(records.get('k1'));
  expect(context.get(callerSlot)?.limits).toEqual(limits);

  const later = answeringLater(own);
  const waiting = contextOf(Date.UTC(2027, 0, 1), `Bearer ${key.key}`);
  let usageWhenHandled: KeyUsage | undefined | 'not handled' = 'not handled';
  const laterSteps = [
    identifyStep([{ ...key }]),
    authenticateStep({ plans: { free: limits }, quota: later }),
  ];
  const answered = runPipeline(
    laterSteps,
    () => {
      usageWhenHandled = waiting.get(callerSlot)?.usage;
      return jsonAnswer(200, []);
    },
    waiting,
  );
  expect((await answered).status).toBe(200);
  // The request went on without the record; it is there for whoever waits.
  expect(usageWhenHandled).toBeUndefined();
  expect(await callerUsage(waiting)).toBe(records.get('k1'));
});
