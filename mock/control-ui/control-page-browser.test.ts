/**
 * The live QA page in headless Chromium, as a QA engineer uses it: it shows each key's plan,
 * minute and day usage with the time to reset, bans, chaos, the last requests and the client
 * verdicts; it updates by itself; its buttons advance the clock and reset; and it obeys the
 * control surface's access rules (token, Host, no framing by other sites).
 * Chromium: see `test/support/headless-chromium.ts` (the system's, or the one from npm).
 * `UPDATE_SCREENSHOT=1` rewrites docs/qa-page.png (shown in the README); otherwise the
 * screenshot goes to a temporary directory.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../../test/support/fake-process.ts';
import { chromiumArgs, chromiumPath } from '../../test/support/headless-chromium.ts';
import { createFake, type FakeWithCore } from '../core/fake.ts';
import { type HttpDoor, listenHttp } from '../doors/http/http-server.ts';

const token = 'qa-page-test-token-0123456789';
const screenshotPath =
  process.env.UPDATE_SCREENSHOT === '1'
    ? new URL('../../docs/qa-page.png', import.meta.url).pathname
    : join(tmpdir(), `petstore-qa-page-${process.pid}.png`);

let fake: FakeWithCore;
let door: HttpDoor;
let base: string;
let port: number;
let framer: Server;
let app: Server;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  fake = await createFake({
    origin: base,
    stagingOrigin: false,
    controlAccess: { token },
    chaos: {
      seed: 2026,
      rules: [{ operationId: 'getPet', errors: { '503': 0.3, '500': 0.2 }, retryAfterSeconds: 2 }],
    },
  });
  door = await listenHttp(fake.behaviour, { port, origin: base });
  // Another site that frames the page, as a clickjacking attempt would.
  framer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><iframe id="f" src="${base}/__control/"></iframe>`);
  });
  framer.listen(0, '127.0.0.2');
  await once(framer, 'listening');
  // A browser app on a local dev server, which CORS lets call the fake.
  app = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><script>
      window.load = () => fetch('${base}/v1/pets?limit=1', {
        headers: { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'browser-app' },
      }).then((r) => r.status, (e) => String(e));
    </script>`);
  });
  app.listen(0, '127.0.0.1');
  await once(app, 'listening');
  profile = mkdtempSync(join(tmpdir(), 'petstore-qa-page-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath('QA page test'),
    viewport: { width: 1280, height: 900 },
    args: chromiumArgs(['--host-resolver-rules=MAP rebind.test 127.0.0.1']),
  });
});

afterAll(async () => {
  await context?.close();
  await door?.close();
  framer?.close();
  app?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  if (process.env.UPDATE_SCREENSHOT !== '1') rmSync(screenshotPath, { force: true });
});

/** One request to /v1 from a client with an id, as an app would send it. */
async function call(path: string, clientId: string, key = 'free-demo-key'): Promise<number> {
  const res = await fetch(`${base}/v1${path}`, {
    headers: { Authorization: `Bearer ${key}`, 'X-Client-Id': clientId },
  });
  await res.body?.cancel();
  return res.status;
}

/** The text of an element; of a table row, its cells joined by tabs. */
async function text(page: Page, selector: string): Promise<string> {
  const cells = await page.locator(`${selector} td`).allTextContents();
  return cells.length > 0 ? cells.join('\t') : ((await page.locator(selector).textContent()) ?? '');
}

