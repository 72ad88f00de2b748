import { expect, test } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { rateLimitRemainingDecreases } from './observers.ts';

/** An authenticated 201 in the window ending at 1000000060, sent and answered at the given times. */
function created(remaining: number, sentAt: number, answeredAt: number): Exchange {
  return {
    spec: {
      method: 'POST',
      path: '/pets',
      auth: 'key',
      conforming: true,
      operationId: 'createPet',
    },
    url: 'http://h/v1/pets',
    sentAt,
    answeredAt,
    authenticated: true,
    response: {
      status: 201,
      headers: new Headers({
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': String(remaining),
        'X-RateLimit-Reset': '1000000060',
      }),
      text: '{}',
      json: {},
      exact: {},
      prismViolations: [],
      fromPrism: false,
    },
  };
}

test('remainingDecreases flags a Remaining that stays put between one answer and the next request', () => {
  const observer = rateLimitRemainingDecreases.start({});
  expect(observer.observe(created(50, 0, 1))).toBeUndefined();
  expect(observer.observe(created(49, 2, 3))).toBeUndefined();
  expect(observer.observe(created(49, 4, 5))).toMatch(/stayed at 49 \(was 49\)/);
});

test('remainingDecreases does not compare requests in flight together, whose answers may cross', () => {
  const observer = rateLimitRemainingDecreases.start({});
  expect(observer.observe(created(50, 0, 1))).toBeUndefined();
  // Three creates sent at once; the server handled them as 49, 48, 47 and the answers crossed.
  expect(observer.observe(created(48, 2, 5))).toBeUndefined();
  expect(observer.observe(created(49, 2, 6))).toBeUndefined();
  expect(observer.observe(created(47, 2, 7))).toBeUndefined();
  // The next request, sent after all three were answered, is compared again.
  expect(observer.observe(created(47, 8, 9))).toMatch(/stayed at 47 \(was 47\)/);
  expect(observer.unseenReason()).toBeUndefined();
});
