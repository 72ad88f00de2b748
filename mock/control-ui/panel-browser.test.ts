/**
 * The in-page panel (show-panel.ts) as a frontend developer meets it: the demo page with
 * `?panel` (`showPanel(fake)`) in two tabs of one persistent Chromium profile, sharing one fake.
 * Both tabs show it with live countdowns; a ban is lifted from it; reading the fake spends no
 * quota; the app's CSS and keyboard focus stay the app's; collapsing is remembered.
 * `UPDATE_SCREENSHOT=1` rewrites docs/app-panel.png and docs/app-panel-collapsed.png (shown in
 * docs/app.md); otherwise the screenshots go to a temporary directory.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { bundleDemo, demoFiles, demoReady } from '../../scripts/build-browser.ts';
import { chromiumArgs, chromiumPath } from '../../test/support/headless-chromium.ts';
import { type StaticServer, serveStatic } from '../../test/support/static-server.ts';

const api = 'http://127.0.0.1:4010/v1';
const update = process.env.UPDATE_SCREENSHOT === '1';
const shots = update
  ? new URL('../../docs/', import.meta.url).pathname
  : mkdtempSync(join(tmpdir(), 'petstore-panel-shots-'));

let site: StaticServer;
let profile: string;
let context: BrowserContext;
const pageErrors: string[] = [];

beforeAll(async () => {
  site = await serveStatic(demoFiles(await bundleDemo()));
  profile = mkdtempSync(join(tmpdir(), 'petstore-panel-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath('panel browser test'),
    args: chromiumArgs(),
    viewport: { width: 600, height: 620 },
  });
});

afterAll(async () => {
  await context?.close();
  await site?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  if (!update) rmSync(shots, { recursive: true, force: true });
});

/** A new tab on the demo page with the panel, once its fake is ready and the panel shows. */
async function openTab(): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  await page.goto(`${site.origin}/?panel&quiet`);
  await demoReady(page);
  await page
    .locator('petstore-fake-panel .clock-text')
    .filter({ hasText: 'UTC' })
    .waitFor({ state: 'attached' });
  return page;
}

/** Calls the API with `fetch` in the page, as the app would; its status, Remaining and code. */
function call(page: Page, path: string, key = 'free-demo-key') {
  return page.evaluate(
    async ({ url, key }) => {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
      const body = (await response.json()) as { code?: string };
      return {
        status: response.status,
        remaining: response.headers.get('X-RateLimit-Remaining'),
        code: body.code,
      };
    },
    { url: `${api}${path}`, key },
  );
}

/** `expect.poll` with time for the panel's next reading (it reads the fake once a second). */
function eventually<T>(read: () => Promise<T>) {
  return expect.poll(read, { timeout: 10_000, interval: 100 });
}

/** The text of one cell of a key's row in the page's panel. */
function cell(page: Page, key: string, name: 'plan' | 'remaining' | 'reset' | 'ban-text') {
  return page.locator(`petstore-fake-panel tr[data-key="${key}"] .${name}`).textContent();
}

/** Seconds in a countdown such as `4 min 59 s` or `42 s`. */
function seconds(text: string | null): number {
  const match = /^(?:(\d+) min )?(\d+) s$/.exec(text ?? '');
  if (match === null) throw new Error(`not a countdown: ${text}`);
  return Number(match[1] ?? 0) * 60 + Number(match[2]);
}

/** The shared fake's usage of a key, read through the control surface. */
function usage(page: Page, key: string) {
  return page.evaluate(async (id) => {
    const keys = (await window.fake?.control.keys()) ?? [];
    return keys.find((each) => each.id === id)?.usage;
  }, key);
}

beforeEach(async () => {
  for (const page of context.pages()) await page.close();
  const first = await openTab();
  // Every tab's fake from the seed, on a ticking clock 5 s into a minute, so that the countdowns
  // run and no minute window rolls over during a test.
  await first.evaluate(
    async (at) => {
      await window.fake?.control.reset();
      await window.fake?.control.setTime(at);
    },
    (Math.floor(Date.now() / 60_000) + 1) * 60_000 + 5_000,
  );
  await first.evaluate(() => localStorage.removeItem('petstore-fake-panel:collapsed'));
  pageErrors.length = 0;
});

