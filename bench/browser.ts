/**
 * The browser door: what a page's `fetch` pays per request through msw's service worker, timed
 * inside the page, for the three ways a tab meets the fake (docs/browser.md):
 * - its own fake (`?shared=false`, a tab that does not share);
 * - the shared fake, from the tab that runs it (each answer waits for its IndexedDB write);
 * - the shared fake, from a second tab, which sends each request to the first over a
 *   BroadcastChannel and waits for the reply.
 * Sequential requests, one at a time; interleaved rounds, medians across them.
 */
import { chromium, type Page } from 'playwright-core';
import { bundleDemo, demoFiles, demoReady } from '../scripts/build-browser.ts';
import { chromiumArgs, findChromium } from '../test/support/headless-chromium.ts';
import { serveStatic } from '../test/support/static-server.ts';
import type { BenchOptions } from './options.ts';
import { BenchError } from './processes.ts';
import { benchKey } from './requests.ts';
import { median } from './stats.ts';

/** Microseconds per request, a list of 20 pets and a create. */
export interface BrowserTimings {
  readonly listUs: number;
  readonly createUs: number;
}

/** The browser door's cost per request, each way a tab meets the fake. */
export interface BrowserResult {
  /** A fake of the tab's own, in memory (`shared: false`). */
  readonly ownFake: BrowserTimings;
  /** The shared fake, from the tab that runs it. */
  readonly runningTab: BrowserTimings;
  /** The shared fake, from a tab that sends its requests to the one that runs it. */
  readonly otherTab: BrowserTimings;
  /**
   * One message there and back with a request's worth of data (1 KiB): between two tabs over a
   * BroadcastChannel (how a tab reaches the one running the fake), and to a SharedWorker over its
   * port (the design not taken), µs.
   */
  readonly messageRoundTripUs: { readonly broadcastChannel: number; readonly sharedWorker: number };
  readonly requests: number;
  readonly rounds: number;
  readonly chromium: string;
}

/** Times `count` round trips of a 1 KiB message: to another tab's echo, and to a SharedWorker's. */
async function timeMessages(from: Page, echo: Page, count: number) {
  await echo.evaluate(() => {
    const channel = new BroadcastChannel('bench-echo');
    channel.onmessage = (event) => channel.postMessage(event.data);
  });
  return from.evaluate(async (count) => {
    const payload = { id: 'tab:1', body: new Uint8Array(1024) };
    const roundTrips = async (
      send: (data: unknown) => void,
      onReply: (resolve: () => void) => void,
    ) => {
      const started = performance.now();
      for (let i = 0; i < count; i++) {
        await new Promise<void>((resolve) => {
          onReply(resolve);
          send(payload);
        });
      }
      return ((performance.now() - started) * 1000) / count;
    };
    const channel = new BroadcastChannel('bench-echo');
    const broadcastChannel = await roundTrips(
      (data) => channel.postMessage(data),
      (resolve) => {
        channel.onmessage = () => resolve();
      },
    );
    channel.close();
    const source =
      'onconnect = (e) => { const p = e.ports[0]; p.onmessage = (m) => p.postMessage(m.data); };';
    const worker = new SharedWorker(
      URL.createObjectURL(new Blob([source], { type: 'text/javascript' })),
    );
    const sharedWorker = await roundTrips(
      (data) => worker.port.postMessage(data),
      (resolve) => {
        worker.port.onmessage = () => resolve();
      },
    );
    worker.port.close();
    return { broadcastChannel, sharedWorker };
  }, count);
}

/** Times `count` lists then `count` creates with `fetch` in the page, after a reset. */
function timeInPage(page: Page, count: number, key: string): Promise<BrowserTimings> {
  return page.evaluate(
    async ({ count, key }) => {
      const fake = window.fake;
      if (fake === undefined) throw new Error('bench: the demo page has no window.fake');
      // A fresh store and a frozen clock: no window rolls over and the store stays small.
      await fake.control.reset();
      await fake.control.freezeTime(true);
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      const base = 'http://127.0.0.1:4010/v1';
      const time = async (send: () => Promise<Response>, status: number) => {
        const started = performance.now();
        for (let i = 0; i < count; i++) {
          const response = await send();
          await response.arrayBuffer();
          if (response.status !== status) throw new Error(`bench: answered ${response.status}`);
        }
        return ((performance.now() - started) * 1000) / count;
      };
      const listUs = await time(() => fetch(`${base}/pets?limit=20`, { headers }), 200);
      const body = JSON.stringify({ name: 'Bench', categoryId: 1, status: 'sold' });
      const createUs = await time(
        () => fetch(`${base}/pets`, { method: 'POST', headers, body }),
        201,
      );
      return { listUs, createUs };
    },
    { count, key },
  );
}

async function openDemo(page: Page, url: string): Promise<Page> {
  await page.goto(url);
  await demoReady(page);
  return page;
}

/** Runs the browser section. */
export async function measureBrowser(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<BrowserResult> {
  const found = findChromium();
  if ('problem' in found) throw new BenchError(`browser: ${found.problem}`);
  log(found.note);
  const site = await serveStatic(demoFiles(await bundleDemo()));
  const browser = await chromium.launch({ executablePath: found.path, args: chromiumArgs() });
  try {
    const context = await browser.newContext();
    const own = await openDemo(await context.newPage(), `${site.origin}/?quiet&shared=false`);
    const running = await openDemo(await context.newPage(), `${site.origin}/?quiet`);
    const other = await openDemo(await context.newPage(), `${site.origin}/?quiet`);
    const runs = await running.evaluate(() => window.fake?.status().runsHere);
    if (runs !== true) throw new BenchError('browser: the first shared tab does not run the fake');
    const count = options.quick ? 100 : 300;
    const ways = { ownFake: own, runningTab: running, otherTab: other } as const;
    const samples = new Map<keyof typeof ways, BrowserTimings[]>();
    await timeInPage(running, 20, benchKey); // warm-up, unmeasured
    for (let round = 0; round < options.rounds; round++) {
      for (const [way, page] of Object.entries(ways) as [keyof typeof ways, Page][]) {
        const timings = await timeInPage(page, count, benchKey);
        samples.set(way, [...(samples.get(way) ?? []), timings]);
        log(
          `browser round ${round + 1}: ${way} list ${(timings.listUs / 1000).toFixed(2)} ms, create ${(timings.createUs / 1000).toFixed(2)} ms`,
        );
      }
    }
    const medianOf = (way: keyof typeof ways): BrowserTimings => {
      const all = samples.get(way) ?? [];
      return {
        listUs: median(all.map((timing) => timing.listUs)),
        createUs: median(all.map((timing) => timing.createUs)),
      };
    };
    const messageRoundTripUs = await timeMessages(running, other, count * 3);
    log(
      `browser: a 1 KiB message there and back: ${messageRoundTripUs.broadcastChannel.toFixed(0)} µs between tabs (BroadcastChannel), ${messageRoundTripUs.sharedWorker.toFixed(0)} µs to a SharedWorker`,
    );
    return {
      ownFake: medianOf('ownFake'),
      messageRoundTripUs,
      runningTab: medianOf('runningTab'),
      otherTab: medianOf('otherTab'),
      requests: count,
      rounds: options.rounds,
      chromium: found.note,
    };
  } finally {
    await browser.close();
    await site.close();
  }
}