test('the page shows plans, usage and resets, bans, chaos, last requests and verdicts; it updates live; its buttons advance the clock and reset', async () => {
  fake.control.freezeTime(true);
  fake.control.setTime(Date.UTC(2026, 5, 1, 12, 0, 30));
  fake.control.updateKey('demo-free', { limits: { perMinute: 3, perDay: 1000 } });
  // A polite app on the Pro key meets chaos on getPet and waits as told; a naive one on the
  // Free key hammers through its 429s into a ban.
  for (let id = 1; id <= 6; id++) {
    let status = await call(`/pets/${id}`, 'checkout-web', 'pro-demo-key');
    for (let wait = 2; status >= 500; wait *= 2) {
      fake.control.advanceTime(wait);
      status = await call(`/pets/${id}`, 'checkout-web', 'pro-demo-key');
    }
  }
  // A form that sends its create again after each 503: up to two duplicate pets.
  fake.control.force('createPet', 503, 2, null);
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${base}/v1/pets`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer business-demo-key',
        'X-Client-Id': 'resending-form',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    await res.body?.cancel();
    fake.control.advanceTime(1);
  }
  for (let i = 0; i < 9; i++) await call('/pets?limit=1', 'legacy-cron');
  // An app that gives up after one 503: nothing shows it honoured Retry-After.
  fake.control.force('listPets', 503, 1, 1);
  await call('/pets?limit=1', 'gave-up-app', 'business-demo-key');

  const page = await context.newPage();
  await page.goto(`${base}/__control/#token=${token}`);
  await page.locator('#clients tbody tr').first().waitFor();
  // The token left the address bar (it stays in this tab's sessionStorage only).
  expect(page.url()).toBe(`${base}/__control/`);

  expect(await text(page, '#clock')).toContain('(frozen)');
  const free = await text(page, '#keys tr:has-text("demo-free")');
  expect(free).toContain('free (own limits)');
  const toMinute = Math.ceil((60_000 - (fake.control.now() % 60_000)) / 1000);
  expect(free).toContain(`3 / 3, resets in ${toMinute} s`);
  expect(free).toMatch(/3 \/ 1000, resets in 12\.0 h/);
  expect(free).toContain('banned 5 min more');
  expect(await text(page, '#chaos')).toContain('"seed": 2026');
  const legacy = await text(page, '#clients tr:has-text("legacy-cron")');
  expect(legacy).toContain('fail');
  expect(legacy).toContain('earned 1 temporary ban(s)');
  const checkout = await text(page, '#clients tr:has-text("checkout-web")');
  expect(checkout.split('\t').slice(0, 3)).toEqual(['demo-pro', 'checkout-web', 'pass']);
  // Each wait as judged: the first told wait was 2 s on the frozen clock.
  expect(checkout).toContain('waits 2 s');
  // Inconclusive is its own verdict, with why; and the page says which clock judged.
  const gaveUp = await text(page, '#clients tr:has-text("gave-up-app")');
  expect(gaveUp.split('\t').slice(0, 3)).toEqual(['demo-business', 'gave-up-app', 'inconclusive']);
  expect(gaveUp).toContain('never sent a request after a Retry-After');
  // A resent create is its own observation, with how many duplicates it could have made.
  const form = await text(page, '#clients tr:has-text("resending-form")');
  expect(form.split('\t').slice(0, 3)).toEqual(['demo-business', 'resending-form', 'fail']);
  expect(form).toContain('2 possible duplicate(s)');
  expect(form).toContain('resent POST /v1/pets 2 time(s) (2 after a 503)');
  expect(form).toMatch(/\d+ connection\(s\)/);
  expect(await text(page, '#judged-on')).toContain('Fake clock frozen');
  const latest = await text(page, '#recent tbody tr:first-child');
  expect(latest).toContain('(real ');
  // Each request says the connection it came on (the HTTP door names each socket).
  expect(latest).toMatch(/\thttp-\d+\t/);
  expect(await text(page, '#recent tbody tr:nth-child(2)')).toContain('temporarily_banned');
  // Interface coverage: the ban was met, a refused create never was.
  const coverage = await text(page, '#coverage');
  expect(coverage).toMatch(/^\d+ of 22 items exercised by \d+ requests; never: /);
  expect(coverage).toContain('createPet 400');
  expect(coverage.slice(coverage.indexOf('never:'))).not.toContain('limits.ban');
  await page.screenshot({ path: screenshotPath, fullPage: true });
  expect(readFileSync(screenshotPath).subarray(1, 4).toString()).toBe('PNG');

  // Live: a new client shows up without reloading.
  await call('/pets?limit=2', 'new-mobile-app', 'business-demo-key');
  await page.locator('#clients tr:has-text("new-mobile-app")').waitFor({ timeout: 5000 });
  // And a stub, with the rules it breaks.
  fake.control.force({
    operationId: 'getPet',
    keyId: 'demo-pro',
    answer: { status: 200, removeHeaders: ['X-RateLimit-Limit'] },
  });
  await page
    .locator(
      '#chaos:has-text("Stubs: stub-1 getPet 200: a 200 without X-RateLimit-Limit breaks Limits")',
    )
    .waitFor({ timeout: 5000 });

  // The recipe's buttons: advance 300 s lifts the ban, Reset forgets everything.
  const before = fake.control.now();
  await page.click('#advance-300');
  await expect.poll(() => fake.control.now() - before).toBe(300_000);
  await expect.poll(() => text(page, '#keys tr:has-text("demo-free")')).toMatch(/\tno$/);
  await page.click('#reset');
  await page.locator('#clients.empty').waitFor({ timeout: 5000 });
  expect(fake.control.clients().clients).toEqual([]);
  expect(fake.control.keys().find((k) => k.id === 'demo-free')?.overridden).toBe(false);
  await page.close();
});

