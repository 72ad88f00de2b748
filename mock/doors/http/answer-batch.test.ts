/**
 * The door's batch of answers: held until every socket of the turn was read, then written in the
 * order they were ready, each turn on its own; and through the door, never held back by a test's
 * fake timers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, expect, test, vi } from 'vitest';
import type { Answer } from '../../base/messages/answer.ts';
import { createFake } from '../../core/fake.ts';
import { AnswerBatch } from './answer-batch.ts';
import { listenHttp } from './http-server.ts';

const incoming = {} as IncomingMessage;
const res = {} as ServerResponse;
const answer = (status: number): Answer => ({ status, headers: {}, body: undefined });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

test('answers wait for the end of the turn, then go in the order they were ready', async () => {
  const written: number[] = [];
  const batch = new AnswerBatch((_incoming, _res, ready) => written.push(ready.status));
  batch.add(incoming, res, answer(200));
  batch.add(incoming, res, answer(201));
  await Promise.resolve();
  expect(written).toEqual([]);
  batch.add(incoming, res, answer(404));
  await nextTurn();
  expect(written).toEqual([200, 201, 404]);
  batch.add(incoming, res, answer(429));
  await nextTurn();
  expect(written).toEqual([200, 201, 404, 429]);
});

test('an answer queued while the batch is written goes out with it', async () => {
  const written: number[] = [];
  const batch = new AnswerBatch((_incoming, _res, ready) => {
    written.push(ready.status);
    if (ready.status === 200) batch.add(incoming, res, answer(503));
  });
  batch.add(incoming, res, answer(200));
  await nextTurn();
  expect(written).toEqual([200, 503]);
  // Nothing left behind for a later turn.
  await nextTurn();
  expect(written).toEqual([200, 503]);
});

test('through the door, answers reach a client while a test fakes every timer', async () => {
  const fake = await createFake();
  const door = await listenHttp(fake.behaviour, { port: 0 });
  try {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'setImmediate', 'Date'] });
    const response = await fetch(`${door.origin}/v1/pets?limit=1`, {
      headers: { Authorization: 'Bearer free-demo-key' },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(1);
  } finally {
    vi.useRealTimers();
    await door.close(0);
  }
});
