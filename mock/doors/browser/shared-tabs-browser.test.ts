/**
 * The browser door as a frontend developer meets it: the demo page in tabs of one persistent
 * Chromium profile (Playwright's launchPersistentContext), calling the Pet Store with plain
 * `fetch`. Every tab meets one fake, kept across reloads and browser restarts (shared-fake.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { bundleDemo, demoFiles, demoReady } from '../../../scripts/build-browser.ts';
import { chromiumArgs, chromiumPath } from '../../../test/support/headless-chromium.ts';
import { resetWithPinnedClock } from '../../../test/support/pinned-page-fake.ts';
import { type StaticServer, serveStatic } from '../../../test/support/static-server.ts';

const api = 'http://127.0.0.1:4010/v1';
const auth = { Authorization: 'Bearer free-demo-key' };

let site: StaticServer;
let profile: string;
let context: BrowserContext;
/** What every page printed on the console, and every error it threw. */
const consoleLines: string[] = [];

/** Opens (or reopens) the browser on the test's profile: the same user, the same storage. */
async function launch(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath('shared-tabs browser test'),
    args: chromiumArgs(),
  });
}

/** A new tab on the demo page, once its fake is ready. */
async function openTab(query = ''): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (line) => consoleLines.push(`${line.type()}: ${line.text()}`));
  page.on('pageerror', (error) => consoleLines.push(`pageerror: ${String(error)}`));
  await page.goto(`${site.origin}/${query}`);
  await demoReady(page);
  return page;
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await demoReady(page);
}

interface Exchange {
  readonly status: number;
  readonly remaining: string | null;
  readonly body: unknown;
}

/** Calls the API with `fetch` in the page, as the app would. */
function call(page: Page, path: string, init: { method?: string; body?: string } = {}) {
  return page.evaluate(
    async ({ url, init, auth }): Promise<Exchange> => {
      const headers = { ...auth, ...(init.body ? { 'Content-Type': 'application/json' } : {}) };
      const response = await fetch(url, { ...init, headers });
      return {
        status: response.status,
        remaining: response.headers.get('X-RateLimit-Remaining'),
        body: await response.json(),
      };
    },
    { url: `${api}${path}`, init, auth },
  );
}

/** Category of the pets the tests create, so they are told from the seed's. */
const testCategory = 777;

function create(page: Page, name: string) {
  return call(page, '/pets', {
    method: 'POST',
    body: JSON.stringify({ name, categoryId: testCategory, status: 'pending' }),
  });
}

/** The names of the pets the tests created, as a page lists them (all pending pets fit a page). */
async function names(page: Page): Promise<string[]> {
  const { body } = await call(page, '/pets?limit=100&status=pending');
  return (body as { name: string; categoryId: number }[])
    .filter((pet) => pet.categoryId === testCategory)
    .map((pet) => pet.name);
}

/** Whether this tab runs the shared fake now. */
function runsHere(page: Page): Promise<boolean> {
  return page.evaluate(() => window.fake?.status().runsHere === true);
}

beforeAll(async () => {
  site = await serveStatic(demoFiles(await bundleDemo()));
  profile = mkdtempSync(join(tmpdir(), 'petstore-profile-'));
  context = await launch();
});

afterAll(async () => {
  await context?.close();
  await site?.close();
});

beforeEach(async () => {
  for (const page of context.pages()) await page.close();
  // One tab resets the fake every tab shares, its clock pinned so no window rolls over mid-test.
  await resetWithPinnedClock(await openTab());
  consoleLines.length = 0;
});

it('a pet created in one tab is listed in the other, after a reload and after a browser restart', async () => {
  const [a] = context.pages() as [Page];
  const b = await openTab();
  expect((await create(a, 'Shared Rex')).status).toBe(201);
  expect(await names(b)).toEqual(['Shared Rex']);
  await reload(b);
  await reload(a);
  expect(await names(b)).toEqual(['Shared Rex']);
  await context.close();
  context = await launch();
  const afterRestart = await openTab();
  expect(await names(afterRestart)).toEqual(['Shared Rex']);
  expect(consoleLines.filter((line) => /^(warning|error|pageerror)/.test(line))).toEqual([]);
});

it('X-RateLimit-Remaining falls across both tabs as one window', async () => {
  const [a] = context.pages() as [Page];
  const b = await openTab();
  const remaining: (string | null)[] = [];
  for (const page of [a, b, a, b, b, a])
    remaining.push((await call(page, '/pets?limit=1')).remaining);
  expect(remaining).toEqual(['59', '58', '57', '56', '55', '54']);
});

