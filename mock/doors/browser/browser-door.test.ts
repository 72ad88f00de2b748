import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  bundleDemo,
  type DemoBundle,
  demoFiles,
  demoReady,
} from '../../../scripts/build-browser.ts';
import { chromiumArgs, chromiumPath } from '../../../test/support/headless-chromium.ts';
import { resetWithPinnedClock } from '../../../test/support/pinned-page-fake.ts';
import { type StaticServer, serveStatic } from '../../../test/support/static-server.ts';

const api = 'http://127.0.0.1:4010/v1';
const auth = { Authorization: 'Bearer free-demo-key' };

/** What the page's script sees of a response. */
interface Exchange {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

let bundle: DemoBundle;
let site: StaticServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
/** Every response to an API call the page saw, and whether a service worker produced it. */
const apiResponses: { url: string; fromServiceWorker: boolean }[] = [];
/** API requests the service worker sent on to the network (a passthrough): must stay empty. */
const workerNetworkRequests: string[] = [];

beforeAll(async () => {
  bundle = await bundleDemo();
  site = await serveStatic(demoFiles(bundle));
  browser = await chromium.launch({
    executablePath: chromiumPath('browser-door test'),
    args: chromiumArgs(),
  });
  context = await browser.newContext();
  context.on('request', (request) => {
    if (request.serviceWorker() !== null && request.url().startsWith(api))
      workerNetworkRequests.push(request.url());
  });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('response', (response) => {
    if (response.url().startsWith(api))
      apiResponses.push({ url: response.url(), fromServiceWorker: response.fromServiceWorker() });
  });
  await page.goto(`${site.origin}/`);
  await demoReady(page);
  // From here on the browser has no network: only the worker can answer.
  await context.setOffline(true);
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

beforeEach(() => resetWithPinnedClock(page));

/** Calls the API with `fetch` inside the page and returns what the page's script can read. */
function call(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return page.evaluate(
    async ({ url, init }): Promise<Exchange> => {
      const response = await fetch(url, init);
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.json(),
      };
    },
    { url: `${api}${path}`, init },
  );
}

it('bundles the browser door without any node:* module or server code', () => {
  expect(bundle.inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
  expect(
    bundle.inputs.filter(
      (input) => input.includes('mock/doors/http/') || input.includes('mock/doors/cli/'),
    ),
  ).toEqual([]);
  expect(bundle.inputs).toContain('mock/doors/browser/browser.ts');
});

it('lists pets with X-RateLimit-* headers the page can read', async () => {
  const { status, headers, body } = await call('/pets', { headers: auth });
  expect(status).toBe(200);
  expect(Array.isArray(body) && body.length > 0 && body.length <= 20).toBe(true);
  expect(headers['x-ratelimit-limit']).toBe('60');
  expect(headers['x-ratelimit-remaining']).toBe('59');
  expect(Number(headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
});

it('counts the call in the in-page fake, which only the worker reaches', async () => {
  await call('/pets', { headers: auth });
  const usage = await page.evaluate(
    async () => (await window.fake?.control.keys())?.find((key) => key.id === 'demo-free')?.usage,
  );
  expect(usage).toMatchObject({ minute: 1, day: 1 });
});

it('creates a pet (201) and gets it back by id (200)', async () => {
  const created = await call('/pets', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Offline Rex', categoryId: 3, status: 'pending' }),
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ name: 'Offline Rex', categoryId: 3, status: 'pending' });
  const id = (created.body as { id: number }).id;
  const fetched = await call(`/pets/${id}`, { headers: auth });
  expect(fetched.status).toBe(200);
  expect(fetched.body).toEqual(created.body);
});

it('lists a created pet first in the next GET /pets and GET /pets?limit=5 (newest first, docs/fake.md)', async () => {
  // The interface leaves the order to the fake; the fake lists newest first so an app sees its
  // own pet on its next list, whatever the seed.
  const created = await call('/pets', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Listed Luna', categoryId: 2 }),
  });
  expect(created.status).toBe(201);
  for (const path of ['/pets', '/pets?limit=5']) {
    const listed = await call(path, { headers: auth });
    expect(listed.status).toBe(200);
    expect((listed.body as unknown[])[0]).toEqual(created.body);
  }
});

it('answers 401 with an Error body when no key is sent', async () => {
  const { status, headers, body } = await call('/pets');
  expect(status).toBe(401);
  expect(headers['content-type']).toMatch(/^application\/json/);
  expect(body).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
});

it("answers 429 with Retry-After once the key's per-minute limit is used up", async () => {
  await page.evaluate(() =>
    window.fake?.control.updateKey('demo-free', { limits: { perMinute: 2, perDay: 100 } }),
  );
  expect((await call('/pets', { headers: auth })).status).toBe(200);
  expect((await call('/pets', { headers: auth })).status).toBe(200);
  const limited = await call('/pets', { headers: auth });
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({ code: 'rate_limited', message: expect.any(String), status: 429 });
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  expect(limited.headers['x-ratelimit-remaining']).toBe('0');
});

it("lifts a ban as docs/app.md says from the console: keys() shows it, advanceTime(300) moves the fake's clock past it", async () => {
  // docs/app.md, "A day of reloads without a ban"; the ban's length is the fake's 300 s
  // (docs/fake.md, --ban-seconds), counted on the fake's clock (pinned by beforeEach).
  await page.evaluate(() =>
    window.fake?.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } }),
  );
  const codes: string[] = [];
  for (let sent = 0; sent < 8; sent += 1) {
    const { status, body } = await call('/pets', { headers: auth });
    codes.push(status === 200 ? 'ok' : (body as { code: string }).code);
  }
  expect(codes.at(-1)).toBe('temporarily_banned');
  const banned = await page.evaluate(
    async () =>
      (await window.fake?.control.keys())?.find((key) => key.id === 'demo-free')?.bannedUntil,
  );
  expect(typeof banned).toBe('string');
  await page.evaluate(() => window.fake?.control.advanceTime(300));
  expect((await call('/pets', { headers: auth })).status).toBe(200);
  const after = await page.evaluate(
    async () =>
      (await window.fake?.control.keys())?.find((key) => key.id === 'demo-free')?.bannedUntil,
  );
  expect(after).toBeNull();
});

