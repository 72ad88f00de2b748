/**
 * Every number a backoff reason cites is one the report judged: the app's
 * retries go through `fake.fetch` on a frozen clock moved by exactly each wait (as a test that
 * sleeps by advancing the fake's clock does), then the numbers are parsed back out of the reason
 * and held to the report's own `waits` and to the thresholds of the definition
 * (`backoffRules`, `backoffFloorMs`).
 */
import { afterEach, expect, test, vi } from 'vitest';
import { createFake } from '../../../core/fake.ts';
import { backoffFloorMs } from './backoff-floor.ts';
import { backoffRules } from './backoff-judgement.ts';

const base = 'http://127.0.0.1:4010/v1';

afterEach(() => {
  vi.useRealTimers();
});

/** The backoff rule of a client that retried `listPets` after 500s with the given waits (ms). */
async function backoffAfter(waits: readonly number[]) {
  // The report reads a wait as the longer of the fake's clock and real time (client-report.ts),
  // so real time stands still too: a loaded machine's few ms between calls must not outgrow a
  // 2 ms wait.
  vi.useFakeTimers({ toFake: ['Date'] });
  const fake = await createFake();
  fake.control.freezeTime(true);
  fake.control.force('listPets', 500, waits.length);
  const send = () =>
    fake.fetch(`${base}/pets?limit=1`, {
      headers: { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'retrier' },
    });
  await send();
  for (const wait of waits) {
    fake.control.advanceTime(wait / 1000);
    await send();
  }
  const client = fake.control.clients().clients.find((c) => c.clientId === 'retrier');
  if (client === undefined) throw new Error('no report on the client');
  return client.rules.backoff;
}

/** Every duration a reason cites, in ms (to the tenth a reason shows), in order. */
function durations(reason: string): number[] {
  return [...reason.matchAll(/(\d+(?:\.\d+)?) (ms|s)\b/g)].map(
    ([, value, unit]) => Math.round(Number(value) * (unit === 's' ? 10_000 : 10)) / 10,
  );
}

/** The waits a reason lists in its parentheses ("(6 ms, 4 ms, 2 ms"), in ms. */
function listed(reason: string): number[] {
  const list = /\(((?:\d+(?:\.\d+)? (?:ms|s)(?:, )?)+)/.exec(reason)?.[1];
  return list === undefined ? [] : durations(list);
}

const { growthShare, growthFloorMs } = backoffRules;

test('three immediate retries (6, 4, 2 ms) cite 6, 4 and 2 ms, and say what counted as 50 ms and why 90 ms was needed', async () => {
  const rule = await backoffAfter([6, 4, 2]);
  const waits = rule.waits.map((w) => w.waitMs);
  expect(waits).toEqual([6, 4, 2]);
  expect(rule.verdict).toBe('inconclusive');
  expect(listed(rule.reason)).toEqual(waits);
  // The growth rule reads the third wait against 0.9 x 2^1 x the shortest before it, each wait
  // counted as at least the growth floor (backoff-judgement.ts: growthFloorMs).
  const needed = growthShare * 2 * Math.max(4, growthFloorMs);
  expect(rule.reason).toContain(`retry 3 waited 2 ms, which counts as ${growthFloorMs} ms`);
  expect(rule.reason).toContain(`${needed} ms was needed`);
  expect(rule.reason).toContain(`the shortest wait before it (4 ms)`);
  expect(new Set(durations(rule.reason))).toEqual(new Set([...waits, growthFloorMs, needed]));
  expect(rule.reason).not.toMatch(/0\.0\d s/);
});

test('a chain under the floor cites its waits, their total and the floor of that many retries', async () => {
  const rule = await backoffAfter([1, 2, 1]);
  const waits = rule.waits.map((w) => w.waitMs);
  expect(rule.verdict).toBe('fail');
  expect(listed(rule.reason)).toEqual(waits);
  const floor = backoffFloorMs(3) as number;
  expect(rule.reason).toContain(`waited 4 ms in all`);
  expect(rule.reason).toContain(`under the floor of ${floor} ms`);
  // The reference client's base (50 ms) is the only other number: the floor's definition.
  expect(new Set(durations(rule.reason))).toEqual(new Set([...waits, 4, floor, 50]));
});

test('a fixed interval cites the waits it compared', async () => {
  const rule = await backoffAfter([1000, 1010, 1005, 1000]);
  expect(rule.verdict).toBe('fail');
  expect(rule.reason).toMatch(/^a fixed interval/);
  expect(listed(rule.reason)).toEqual(rule.waits.map((w) => w.waitMs));
  expect(rule.reason).toContain('(1 s, 1.01 s, 1.005 s, 1 s)');
});

test('a doubling chain passes, citing the wait that grew and every wait as measured', async () => {
  const rule = await backoffAfter([120, 250, 510]);
  expect(rule.verdict).toBe('pass');
  // A pass's reason counts chains; the judged chain's own words are its waits.
  expect(rule.waits.map((w) => w.waitMs)).toEqual([120, 250, 510]);
  expect(durations(rule.reason)).toEqual([]);
});

test('linear growth cites its waits and the slope the line through them has', async () => {
  const waits = [300, 600, 900, 1200, 1500];
  const rule = await backoffAfter(waits);
  expect(rule.verdict).toBe('fail');
  expect(rule.reason).toMatch(/^linear growth/);
  expect(listed(rule.reason)).toEqual(waits);
  expect(rule.reason).toContain('about +300 ms per retry');
});
