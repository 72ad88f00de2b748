/**
 * The request journal in the browser door, as a frontend developer meets it: the demo page in
 * two tabs of one Chromium profile share one fake, so both tabs' requests are in one journal,
 * each under its tab's connection; it is read through `fake.control` (promises there) and counted
 * by `expectRequests`; and it is kept with the session across a reload and when the tab running
 * the fake closes and the other takes over (shared-fake.ts), as coverage and the Pact are.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bundleDemo, demoFiles, demoReady } from '../../../scripts/build-browser.ts';
import { chromiumArgs, chromiumPath } from '../../../test/support/headless-chromium.ts';
import { resetWithPinnedClock } from '../../../test/support/pinned-page-fake.ts';
import { type StaticServer, serveStatic } from '../../../test/support/static-server.ts';
import { expectRequests, RequestCountError } from './expect-requests.ts';
import type { JournalAnswer } from './journal-entry.ts';
import type { JournalFilter } from './journal-filter.ts';

const api = 'http://127.0.0.1:4010/v1';

let site: StaticServer;
let profile: string;
let context: BrowserContext;

beforeAll(async () => {
  site = await serveStatic(demoFiles(await bundleDemo()));
  profile = mkdtempSync(join(tmpdir(), 'petstore-journal-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath('journal browser test'),
    args: chromiumArgs(),
  });
});

afterAll(async () => {
  await context?.close();
  await site?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

async function openTab(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${site.origin}/`);
  await demoReady(page);
  return page;
}

/** Calls the API with `fetch` in the page, as the app would; answers the status. */
function call(page: Page, path: string, clientId: string, body?: object): Promise<number> {
  return page.evaluate(
    async ({ url, clientId, body }) => {
      const headers: Record<string, string> = {
        Authorization: 'Bearer free-demo-key',
        'X-Client-Id': clientId,
      };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      await res.text();
      return res.status;
    },
    { url: `${api}${path}`, clientId, body },
  );
}

/** `fake.control.requests(filter)` in a tab: wherever the shared fake runs, it answers. */
function journalIn(page: Page, filter: JournalFilter = {}): Promise<JournalAnswer> {
  return page.evaluate(
    (given) => window.fake?.control.requests(given) as Promise<JournalAnswer>,
    filter,
  );
}

function runsHere(page: Page): Promise<boolean> {
  return page.evaluate(() => window.fake?.status().runsHere === true);
}

test('two tabs share one journal, each request under its tab; it survives a reload and a takeover', async () => {
  const first = await openTab();
  await resetWithPinnedClock(first);
  const second = await openTab();
  expect(await call(first, '/pets?limit=1', 'tab-one')).toBe(200);
  expect(await call(second, '/pets', 'tab-two', { name: 'Rex', categoryId: 1 })).toBe(201);
  expect(await call(second, '/pets/999999', 'tab-two')).toBe(404);

  // Either tab reads the one journal: newest first, every tab's requests.
  for (const page of [first, second]) {
    const { total, requests } = await journalIn(page);
    expect(total).toBe(3);
    expect(
      requests.map((e) => `${e.method} ${e.path}${e.query} ${e.status} ${e.clientId}`),
    ).toEqual([
      'GET /v1/pets/999999 404 tab-two',
      'POST /v1/pets 201 tab-two',
      'GET /v1/pets?limit=1 200 tab-one',
    ]);
  }
  const { requests } = await journalIn(second);
  // Each tab is its own connection (`tab:<id>`), as the client report tells copies apart.
  const [, create, list] = requests;
  expect(create?.connection).toMatch(/^tab:/);
  expect(list?.connection).toMatch(/^tab:/);
  expect(create?.connection).not.toBe(list?.connection);
  expect(create?.body).toBe('{"name":"Rex","categoryId":1}');
  expect(JSON.stringify(requests)).not.toContain('free-demo-key');

  // expectRequests over the browser's fake.control, whose answers are promises.
  const browserFake = {
    control: { requests: (filter?: JournalFilter) => journalIn(first, filter) },
  };
  expect(await expectRequests(browserFake, { clientId: 'tab-two' }, 2)).toHaveLength(2);
  const failure = await expectRequests(browserFake, { clientId: 'tab-two', status: 200 }, 1).catch(
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(RequestCountError);
  // Every entry that matches all but one field: tab-two's other answers, and tab-one's 200.
  expect((failure as RequestCountError).nearMisses.map((miss) => miss.differs).sort()).toEqual([
    'clientId is tab-one, not tab-two',
    'status is 201, not 200',
    'status is 404, not 200',
  ]);

  // The journal is part of the session: a reload of the tab that runs the fake keeps it ...
  const [leader, follower] = (await runsHere(first)) ? [first, second] : [second, first];
  await leader.reload();
  await demoReady(leader);
  expect((await journalIn(leader)).total).toBe(3);
  expect(await call(leader, '/pets?limit=2', 'after-reload')).toBe(200);
  // ... and so does the tab that takes over when the one running the fake closes.
  const nowLeading = (await runsHere(leader)) ? leader : follower;
  const other = nowLeading === leader ? follower : leader;
  await nowLeading.close();
  await expect.poll(() => runsHere(other)).toBe(true);
  const kept = await journalIn(other);
  expect(kept.total).toBe(4);
  expect(kept.requests[0]).toMatchObject({ query: '?limit=2', clientId: 'after-reload', seq: 4 });
  // The next request is numbered after every kept one.
  expect(await call(other, '/pets', 'after-takeover')).toBe(200);
  expect((await journalIn(other, { limit: 1 })).requests[0]).toMatchObject({
    seq: 5,
    clientId: 'after-takeover',
  });
  // And a bad filter is refused in the browser as over HTTP: a ControlInputError with its code.
  const refused = await other.evaluate(() =>
    window.fake?.control.requests({ status: 'lots' }).then(
      () => 'accepted',
      (error: { name: string; code: string; message: string }) =>
        `${error.name} ${error.code} ${error.message}`,
    ),
  );
  expect(refused).toMatch(
    /^ControlInputError invalid_control_request requests filter: status must be a status from 100 to 599/,
  );
});