it('answers a 429 forced through the in-page control surface, then recovers', async () => {
  await page.evaluate(() => window.fake?.control.force('listPets', 429, 1));
  expect((await call('/pets', { headers: auth })).status).toBe(429);
  expect((await call('/pets', { headers: auth })).status).toBe(200);
});

it('at the protocol edge: 414 for a path over 8,192 characters, HEAD without a body, OPTIONS with X-RateLimit-*', async () => {
  const answers = await page.evaluate(
    async ({ api, auth }) => {
      const read = async (path: string, method: string) => {
        const response = await fetch(`${api}${path}`, { method, headers: auth });
        return {
          status: response.status,
          limit: response.headers.get('X-RateLimit-Limit'),
          text: await response.text(),
        };
      };
      return {
        long: await read(`/pets/${'9'.repeat(9000)}`, 'GET'),
        head: await read('/pets?limit=2', 'HEAD'),
        options: await read('/pets', 'OPTIONS'),
      };
    },
    { api, auth },
  );
  expect(answers.long.status).toBe(414);
  expect(JSON.parse(answers.long.text)).toMatchObject({ code: 'uri_too_long', status: 414 });
  expect(answers.long.limit).toBe('60');
  expect(answers.head).toEqual({ status: 200, limit: '60', text: '' });
  expect(answers.options.status).toBe(204);
  expect(answers.options.limit).toBe('60');
});

it("shows the worker's answers on the demo page", async () => {
  await page.click('button[data-action="list"]');
  await page.waitForSelector('#log section[data-status="200"]');
  await page.click('button[data-action="no-key"]');
  await page.waitForSelector('#log section[data-status="401"]');
  expect(await page.textContent('#log')).toContain('X-RateLimit-Remaining: 59');
});

it('served every API call from the service worker, never from a network server', () => {
  expect(apiResponses.length).toBeGreaterThanOrEqual(10);
  expect(apiResponses.filter((response) => !response.fromServiceWorker)).toEqual([]);
  expect(workerNetworkRequests).toEqual([]);
  // The static server only ever served the page's files.
  const files = ['GET /', 'GET /demo.js', 'GET /fake-worker.js', 'GET /mockServiceWorker.js'];
  expect(site.requests.filter((request) => !files.includes(request))).toEqual([]);
  expect(pageErrors).toEqual([]);
});
