/**
 * The browser door as a target: the demo page open in several tabs of one headless Chromium, each
 * request of the suite sent with `fetch` from the next tab in turn, so the tabs interleave on the
 * one fake they share (mock/doors/browser/shared-fake.ts): the tab that runs it, and tabs that
 * send their requests to it. Waits move the fake's frozen clock through its control surface.
 */
import { type Browser, chromium, type Page } from 'playwright-core';
import type { HarnessClock } from '../../contract-tests/http/clock.ts';
import { directRoute, fullCapabilities, type Target } from '../../contract-tests/http/target.ts';
import { bundleDemo, demoFiles, demoReady } from '../../scripts/build-browser.ts';
import { chromiumArgs, chromiumPath } from './headless-chromium.ts';
import { type StaticServer, serveStatic } from './static-server.ts';

/** What a page's `fetch` gave back, as structured-clone data. */
interface PageResponse {
  readonly status: number;
  readonly headers: [string, string][];
  readonly body: number[];
}

/** Options of the browser tabs target. */
export interface BrowserTabsTargetOptions {
  /** How many tabs share the fake. Default 2. */
  readonly tabs?: number;
  readonly apiKey: string;
  readonly secondApiKey?: string;
}

/** Sends one request from a page with its own `fetch`, through the service worker. */
function fetchIn(page: Page): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const bodyless = request.method === 'GET' || request.method === 'HEAD';
    const body = bodyless ? null : [...new Uint8Array(await request.arrayBuffer())];
    const answer = await page.evaluate(
      async ({ url, method, headers, body }): Promise<PageResponse> => {
        const response = await fetch(url, {
          method,
          headers,
          ...(body === null ? {} : { body: new Uint8Array(body) }),
        });
        return {
          status: response.status,
          headers: [...response.headers],
          body: [...new Uint8Array(await response.arrayBuffer())],
        };
      },
      { url: request.url, method: request.method, headers: [...request.headers], body },
    );
    const empty = request.method === 'HEAD' || answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : new Uint8Array(answer.body), {
      status: answer.status,
      headers: answer.headers,
    });
  };
}

/** The fake every tab shares, its clock frozen now; each request goes out from the next tab. */
export async function browserTabsTarget(options: BrowserTabsTargetOptions): Promise<Target> {
  let site: StaticServer | undefined;
  let browser: Browser | undefined;
  try {
    site = await serveStatic(demoFiles(await bundleDemo()));
    browser = await chromium.launch({
      executablePath: chromiumPath('browser tabs target'),
      args: chromiumArgs(),
    });
    const context = await browser.newContext();
    const pages: Page[] = [];
    for (let i = 0; i < (options.tabs ?? 2); i++) {
      const page = await context.newPage();
      await page.goto(`${site.origin}/?quiet`);
      await demoReady(page);
      pages.push(page);
    }
    const [first] = pages as [Page];
    let now = await first.evaluate(async () => {
      await window.fake?.control.freezeTime(true);
      return (await window.fake?.control.now()) ?? 0;
    });
    const clock: HarnessClock = {
      now: () => now,
      async sleep(ms) {
        const seconds = Math.max(0, ms) / 1000;
        now = await first.evaluate(async (by) => {
          await window.fake?.control.advanceTime(by);
          return (await window.fake?.control.now()) ?? 0;
        }, seconds);
      },
    };
    const fetches = pages.map(fetchIn);
    let next = 0;
    const baseUrl = 'http://127.0.0.1:4010/v1';
    const opened = { site, browser };
    return {
      name: `fake in ${pages.length} browser tabs (service worker)`,
      baseUrl,
      apiKey: options.apiKey,
      ...(options.secondApiKey === undefined ? {} : { secondApiKey: options.secondApiKey }),
      loopback: true,
      capabilities: fullCapabilities,
      viaPrism: false,
      route: directRoute(baseUrl),
      fetch: (input, init) => (fetches[next++ % fetches.length] as typeof fetch)(input, init),
      clock,
      async close() {
        await opened.browser.close();
        await opened.site.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await site?.close();
    throw error;
  }
}
