/**
 * Telling one create from two in a tab (request-copies.ts): the Idempotency-Key a request carries
 * (draft-ietf-httpapi-idempotency-key-header, section 2: the key names one request, and a request
 * sent again with it is the same one), else a same create again from the tab while the first is
 * in flight or within 5 s of its answer.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { createCopyWatch, idempotencyKeyOf } from './request-copies.ts';
import type { WireRequest } from './tab-messages.ts';

const url = 'http://127.0.0.1:4010/v1/pets';

function post(name: string, headers: [string, string][] = []): WireRequest {
  return {
    method: 'POST',
    url,
    headers: [['content-type', 'application/json'], ...headers],
    body: new TextEncoder().encode(JSON.stringify({ name, categoryId: 1 })),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

it('names a keyed create by its key, method, URL and body; a GET or a blank key has none', () => {
  const keyed = idempotencyKeyOf(post('Nemo', [['Idempotency-Key', ' k-1 ']]));
  expect(keyed).toMatch(/^idempotency:k-1:[0-9a-f]{8}:[0-9a-f]{8}$/);
  expect(idempotencyKeyOf(post('Nemo', [['idempotency-key', 'k-1']]))).toBe(keyed);
  // The same key on another request is another call.
  expect(idempotencyKeyOf(post('Dory', [['Idempotency-Key', 'k-1']]))).not.toBe(keyed);
  expect(idempotencyKeyOf(post('Nemo', [['Idempotency-Key', '  ']]))).toBeUndefined();
  expect(
    idempotencyKeyOf({ ...post('Nemo', [['Idempotency-Key', 'k-1']]), method: 'GET' }),
  ).toBeUndefined();
  expect(
    idempotencyKeyOf(post('Nemo', [['Idempotency-Key', 'x'.repeat(10_000)]]))?.length,
  ).toBeLessThan(300);
});

it('counts a same create from the tab in flight or within 5 s of its answer as a possible copy, and marks it', () => {
  vi.useFakeTimers({ toFake: ['performance'] });
  const warnings: string[] = [];
  const watch = createCopyWatch((message) => warnings.push(message));
  const first = watch.arrived(post('Nemo'), false);
  expect(first.wire.headers).not.toContainEqual(['x-petstore-possible-copy', '1']);
  const inFlight = watch.arrived(post('Nemo'), false);
  expect(inFlight.wire.headers).toContainEqual(['x-petstore-possible-copy', '1']);
  first.done();
  inFlight.done();
  vi.advanceTimersByTime(4_000);
  expect(watch.arrived(post('Nemo'), false).wire.headers).toContainEqual([
    'x-petstore-possible-copy',
    '1',
  ]);
  expect(watch.count()).toBe(2);
  expect(warnings).toHaveLength(2);
  // Another body, a keyed create, or a GET is never a possible copy.
  watch.arrived(post('Dory'), false);
  watch.arrived(post('Nemo', [['Idempotency-Key', 'k']]), true);
  watch.arrived({ ...post('Nemo'), method: 'GET' }, false);
  expect(watch.count()).toBe(2);
});

it('a same create more than 5 s after the earlier ones were answered is the app creating it again', () => {
  vi.useFakeTimers({ toFake: ['performance'] });
  const watch = createCopyWatch(() => {});
  watch.arrived(post('Nemo'), false).done();
  vi.advanceTimersByTime(5_001);
  expect(watch.arrived(post('Nemo'), false).wire.headers).not.toContainEqual([
    'x-petstore-possible-copy',
    '1',
  ]);
  expect(watch.count()).toBe(0);
});
