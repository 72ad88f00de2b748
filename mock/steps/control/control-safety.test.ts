/**
 * Who may drive the control surface and reach /v1, over the real HTTP door with raw requests (so
 * Host, Origin and Sec-Fetch-Site are exactly what a browser or an attacker would send). The
 * Chromium test (cross-site-browser.test.ts) shows the same refusals against real pages.
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../../../test/support/fake-process.ts';
import { createFake, type FakeWithCore } from '../../core/fake.ts';
import { type HttpDoor, listenHttp } from '../../doors/http/http-server.ts';

let fake: FakeWithCore;
let door: HttpDoor;
let port: number;

beforeAll(async () => {
  port = await freePort();
  fake = await createFake({
    origin: `http://127.0.0.1:${port}`,
    stagingOrigin: false,
    allowedHosts: ['qa-box.example.test', '.preview.example.test'],
  });
  door = await listenHttp(fake.behaviour, {
    port,
    origin: fake.config.origins[0] as string,
  });
});
afterAll(() => door.close());

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: { code?: string; message?: string; status?: number };
}

function send(
  method: string,
  path: string,
  headers: OutgoingHttpHeaders,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'Content-Type': 'application/json' };
const emptyReset = (headers: OutgoingHttpHeaders) =>
  send('POST', '/__control/reset', { ...json, ...headers }, '{"seed":"empty"}');

test('a cross-site request (Origin of another site, or Sec-Fetch-Site: cross-site) changes nothing: 403 cross_site_request', async () => {
  await fake.control.reset();
  for (const headers of [
    { Origin: 'https://evil.example' },
    { Origin: 'null' },
    { Origin: 'http://127.0.0.2:8080' },
    { 'Sec-Fetch-Site': 'cross-site' },
    { Origin: `http://127.0.0.1:${port}`, 'Sec-Fetch-Site': 'cross-site' },
  ]) {
    const answer = await emptyReset(headers);
    expect(answer.status, JSON.stringify(headers)).toBe(403);
    expect(answer.body).toMatchObject({ code: 'cross_site_request', status: 403 });
  }
  expect(fake.control.describe().pets).toBe(180);
});

test('a CORS-simple body (text/plain, form, none) cannot change state, even from the same site', async () => {
  await fake.control.reset();
  for (const contentType of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    undefined,
  ]) {
    const headers: OutgoingHttpHeaders = contentType ? { 'Content-Type': contentType } : {};
    const answer = await send('POST', '/__control/reset', headers, '{"seed":"empty"}');
    expect(answer.status, String(contentType)).toBe(400);
    expect(answer.body.message).toContain('application/json');
  }
  expect(fake.control.describe().pets).toBe(180);
  // The fake's own pages and local dev servers on the same site still work, as JSON.
  const ok = await emptyReset({ Origin: 'http://localhost:5173', 'Sec-Fetch-Site': 'same-site' });
  expect(ok.status).toBe(200);
  expect(fake.control.describe().pets).toBe(0);
  await fake.control.reset();
});

test('a Host the fake does not answer to gets 403 host_not_allowed on the control surface and /v1, with rate-limit headers', async () => {
  const state = await send('GET', '/__control/state', { Host: 'evil.example' });
  expect(state.status).toBe(403);
  expect(state.body).toMatchObject({ code: 'host_not_allowed', status: 403 });
  expect(JSON.stringify(state.body)).not.toContain('demo-free');

  for (const [method, path] of [
    ['GET', '/v1/pets'],
    ['GET', '/v1/pets/1'],
    ['POST', '/v1/pets'],
    ['OPTIONS', '/v1/pets'],
    ['GET', '/v1/nowhere'],
  ] as const) {
    const answer = await send(method, path, {
      Host: `evil.example:${port}`,
      Authorization: 'Bearer free-demo-key',
      ...json,
    });
    expect(answer.status, `${method} ${path}`).toBe(403);
    expect(answer.body).toMatchObject({ code: 'host_not_allowed', status: 403 });
    expect(answer.headers['x-ratelimit-limit']).toBe('60');
    expect(answer.headers['x-ratelimit-remaining']).toBeDefined();
    expect(answer.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  }
  // Refused before authentication: nothing was charged to the key.
  expect(fake.control.keys().find((key) => key.id === 'demo-free')?.usage.minute).toBe(0);
});

test('the bound address, localhost, 127.0.0.1, [::1] and --allowed-hosts names are answered', async () => {
  for (const host of [
    `127.0.0.1:${port}`,
    `localhost:${port}`,
    'LOCALHOST',
    `[::1]:${port}`,
    'qa-box.example.test',
    `pr-7.preview.example.test:${port}`,
    'preview.example.test',
  ]) {
    const answer = await send('GET', '/__control/state', { Host: host });
    expect(answer.status, host).toBe(200);
  }
  for (const host of ['qa-box.example.test.evil', 'xpreview.example.test', '127.0.0.2']) {
    expect((await send('GET', '/__control/state', { Host: host })).status, host).toBe(403);
  }
});

test('an allowedHosts entry that is not a host name is refused at start with a ConfigError naming it', async () => {
  await expect(createFake({ allowedHosts: ['http://x.test:80'] })).rejects.toMatchObject({
    name: 'ConfigError',
    option: 'allowedHosts[0]',
  });
});