test('the page obeys the control surface: no token, no data; another Host, no page; another site cannot frame it', async () => {
  const page = await context.newPage();
  // A fresh tab has no token: the page loads (it holds no data) and asks for one.
  await page.goto(`${base}/__control/`);
  await page.locator('#status.error').waitFor();
  expect(await text(page, '#status')).toContain('control_forbidden');
  expect(await page.locator('#token-form').isVisible()).toBe(true);
  expect(await page.locator('#keys').textContent()).toBe('...');
  await page.fill('#token', token);
  await page.click('#token-form button');
  await page.locator('#keys tbody tr').first().waitFor();

  const rebound = await page.goto(`http://rebind.test:${port}/__control/`);
  expect(rebound?.status()).toBe(403);
  expect(await rebound?.json()).toMatchObject({ code: 'host_not_allowed', status: 403 });

  const framerPort = (framer.address() as AddressInfo).port;
  const answers: number[] = [];
  page.on('response', (res) => {
    if (res.url() === `${base}/__control/`) answers.push(res.status());
  });
  await page.goto(`http://127.0.0.2:${framerPort}/`);
  // A frame load from another site is a cross-site request: refused before the page is served.
  await expect.poll(() => answers).toEqual([403]);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  // The browser refused to render it: the frame holds no page of the fake.
  expect(await frame?.locator('#keys').count()).toBe(0);
  await page.close();

  // And were it served, the page forbids framing in both headers browsers know.
  const res = await fetch(`${base}/__control/`);
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
});

test('with the control surface disabled, the page is refused too', async () => {
  const locked = await createFake({ controlAccess: 'disabled' });
  const answer = await locked.fetch('http://127.0.0.1:4010/__control/');
  expect(answer.status).toBe(403);
  expect(await answer.json()).toMatchObject({ code: 'control_forbidden' });
});

test('a browser app on a local dev server can name itself with X-Client-Id (CORS allows the header)', async () => {
  await fake.control.reset();
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${(app.address() as AddressInfo).port}/`);
  expect(await page.evaluate(() => (window as unknown as { load(): unknown }).load())).toBe(200);
  await page.close();
  expect(fake.control.clients().clients.map((c) => c.clientId)).toEqual(['browser-app']);
});

test('the request journal is a table that filters as QA types, says a bad filter, and clears', async () => {
  await fake.control.reset();
  fake.control.clearChaos();
  await call('/pets?limit=2', 'journal-app');
  await call('/pets/999999', 'journal-app');
  await call('/pets', 'other-app', 'pro-demo-key');
  const page = await context.newPage();
  await page.goto(`${base}/__control/#token=${token}`);
  await page.locator('#journal tbody tr').first().waitFor();
  // Newest first: the Pro key's list, the 404, the first list.
  expect(await text(page, '#journal tbody tr:nth-child(1)')).toMatch(
    /^#3\t[\d:.]+\tdemo-pro\tother-app\tGET \/v1\/pets\t200\t\t\t299\t\t[\d.]+ ms$/,
  );
  expect(await text(page, '#journal tbody tr:nth-child(2)')).toMatch(
    /^#2\t[\d:.]+\tdemo-free\tjournal-app\tGET \/v1\/pets\/999999\t404\tnot_found\t/,
  );
  expect(await text(page, '#journal-total')).toBe('3 request(s) match');
  // Typing a filter narrows the table at once.
  // Each row's request: a count alone could be the previous filter's table still on screen.
  const requests = async () =>
    (await page.locator('#journal tbody tr').allInnerTexts()).map(
      (row) => /GET \S+/.exec(row)?.[0],
    );
  await page.fill('#journal-filter input[name=status]', '4xx');
  await expect.poll(requests).toEqual(['GET /v1/pets/999999']);
  await page.fill('#journal-filter input[name=status]', '');
  await page.selectOption('#journal-filter select[name=operationId]', 'listPets');
  await page.fill('#journal-filter input[name=clientId]', 'journal-app');
  await expect.poll(requests).toEqual(['GET /v1/pets?limit=2']);
  // A bad filter gets the control surface's 400 message beside the form, naming valid values.
  await page.fill('#journal-filter input[name=status]', '6xx');
  await expect
    .poll(() => text(page, '#journal-total'))
    .toContain('status must be a status from 100 to 599 or a class 1xx to 5xx');
  expect(await page.locator('#journal-total.error').count()).toBe(1);
  await page.fill('#journal-filter input[name=status]', '');
  await page.click('#clear-journal');
  await page.locator('#journal.empty').waitFor({ timeout: 5000 });
  expect(fake.control.requests().total).toBe(0);
  await page.close();
});
