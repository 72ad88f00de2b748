/**
 * The page's check that its requests reach msw's worker (worker-check.ts), on a page whose fetch
 * is either msw's worker (the probe handler answers) or the network (the browser left the page
 * without its worker). The real fault, in Chromium: leader-crash-browser.test.ts.
 */
import { getResponse } from 'msw';
import { expect, it } from 'vitest';
import { createWorkerCheck, type WorkerCheckPage } from './worker-check.ts';

const pageUrl = 'http://127.0.0.1:5173/';

/** A page whose requests the worker answers (with `handlers`) or the network does. */
function page(reaches: 'worker' | 'network', storage: Map<string, string> | undefined) {
  const said: string[] = [];
  let reloads = 0;
  let time = 1_000_000;
  const timings: { name: string; workerStart: number }[] = [];
  let handler: Parameters<typeof getResponse>[0][number] | undefined;
  const browserPage: WorkerCheckPage = {
    async fetch(input) {
      const request = new Request(input as string);
      if (reaches === 'network') {
        timings.push({ name: request.url, workerStart: 0 });
        return new Response('not found', { status: 404 });
      }
      timings.push({ name: request.url, workerStart: 12.5 });
      return (await getResponse(handler === undefined ? [] : [handler], request)) ?? fetchFailed();
    },
    timing: async (url) =>
      timings.filter((entry) => entry.name === url) as unknown as PerformanceEntry[],
    reload: () => {
      reloads += 1;
    },
    session:
      storage === undefined
        ? undefined
        : {
            getItem: (key) => storage.get(key) ?? null,
            setItem: (key, value) => storage.set(key, value),
          },
    now: () => time,
    warn: (message) => said.push(message),
  };
  const check = createWorkerCheck(pageUrl, browserPage);
  handler = check.handler;
  return {
    check,
    said,
    reloads: () => reloads,
    later: (ms: number) => {
      time += ms;
    },
  };
}

/** A worker that passes the probe on to a network that refuses it. */
function fetchFailed(): never {
  throw new TypeError('Failed to fetch');
}

it('a page whose probe the fake answers in the worker is left as it is, and nothing is said', async () => {
  const tab = page('worker', new Map());
  expect(await tab.check.run()).toBe(true);
  expect(tab.said).toEqual([]);
  expect(tab.reloads()).toBe(0);
});

it('a page whose requests go to the network although msw enabled mocking says so and reloads itself once', async () => {
  const storage = new Map<string, string>();
  const tab = page('network', storage);
  expect(await tab.check.run()).toBe(false);
  expect(tab.reloads()).toBe(1);
  expect(tab.said).toHaveLength(1);
  expect(tab.said[0]).toMatch(
    /^petstore-fake: this page's requests do not reach msw's service worker, although it controls the page: .* Reloading the page, which gives it the worker back\.$/,
  );
  // The reloaded page is still without it a moment later: told to reload, not reloaded again.
  tab.later(5_000);
  expect(await tab.check.run()).toBe(false);
  expect(tab.reloads()).toBe(1);
  expect(tab.said[1]).toMatch(/It was reloaded for this a moment ago: reload it again\.$/);
  // Long after, it is the page's first time again.
  tab.later(60_000);
  expect(await tab.check.run()).toBe(false);
  expect(tab.reloads()).toBe(2);
});

it('a page without session storage is told, never reloaded (nothing would stop a reload loop)', async () => {
  const tab = page('network', undefined);
  expect(await tab.check.run()).toBe(false);
  expect(tab.reloads()).toBe(0);
  expect(tab.said[0]).toMatch(/reload it again\.$/);
});

it('a probe that a worker passed on (another setup of handlers) counts as reaching the worker, by its timing', async () => {
  const tab = page('worker', new Map());
  const passedOn = createWorkerCheck(pageUrl, {
    fetch: async () => fetchFailed(),
    timing: async () => [{ workerStart: 3 } as unknown as PerformanceEntry],
    reload: () => expect.unreachable('reloaded a page that has its worker'),
    session: undefined,
    now: () => 0,
    warn: (message) => tab.said.push(message),
  });
  expect(await passedOn.run()).toBe(true);
  expect(tab.said).toEqual([]);
});

it('a probe that fails or finds no timing proves nothing: the page is left as it is, and nothing is said', async () => {
  const said: string[] = [];
  const unsure = createWorkerCheck(pageUrl, {
    fetch: async () => fetchFailed(),
    timing: async () => [],
    reload: () => expect.unreachable('reloaded a page on a probe that told nothing'),
    session: { getItem: () => null, setItem: () => {} },
    now: () => 0,
    warn: (message) => said.push(message),
  });
  expect(await unsure.run()).toBe(true);
  expect(said).toEqual([]);
});