it('a ban earned in one tab is answered in the other, and after a reload', async () => {
  const [a] = context.pages() as [Page];
  const b = await openTab();
  await a.evaluate(() =>
    window.fake?.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } }),
  );
  expect((await call(a, '/pets?limit=1')).status).toBe(200);
  // Six 429s in a row, none waiting its Retry-After: the fifth early one bans the key.
  const codes: unknown[] = [];
  for (let i = 0; i < 6; i++)
    codes.push(((await call(a, '/pets?limit=1')).body as { code: string }).code);
  expect(codes.at(-1)).toBe('temporarily_banned');
  const inB = await call(b, '/pets?limit=1');
  expect([inB.status, (inB.body as { code: string }).code]).toEqual([429, 'temporarily_banned']);
  await reload(b);
  expect(((await call(b, '/pets?limit=1')).body as { code: string }).code).toBe(
    'temporarily_banned',
  );
});

it('fake.control.reset() in any tab resets the fake of every tab; ?shared=false gives a page its own', async () => {
  const [a] = context.pages() as [Page];
  const b = await openTab();
  await create(a, 'Gone after the reset');
  // Reset from tab b, its clock pinned again (a reset returns it to real time).
  await resetWithPinnedClock(b);
  expect(await names(a)).toEqual([]);
  expect((await call(a, '/pets?limit=1')).remaining).toBe('58'); // the second call since the reset
  const own = await openTab('?shared=false');
  // Its own store and its own windows: its first call has the whole minute.
  expect((await create(own, 'Only mine')).remaining).toBe('59');
  expect(await names(own)).toEqual(['Only mine']);
  expect(await names(a)).toEqual([]);
  expect(await own.evaluate(() => window.fake?.status())).toEqual({
    shared: false,
    runsHere: true,
    storage: { kept: 'memory' },
  });
  expect(await own.textContent('#shared')).toContain('a fake of its own');
});

it('when the tab running the fake is closed mid-request, no acknowledged pet is lost and the request is answered by the tab that takes over', async () => {
  const [first] = context.pages() as [Page];
  const second = await openTab();
  const [leader, follower] = (await runsHere(first)) ? [first, second] : [second, first];
  // Answers to creates held back 1.5 s of real time, so one is still in the leader when it goes.
  await leader.evaluate(async () => {
    await window.fake?.control.realTime();
    await window.fake?.control.setChaos({
      seed: 1,
      rules: [
        {
          operationId: 'createPet',
          latency: { distribution: 'uniform', minMs: 1500, maxMs: 1500 },
        },
      ],
    });
  });
  expect((await create(follower, 'Acknowledged')).status).toBe(201);
  const inFlight = create(follower, 'In flight');
  await follower.waitForTimeout(400);
  await leader.close();
  const answered = await inFlight;
  expect(answered.status).toBe(201);
  expect(await runsHere(follower)).toBe(true);
  expect((await names(follower)).sort()).toEqual(['Acknowledged', 'In flight']);
});

it('storage that is full is told once on the console, and the fake goes on in memory', async () => {
  // Chromium enforces a quota set over CDP only in an incognito-like context, so this one is.
  const browser = await chromium.launch({
    executablePath: chromiumPath('shared-tabs browser test'),
    args: chromiumArgs(),
  });
  try {
    const incognito = await browser.newContext();
    const page = await incognito.newPage();
    const lines: string[] = [];
    page.on('console', (line) => lines.push(`${line.type()}: ${line.text()}`));
    const cdp = await incognito.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: site.origin, quotaSize: 1 });
    await page.goto(`${site.origin}/`);
    await demoReady(page);
    expect((await create(page, 'Unkept')).status).toBe(201);
    expect((await create(page, 'Unkept too')).status).toBe(201);
    expect(await names(page)).toEqual(['Unkept too', 'Unkept']); // newest first (docs/fake.md)
    const warnings = lines.filter((line) => line.startsWith('warning: petstore-fake:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^warning: petstore-fake: the browser's storage for this site is full \(QuotaExceededError: .*\): the fake goes on in memory .*fake\.control\.reset\(\) tries storage again\.$/,
    );
    expect(await page.evaluate(() => window.fake?.status().storage?.kept)).toBe('memory');
    await page.click('button[data-action="list"]');
    await page.waitForSelector('#log section[data-status="200"]');
    expect(await page.textContent('#shared')).toMatch(
      /kept in memory only \(the browser's storage for this site is full/,
    );
  } finally {
    await browser.close();
  }
});

