import { expect, test } from 'vitest';
import { errorAnswer, jsonAnswer } from '../../base/messages/answer.ts';
import { inMemoryLedger, type QuotaLedger } from '../../base/quota/quota.ts';
import type { KeyUsage } from '../../base/quota/rate-limit.ts';
import type { SharedQuota, SharedStore } from '../../pipeline/fake-state.ts';
import { createContext, type Handler, runPipeline } from '../../pipeline/pipeline.ts';
import { openAdmission } from '../../pipeline/shared-admission.ts';
import { createPetStore } from '../../store/pet-store.ts';
import { requestStoreSlot } from '../routes/route.ts';
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
  const { step } = quotaStep(
    { quota: ledger, refuse: createRefuse('seconds'), admission: undefined },
    {},
  );
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

test("authentication takes the caller's usage from its own ledger at once, and from a shared one reads it only when a step shows it, once", async () => {
  const records = new Map<string, KeyUsage>();
  const own = inMemoryLedger(records);
  const context = contextOf(Date.UTC(2027, 0, 1), `Bearer ${key.key}`);
  const ownSteps = [
    identifyStep([{ ...key }]),
    authenticateStep({ plans: { free: limits }, quota: own, shared: false }),
  ];
  expect((await runPipeline(ownSteps, () => jsonAnswer(200, []), context)).status).toBe(200);
  // The record the ledger holds for the key, which its next decision changes.
  expect(context.get(callerSlot)?.usage).toBe(records.get('k1'));
  expect(context.get(callerSlot)?.limits).toEqual(limits);

  let reads = 0;
  const answering = answeringLater(own);
  const later: QuotaLedger = {
    ...answering,
    read: (keyId) => {
      reads += 1;
      return answering.read(keyId);
    },
  };
  const waiting = contextOf(Date.UTC(2027, 0, 1), `Bearer ${key.key}`);
  let usageWhenHandled: KeyUsage | undefined | 'not handled' = 'not handled';
  const laterSteps = [
    identifyStep([{ ...key }]),
    authenticateStep({ plans: { free: limits }, quota: later, shared: true }),
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
  // The request went on without the record, and the ledger was not asked for it...
  expect(usageWhenHandled).toBeUndefined();
  expect(reads).toBe(0);
  // ...until a step showed it: read once, however many steps show it.
  expect(await callerUsage(waiting)).toBe(records.get('k1'));
  expect(await callerUsage(waiting)).toBe(records.get('k1'));
  expect(reads).toBe(1);
});

test("on a shared state the route's store call carries the request's decision: one call to the engine a request, a refused create never stored and its route's answer dropped, a route that calls no store deciding alone", async () => {
  const records = new Map<string, KeyUsage>();
  const own = inMemoryLedger(records);
  const store = await createPetStore([]);
  const calls: string[] = [];
  const later = <Value>(value: () => Value) =>
    new Promise<Value>((resolve) => setTimeout(() => resolve(value()), 5));
  const quota: SharedQuota = {
    decide: (...args) => {
      calls.push('decide');
      return later(() => own.decide(...args));
    },
    decideWith: (keyId, limits, now, policy, call) => {
      calls.push(`decideWith ${call.call}`);
      return later(() => {
        const decision = own.decide(keyId, limits, now, policy);
        if (decision.verdict !== 'admitted' || call.call !== 'create')
          return { decision, stored: undefined };
        return { decision, stored: store.create(call.pet, call.maxPets) };
      });
    },
    clear: async () => own.clear(),
    read: async (keyId) => own.read(keyId),
    write: async (keyId, usage) => own.write(keyId, usage),
  };
  const shared: SharedStore = {
    ...store,
    count: async () => store.count(),
    snapshot: async () => store.snapshot(),
  };
  const { step } = quotaStep(
    {
      quota: own,
      refuse: createRefuse('seconds'),
      admission: (request) => openAdmission(quota, shared, request),
    },
    {},
  );
  const now = Date.UTC(2027, 0, 1);
  const requestOf = (handler: Handler) => {
    const context = contextOf(now);
    context.set(callerSlot, { key, usage: undefined, limits: { perMinute: 2, perDay: 100 } });
    return runPipeline([step], handler, context);
  };
  const creating: Handler = async (context) => {
    const pet = await context
      .need(requestStoreSlot)
      .create({ name: 'Rex', categoryId: 1, status: 'available' });
    return jsonAnswer(201, pet);
  };
  const created = await requestOf(creating);
  expect(created.status).toBe(201);
  expect(created.body).toContain('"name":"Rex"');
  expect(calls).toEqual(['decideWith create']);
  // A route that answers without the store (a bad body) sends the decision alone.
  expect((await requestOf(() => errorAnswer('invalid_body', 'no'))).status).toBe(400);
  expect(calls).toEqual(['decideWith create', 'decide']);
  // The window is spent: the create is refused, and nothing reaches the store.
  const refused = await requestOf(creating);
  expect(refused.status).toBe(429);
  expect(refused.headers['Retry-After']).toBe('60');
  expect(calls).toEqual(['decideWith create', 'decide', 'decideWith create']);
  expect(store.count()).toBe(1);
  expect(records.get('k1')?.minute.count).toBe(2);
});