it('both tabs show the key the page used with its plan, Remaining and a live countdown to its reset; reading spends no quota', async () => {
  const [a] = context.pages() as [Page];
  const b = await openTab();
  const first = await call(a, '/pets?limit=1');
  expect(first).toMatchObject({ status: 200, remaining: '59' });
  for (const page of [a, b]) {
    await eventually(() => cell(page, 'demo-free', 'remaining')).toBe('59 / 60');
    expect(await cell(page, 'demo-free', 'plan')).toBe('free');
    // Only the keys the page used: the Pro key sent nothing.
    expect(await page.locator('petstore-fake-panel tr[data-key="demo-pro"]').count()).toBe(0);
  }
  // The countdown to X-RateLimit-Reset runs in both tabs, as the fake's clock ticks.
  const before = await Promise.all([a, b].map((page) => cell(page, 'demo-free', 'reset')));
  for (const [index, page] of [a, b].entries()) {
    const start = seconds(before[index] ?? null);
    expect(start).toBeGreaterThan(40);
    expect(start).toBeLessThanOrEqual(55);
    await eventually(async () => seconds(await cell(page, 'demo-free', 'reset'))).toBeLessThan(
      start,
    );
  }
  // Both panels have read the fake every second meanwhile: no request was counted for it
  // (the panel calls fake.control, never the API), so the next answer says 58.
  await a.waitForTimeout(2500);
  expect(await usage(a, 'demo-free')).toEqual({ minute: 1, day: 1, violations: 0 });
  expect(await call(b, '/pets?limit=1')).toMatchObject({ status: 200, remaining: '58' });
  for (const page of [a, b])
    await eventually(() => cell(page, 'demo-free', 'remaining')).toBe('58 / 60');
  expect(pageErrors).toEqual([]);
});

it("when the tab that runs the fake closes, the other tab's panel goes on showing the same fake", async () => {
  const [a] = context.pages() as [Page];
  const b = await openTab();
  expect(await call(a, '/pets?limit=1')).toMatchObject({ remaining: '59' });
  const leads = (page: Page) => page.evaluate(() => window.fake?.status().runsHere === true);
  const [leader, follower] = (await leads(a)) ? [a, b] : [b, a];
  await eventually(() => cell(follower, 'demo-free', 'remaining')).toBe('59 / 60');
  await leader.close();
  await eventually(() => leads(follower)).toBe(true);
  // The windows were written before the answer: the follower, leading now, counts on from them.
  expect(await call(follower, '/pets?limit=1')).toMatchObject({ remaining: '58' });
  await eventually(() => cell(follower, 'demo-free', 'remaining')).toBe('58 / 60');
  expect(await follower.locator('petstore-fake-panel .message').textContent()).toBe('');
  expect(pageErrors).toEqual([]);
});

it('a ban shows with its countdown in both tabs, and its Lift button in one tab lifts it for both', async () => {
  const [a] = context.pages() as [Page];
  const b = await openTab();
  await a.evaluate(() =>
    window.fake?.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } }),
  );
  expect((await call(a, '/pets?limit=1')).status).toBe(200);
  // Six 429s in a row, none waiting its Retry-After: the fifth early one bans the key (300 s).
  const codes: (string | undefined)[] = [];
  for (let i = 0; i < 6; i++) codes.push((await call(a, '/pets?limit=1')).code);
  expect(codes.at(-1)).toBe('temporarily_banned');
  for (const page of [a, b]) {
    await eventually(async () =>
      seconds(await cell(page, 'demo-free', 'ban-text')),
    ).toBeGreaterThan(290);
    expect(await cell(page, 'demo-free', 'plan')).toBe('free (own limits)');
    expect(await cell(page, 'demo-free', 'remaining')).toBe('0 / 1');
  }
  const banLeft = seconds(await cell(b, 'demo-free', 'ban-text'));
  await eventually(async () => seconds(await cell(b, 'demo-free', 'ban-text'))).toBeLessThan(
    banLeft,
  );
  // What the panel looks like with a ban, the last requests and their codes.
  await b.screenshot({ path: join(shots, 'app-panel.png') });
  expect(readFileSync(join(shots, 'app-panel.png')).subarray(1, 4).toString()).toBe('PNG');

  await b.locator('petstore-fake-panel tr[data-key="demo-free"] button.lift').click();
  for (const page of [a, b]) await eventually(() => cell(page, 'demo-free', 'ban-text')).toBe('no');
  await eventually(() => b.locator('petstore-fake-panel .message').textContent()).toMatch(
    /^Ban of demo-free lifted: the fake's clock moved 4 min \d+ s ahead$/,
  );
  expect(await call(a, '/pets?limit=1')).toMatchObject({ status: 200, remaining: '0' });
  await eventually(() => a.locator('petstore-fake-panel .clock-text').textContent()).toMatch(
    /ticking, \d+ min \d+ s ahead of real time$/,
  );
  expect(pageErrors).toEqual([]);
});

