import { expect, test } from 'vitest';
import type { HarnessClock } from './clock.ts';
import type { Exchange } from './exchange.ts';
import { createPacer, RateLimitedError, RunDurationError } from './pacer.ts';
import { testExchange } from './test-exchange.ts';

function virtualClock(start = 1_000_000_000_000): HarnessClock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    now: () => now,
    async sleep(ms) {
      slept.push(ms);
      now += ms;
    },
    slept,
  };
}

function answer(status: number, headers: Record<string, string>, authenticated = true): Exchange {
  return testExchange({ status, headers, authenticated });
}

test('does not wait while X-RateLimit-Remaining is above 0', async () => {
  const clock = virtualClock();
  const pacer = createPacer({ clock, maxWaitMs: 90_000, random: () => 0.5 });
  pacer.observe(answer(200, { 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': '1000000060' }));
  await pacer.beforeSend(true, true);
  expect(clock.slept).toEqual([]);
});

test('waits for X-RateLimit-Reset (plus a second and jitter) once Remaining is 0', async () => {
  const clock = virtualClock();
  const pacer = createPacer({ clock, maxWaitMs: 90_000, random: () => 0 });
  pacer.observe(answer(200, { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1000000060' }));
  await pacer.beforeSend(true, true);
  expect(clock.slept).toEqual([61_000]);
});

test('counts a request against the known Remaining before its answer arrives', async () => {
  const clock = virtualClock();
  const pacer = createPacer({ clock, maxWaitMs: 90_000, random: () => 0 });
  pacer.observe(answer(200, { 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': '1000000060' }));
  await pacer.beforeSend(true, true); // spends the last request; its answer carries no headers
  await pacer.beforeSend(true, true);
  expect(clock.slept).toEqual([61_000]);
});

test('ignores the quota shown to requests sent without the key', async () => {
  const clock = virtualClock();
  const pacer = createPacer({ clock, maxWaitMs: 90_000, random: () => 0 });
  pacer.observe(
    answer(401, { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1000000060' }, false),
  );
  await pacer.beforeSend(true, true);
  expect(clock.slept).toEqual([]);
});

test('never sends before a Retry-After, in seconds or as an HTTP-date, even when not pacing', async () => {
  const clock = virtualClock();
  const pacer = createPacer({ clock, maxWaitMs: 90_000, random: () => 0 });
  pacer.observe(answer(429, { 'Retry-After': '7' }));
  await pacer.beforeSend(false, true);
  expect(clock.slept).toEqual([7000]);
  pacer.observe(answer(429, { 'Retry-After': new Date(clock.now() + 12_000).toUTCString() }));
  await pacer.beforeSend(false, true);
  expect(clock.slept[1]).toBe(12_000);
});

test('gives up rather than wait longer than --max-wait', async () => {
  const clock = virtualClock();
  const pacer = createPacer({ clock, maxWaitMs: 5_000, random: () => 0 });
  pacer.observe(answer(429, { 'Retry-After': '3600' }));
  await expect(pacer.beforeSend(true, true)).rejects.toBeInstanceOf(RateLimitedError);
});

test('--max-duration: against 429s forever, no request after the bound and no wait that would end past it', async () => {
  const clock = virtualClock();
  const started = clock.now();
  const pacer = createPacer({
    clock,
    maxWaitMs: 90_000,
    random: () => 0.99,
    maxDurationMs: 300_000,
  });
  let sent = 0;
  let stop: unknown;
  try {
    for (;;) {
      await pacer.beforeSend(true, true);
      sent += 1;
      pacer.observe(answer(429, { 'Retry-After': '60', 'X-RateLimit-Remaining': '0' }));
    }
  } catch (error) {
    stop = error;
  }
  expect(stop).toBeInstanceOf(RunDurationError);
  expect((stop as Error).message).toMatch(
    /^--max-duration 300 s would pass while waiting \d+ s for Retry-After: 60$/,
  );
  expect(clock.now() - started).toBeLessThanOrEqual(300_000);
  // 60 s plus up to 10% jitter (at most 1 s) a wait: four waits fit in 300 s, a fifth does not.
  expect(sent).toBe(5);
});

test('--max-duration: once the bound has passed (slow answers), no request is sent, naming the bound', async () => {
  const clock = virtualClock();
  const pacer = createPacer({ clock, maxWaitMs: 90_000, random: () => 0, maxDurationMs: 10_000 });
  await pacer.beforeSend(true, true);
  await clock.sleep(10_000);
  await expect(pacer.beforeSend(true, true)).rejects.toThrow(
    /^--max-duration 10 s passed \(no wait: the answers took that long\)$/,
  );
});

test('a 429 without Retry-After while X-RateLimit-Remaining was above 0: the backoff and the wait for X-RateLimit-Reset both say it was unplanned', async () => {
  const clock = virtualClock();
  const reasons: string[] = [];
  const pacer = createPacer({
    clock,
    maxWaitMs: 90_000,
    random: () => 0,
    onWait: (wait) => reasons.push(wait.reason),
  });
  pacer.observe(answer(200, { 'X-RateLimit-Remaining': '5', 'X-RateLimit-Reset': '1000000060' }));
  await pacer.beforeSend(true, true);
  pacer.observe(answer(429, { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1000000030' }));
  // As the client does after a 429 without Retry-After: a 2 s backoff.
  pacer.blockUntil(clock.now() + 2000, 'backoff after 429 number 1 of this request');
  await pacer.beforeSend(true, true);
  const note =
    ' (an unplanned 429: X-RateLimit-Remaining was 5; the run re-plans: no request before it)';
  expect(reasons).toEqual([
    `backoff after 429 number 1 of this request${note}`,
    `X-RateLimit-Reset 1000000030 (X-RateLimit-Remaining is 0)${note}`,
  ]);
});