it('storage that refuses to open (a newer version of the database took it) is told on the console, and the fake goes on in memory', async () => {
  const [page] = context.pages() as [Page];
  // What another page of the origin does when it upgrades the database: this tab's connection
  // is asked to close, and the fake goes on in memory.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open('petstore-fake', 2);
        request.onsuccess = () => {
          request.result.close();
          resolve();
        };
        request.onerror = () => reject(request.error);
      }),
  );
  expect((await create(page, 'In memory')).status).toBe(201);
  expect(await page.evaluate(() => window.fake?.status().storage?.kept)).toBe('memory');
  // After a reload the database is newer than this fake knows: it is not opened at all.
  await reload(page);
  expect(await names(page)).toEqual([]);
  expect((await create(page, 'Still working')).status).toBe(201);
  const warnings = consoleLines.filter((line) => line.startsWith('warning: petstore-fake:'));
  expect(warnings).toEqual([
    expect.stringMatching(
      /^warning: petstore-fake: the browser storage of the fake was deleted or changed by another page .*: the fake goes on in memory; reload to keep its state again\.$/,
    ),
    expect.stringMatching(
      /^warning: petstore-fake: opening IndexedDB failed \(VersionError: .*\): the shared fake keeps its state in memory only, so a reload of the last tab starts from the seed\./,
    ),
  ]);
  // Leave the profile's storage as the fake's own version for the tests after this one.
  await page.evaluate(() => indexedDB.deleteDatabase('petstore-fake'));
});

/** Calls the API with `fetch` in the page and reads the body as text; a failed fetch says why. */
function fetchText(page: Page, path: string, extra: Record<string, string> = {}) {
  return page.evaluate(
    async ({ url, headers }) => {
      try {
        const response = await fetch(url, { headers });
        return {
          status: response.status,
          remaining: response.headers.get('X-RateLimit-Remaining'),
          stubbedBy: response.headers.get('X-Stubbed-By'),
          text: await response.text(),
        };
      } catch (error) {
        return { failed: String(error) };
      }
    },
    { url: `${api}${path}`, headers: { ...auth, ...extra } },
  );
}

it('a stub set with fake.control.force in one tab answers the other tab, outlives a reload, drops a connection, and is cleared from either tab', async () => {
  const [a] = context.pages() as [Page];
  const b = await openTab();
  const set = await a.evaluate(() =>
    window.fake?.control.force({
      operationId: 'listPets',
      keyId: 'demo-free',
      answer: {
        status: 200,
        rawBody: '{"pets": [',
        headers: { 'X-Stubbed-By': 'qa' },
        removeHeaders: ['X-RateLimit-Remaining'],
      },
    }),
  );
  expect(set?.breaks).toContain(
    'a 200 without X-RateLimit-Remaining breaks Limits: rate limit headers present on every response',
  );
  const stubbed = { status: 200, remaining: null, stubbedBy: 'qa', text: '{"pets": [' };
  expect(await fetchText(b, '/pets?limit=1')).toEqual(stubbed);
  // Kept with the session, as forced rules are: a reload of both tabs keeps the stub.
  await reload(b);
  await reload(a);
  expect(await fetchText(a, '/pets?limit=1')).toEqual(stubbed);
  expect((await b.evaluate(() => window.fake?.control.stubs()))?.map((s) => s.id)).toEqual([
    set?.id,
  ]);
  // A dropped connection: the page's fetch fails as a network error.
  await b.evaluate(() =>
    window.fake?.control.force({ operationId: 'getPet', count: 1, answer: { drop: true } }),
  );
  expect(await fetchText(a, '/pets/1')).toEqual({ failed: expect.stringMatching(/TypeError/) });
  expect((await fetchText(a, '/pets/1')).status).toBe(200);
  // A request's own Prefer: code= comes before the stub, through the worker as over HTTP.
  expect(await fetchText(b, '/pets?limit=1', { Prefer: 'code=429' })).toMatchObject({
    status: 429,
    remaining: '0',
  });
  // Cleared from the other tab, for both.
  await b.evaluate(() => window.fake?.control.clearForced());
  const normal = await fetchText(a, '/pets?limit=1');
  expect(normal).toMatchObject({ status: 200, stubbedBy: null });
  expect(JSON.parse((normal as { text: string }).text)).toHaveLength(1);
  // The only lines are Chromium's own notes of the dropped connection and of the 429.
  expect(consoleLines.filter((line) => /^(error|pageerror)/.test(line))).toEqual([
    'error: Failed to load resource: net::ERR_FAILED',
    'error: Failed to load resource: the server responded with a status of 429 ()',
  ]);
});