it('its buttons force the next 429 or 503 of an operation, turn chaos on and off, and reset every tab', async () => {
  const [a] = context.pages() as [Page];
  const b = await openTab();
  const panel = (page: Page) => page.locator('petstore-fake-panel');
  await panel(a).locator('select.operation').selectOption('listPets');
  await panel(a).locator('button.force-503').click();
  await eventually(() => panel(b).locator('.forced-text').textContent()).toBe(
    'listPets: the next answer is 503',
  );
  expect(await call(b, '/pets?limit=1')).toMatchObject({ status: 503 });
  await panel(b).locator('select.operation').selectOption('getPet');
  await panel(b).locator('button.force-429').click();
  expect(await call(a, '/pets/1')).toMatchObject({ status: 429, code: 'rate_limited' });
  await eventually(() => panel(a).locator('.forced-text').textContent()).toBe('none');
  // The last requests, newest first, with their status and code.
  await eventually(() => panel(a).locator('.recent tr').first().textContent()).toMatch(
    /^\d\d:\d\d:\d\d429GET \/v1\/pets\/1rate_limiteddemo-free$/,
  );

  await panel(a).locator('button.chaos-toggle').click();
  await eventually(() => panel(b).locator('.chaos-text').textContent()).toBe(
    'seed 42; every operation: 503 5%, latency 0-250 ms',
  );
  expect(await b.evaluate(() => window.fake?.control.chaos())).toMatchObject({ seed: 42 });
  await eventually(() => panel(b).locator('button.chaos-toggle').textContent()).toBe('Chaos off');
  await panel(b).locator('button.chaos-toggle').click();
  await eventually(() => panel(a).locator('.chaos-text').textContent()).toBe('off');

  await panel(b).locator('button.reset').click();
  for (const page of [a, b])
    await eventually(() => panel(page).locator('.no-keys').isVisible()).toBe(true);
  expect(await usage(a, 'demo-free')).toEqual({ minute: 0, day: 0, violations: 0 });
  expect(pageErrors).toEqual([]);
});

it("the app's global CSS does not reach inside the panel, and the panel never takes the keyboard focus", async () => {
  const [a] = context.pages() as [Page];
  await call(a, '/pets?limit=1');
  await a.addStyleTag({ content: '* { color: red !important; font-size: 40px }' });
  const style = (selector: string) =>
    a.evaluate((css) => {
      const found = document
        .querySelector('petstore-fake-panel')
        ?.shadowRoot?.querySelector(css) as HTMLElement | null;
      if (found === null || found === undefined) throw new Error(`no ${css} in the panel`);
      const { color, fontSize } = getComputedStyle(found);
      return { color, fontSize };
    }, selector);
  // The app's own text took the rule; the panel's did not.
  expect(
    await a.evaluate(() => {
      const { color, fontSize } = getComputedStyle(document.querySelector('h1') as HTMLElement);
      return { color, fontSize };
    }),
  ).toEqual({ color: 'rgb(255, 0, 0)', fontSize: '40px' });
  await a.locator('petstore-fake-panel tr[data-key="demo-free"]').waitFor();
  for (const selector of ['.clock-text', 'td.remaining', 'th', 'button.reset'])
    expect((await style(selector)).color).not.toBe('rgb(255, 0, 0)');
  expect(await style('td.remaining')).toEqual({ color: 'rgb(29, 35, 48)', fontSize: '12px' });

  // Nothing in the panel took the focus when it showed or since it updated.
  const focused = () =>
    a.evaluate(() => {
      const active = document.activeElement;
      const inner = active?.shadowRoot?.activeElement;
      return `${active?.tagName}${inner ? ` > ${inner.className}` : ''}`;
    });
  expect(await focused()).toBe('BODY');
  await a.locator('button[data-action="reset"]').focus();
  await a.waitForTimeout(2500);
  expect(await focused()).toBe('BUTTON');
  // Its buttons are reachable, after the app's own: the next Tab goes into the panel.
  await a.keyboard.press('Tab');
  expect(await focused()).toBe('PETSTORE-FAKE-PANEL > toggle');
  expect(pageErrors).toEqual([]);
});

it('the panel collapses, and stays collapsed after a reload and in a new tab', async () => {
  const [a] = context.pages() as [Page];
  await call(a, '/pets?limit=1');
  const toggle = a.locator('petstore-fake-panel button.toggle');
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  await toggle.click();
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  expect(await a.locator('petstore-fake-panel .body').isVisible()).toBe(false);
  await a.reload();
  await demoReady(a);
  const b = await openTab();
  for (const page of [a, b]) {
    const panel = page.locator('petstore-fake-panel');
    expect(await panel.locator('button.toggle').getAttribute('aria-expanded')).toBe('false');
    expect(await panel.locator('.body').isVisible()).toBe(false);
    // Collapsed, it still says the one line that matters.
    await eventually(() => panel.locator('.summary').textContent()).toMatch(
      /^demo-free 59\/60, resets in \d+ s$/,
    );
  }
  // The collapsed bar at the foot of the page.
  await b.screenshot({
    path: join(shots, 'app-panel-collapsed.png'),
    clip: { x: 0, y: 500, width: 600, height: 120 },
  });
  await b.locator('petstore-fake-panel button.toggle').click();
  expect(await b.locator('petstore-fake-panel .body').isVisible()).toBe(true);
  expect(await b.evaluate(() => localStorage.getItem('petstore-fake-panel:collapsed'))).toBe(
    'false',
  );
});
