/**
 * What the panel shows, from a reading of a real fake (`createFake`, in Node): which keys, what
 * Remaining and reset (the X-RateLimit-* the fake sends), a ban's time left, the clock, forced
 * answers and chaos, and that reading it is no request to the API.
 */
import { expect, test } from 'vitest';
import { createFake } from '../core/fake.ts';
import { duration, panelModel } from './control-model.ts';
import { type PanelControl, readFake } from './control-reading.ts';

const minute = Date.UTC(2026, 5, 1, 12, 0, 0);

async function pinnedFake() {
  const fake = await createFake();
  fake.control.freezeTime(true);
  fake.control.setTime(minute + 15_000);
  // The panel's reading works on the in-process fake (a Storybook page) as on the browser's.
  const control: PanelControl = fake.control;
  return { fake, control };
}

function get(fake: Awaited<ReturnType<typeof createFake>>, key = 'free-demo-key') {
  return fake.fetch('http://127.0.0.1:4010/v1/pets?limit=1', {
    headers: { Authorization: `Bearer ${key}` },
  });
}

test('shows only the keys the page used, with the Remaining and reset of their X-RateLimit-* headers', async () => {
  const { fake, control } = await pinnedFake();
  expect(panelModel(await readFake(control), Date.now()).keys).toEqual([]);
  await get(fake);
  const answer = await get(fake);
  const { keys } = panelModel(await readFake(control), Date.now());
  expect(keys.map((key) => key.id)).toEqual(['demo-free']);
  const [free] = keys;
  expect(free?.plan).toBe('free');
  expect(String(free?.remaining)).toBe(answer.headers.get('X-RateLimit-Remaining'));
  expect(String(free?.limit)).toBe(answer.headers.get('X-RateLimit-Limit'));
  // X-RateLimit-Reset is Unix seconds: the countdown runs to it on the fake's clock.
  const reset = Number(answer.headers.get('X-RateLimit-Reset')) * 1000;
  expect(free?.resetInMs).toBe(reset - fake.control.now());
  expect(free?.window).toBe('minute');
  expect(free?.bannedUntil).toBeUndefined();
});

test('reading the fake for the panel is no request: the windows do not move', async () => {
  const { fake, control } = await pinnedFake();
  await get(fake);
  for (let read = 0; read < 20; read++) await readFake(control);
  expect(fake.control.keys().find((key) => key.id === 'demo-free')?.usage).toEqual({
    minute: 1,
    day: 1,
    violations: 0,
  });
  expect((await get(fake)).headers.get('X-RateLimit-Remaining')).toBe('58');
});

test('the day window is shown when it has fewer requests left than the minute', async () => {
  const { fake, control } = await pinnedFake();
  fake.control.updateKey('demo-free', { limits: { perMinute: 60, perDay: 3 } });
  await get(fake);
  const [free] = panelModel(await readFake(control), Date.now()).keys;
  expect(free).toMatchObject({ plan: 'free (own limits)', remaining: 2, limit: 3, window: 'day' });
  expect(free?.resetInMs).toBe(Date.UTC(2026, 5, 2) - fake.control.now());
});

test('a frozen clock stands still between readings; a ticking one runs on real time, and a window rolls over', async () => {
  const { fake, control } = await pinnedFake();
  await get(fake);
  const frozen = await readFake(control);
  expect(panelModel(frozen, frozen.realNow + 10_000).keys[0]?.resetInMs).toBe(45_000);
  fake.control.freezeTime(false);
  const ticking = await readFake(control);
  const later = panelModel(ticking, ticking.realNow + 10_000);
  expect(later.fakeNow).toBe(ticking.fakeNow + 10_000);
  // Past the minute's end, the window the reading saw has rolled over: the whole minute is back.
  const next = panelModel(ticking, ticking.realNow + 60_000).keys[0];
  expect(next?.remaining).toBe(60);
  // Another day than today's: the date is said, and how far the clock is from real time.
  expect(later.clock).toMatch(
    /^2026-06-01 12:00:\d\d UTC, ticking, \d+ h \d+ min behind real time$/,
  );
});

test('a ban shows with its time left, and is gone once the clock passes its end', async () => {
  const { fake, control } = await pinnedFake();
  fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } });
  for (let i = 0; i < 7; i++) await get(fake);
  const reading = await readFake(control);
  const [free] = panelModel(reading, Date.now()).keys;
  expect(free?.banLeftMs).toBe(300_000);
  expect(duration(free?.banLeftMs ?? 0)).toBe('5 min 0 s');
  expect(panelModel(reading, Date.now()).summary).toBe('demo-free banned 5 min 0 s');
  fake.control.advanceTime(300);
  expect(panelModel(await readFake(control), Date.now()).keys[0]?.bannedUntil).toBeUndefined();
});

test('forced answers, chaos and the last requests are shown as the control surface holds them', async () => {
  const { fake, control } = await pinnedFake();
  fake.control.force('createPet', 503, 2);
  fake.control.setChaos({
    seed: 7,
    rules: [
      { operationId: 'getPet', keyId: 'demo-pro', errors: { '429': 0.25 }, drop: 0.1 },
      { latency: { distribution: 'exponential', meanMs: 100, maxMs: 900 } },
    ],
  });
  fake.control.force('listPets', 429, 1);
  await get(fake);
  const model = panelModel(await readFake(control), Date.now());
  expect(model.forced).toEqual(['createPet: the next 2 answers are 503']);
  expect(model.chaos).toEqual({
    on: true,
    lines: [
      'seed 7',
      'getPet of demo-pro: 429 25%, dropped 10%',
      'every operation: latency ~100 ms (at most 900)',
    ],
  });
  // Time, status, request, code (and chaos), key: a row of cells the panel writes as they are.
  expect(model.recent.map((row) => row.cells.map((cell) => cell.text))).toEqual([
    ['12:00:15', '429', 'GET /v1/pets?limit=1', 'rate_limited', 'demo-free'],
  ]);
  expect(model.recent[0]?.cells[1]?.className).toBe('status failed');
  expect(model.summary).toBe('demo-free 60/60, resets in 45 s · 1 forced · chaos on');
});

test('durations read as a countdown', () => {
  expect([0, 999, 42_000, 60_000, 299_001, 3_600_000, 43_140_000].map(duration)).toEqual([
    '0 s',
    '1 s',
    '42 s',
    '1 min 0 s',
    '5 min 0 s',
    '1 h 0 min',
    '11 h 59 min',
  ]);
});
