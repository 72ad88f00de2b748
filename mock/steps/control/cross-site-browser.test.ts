/**
 * The control surface against real web pages, in headless Chromium: a page on another site
 * (http://127.0.0.2, a different host and so a different site from 127.0.0.1; two ports of one
 * host would be the same site) fires every request a page can send without a CORS preflight, a
 * `no-cors` fetch with a text/plain body and a text/plain form, and a JSON fetch that needs a
 * preflight. None may change the fake. A second page reaches the fake under a name of its own
 * (Chromium's resolver maps rebind.test to 127.0.0.1, as DNS rebinding would), and the fake must
 * refuse to answer it, on the control surface and on /v1.
 * Chromium: see `test/support/headless-chromium.ts` (the system's, or the one from npm).
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../../../test/support/fake-process.ts';
import { chromiumArgs, chromiumPath } from '../../../test/support/headless-chromium.ts';
import { createFake, type FakeWithCore } from '../../core/fake.ts';
import { type HttpDoor, listenHttp } from '../../doors/http/http-server.ts';

let fake: FakeWithCore;
let door: HttpDoor;
let fakePort: number;
let attacker: Server;
let attackerOrigin: string;
let context: BrowserContext;
let profile: string;
/** Every request the fake's socket received: method, path and headers. */
const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];

/** The attacker's page: every preflight-free way to send the fake a state change, then a JSON one. */
function attackPage(target: string): string {
  const control = `${target}/__control`;
  return `<!doctype html><title>attacker</title>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="${control}/keys" enctype="text/plain" target="sink">
  <input name='{"id":"evil","key":"evil-key-0123456789","plan":"enterprise","x":"' value='"}'>
</form>
<script>
  const simple = (path, body) => fetch('${control}/' + path, {
    method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body,
  }).then(() => 'sent', (error) => 'failed: ' + error);
  window.attack = async () => {
    const results = {};
    results.reset = await simple('reset', '{"seed":"empty"}');
    results.clock = await simple('clock', '{"advance":86400}');
    results.force = await simple('force', '{"operationId":"listPets","status":503,"count":1000000}');
    results.noBody = await fetch('${control}/reset', { method: 'POST', mode: 'no-cors' })
      .then(() => 'sent', (error) => 'failed: ' + error);
    results.json = await fetch('${control}/reset', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"seed":"empty"}',
    }).then((r) => 'read ' + r.status, (error) => 'blocked: ' + error.name);
    const loaded = new Promise((resolve) => document.querySelector('iframe').onload = resolve);
    document.getElementById('form').submit();
    await loaded;
    results.form = 'submitted';
    return results;
  };
</script>`;
}

beforeAll(async () => {
  fakePort = await freePort();
  // The fake answers as the origin it is bound to, as `npm start` does.
  fake = await createFake({ origin: `http://127.0.0.1:${fakePort}`, stagingOrigin: false });
  door = await listenHttp(fake.behaviour, {
    port: fakePort,
    origin: fake.config.origins[0] as string,
  });
  door.server.on('request', (req) =>
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers }),
  );

  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(attackPage(door.origin));
  });
  attacker.listen(0, '127.0.0.2');
  await once(attacker, 'listening');
  attackerOrigin = `http://127.0.0.2:${(attacker.address() as AddressInfo).port}`;

  profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath('cross-site test'),
    args: chromiumArgs(['--host-resolver-rules=MAP rebind.test 127.0.0.1']),
  });
});

afterAll(async () => {
  await context?.close();
  await door?.close();
  attacker?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

test('a page on another site cannot reset, re-clock, force or add keys through the control surface', async () => {
  await fake.control.reset();
  fake.control.freezeTime(true);
  fake.control.setTime(Date.UTC(2026, 5, 1, 12));
  const before = fake.control.describe();

  const page = await context.newPage();
  await page.goto(`${attackerOrigin}/`);
  const results = await page.evaluate(() => (window as unknown as { attack(): unknown }).attack());
  await page.close();

  // The requests did reach the fake, from the other site...
  const reset = seen.find((r) => r.method === 'POST' && r.url === '/__control/reset');
  expect(reset?.headers.origin).toBe(attackerOrigin);
  expect(reset?.headers['sec-fetch-site']).toBe('cross-site');
  expect(seen.some((r) => r.method === 'POST' && r.url === '/__control/keys')).toBe(true);
  // ...the JSON one was stopped at its preflight, which the control surface never grants...
  expect(results).toMatchObject({ json: 'blocked: TypeError', form: 'submitted' });
  expect(seen.some((r) => r.method === 'OPTIONS' && r.url === '/__control/reset')).toBe(true);
  // ...and nothing changed: pets, clock, forced rules and keys are as they were.
  expect(fake.control.describe()).toEqual(before);
  expect(fake.control.keys().map((key) => key.id)).not.toContain('evil');
});

test('a page that reaches the fake under another name (DNS rebinding) gets 403 host_not_allowed', async () => {
  const page = await context.newPage();
  const state = await page.goto(`http://rebind.test:${fakePort}/__control/state`);
  expect(state?.status()).toBe(403);
  expect(await state?.json()).toMatchObject({ code: 'host_not_allowed', status: 403 });

  // Same-origin for the page, so nothing but the Host check stands between it and the answers.
  const api = await page.evaluate(async () => {
    const list = await fetch('/v1/pets', { headers: { Authorization: 'Bearer free-demo-key' } });
    const reset = await fetch('/__control/reset', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"seed":"empty"}',
    });
    return {
      list: list.status,
      listBody: await list.json(),
      limit: list.headers.get('x-ratelimit-limit'),
      reset: reset.status,
    };
  });
  await page.close();
  expect(api).toMatchObject({
    list: 403,
    listBody: { code: 'host_not_allowed', status: 403 },
    limit: '60',
    reset: 403,
  });
  expect(fake.control.describe().pets).toBe(180);
  expect(seen.some((r) => r.headers.host === `rebind.test:${fakePort}`)).toBe(true);
});
