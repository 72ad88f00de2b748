/**
 * The Pact file holds no key, wherever a client put one: `npm start` on a real port, clients
 * sending keys as apps really do (in the query, a path segment, a JSON or text body, a
 * Content-Type parameter, a made-up key in `?apikey=`, the control token in a URL), and the
 * pact read from `GET /__control/pact` and from the `--pact-out` file meant for
 * `pact-broker publish`. The request log shows `[redacted]` for the same requests; the pact
 * passes through the same redaction.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, test } from 'vitest';
import {
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../../test/support/fake-process.ts';
import type { PactFile } from './pact-step.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-pact-redaction-'));
afterEach(stopFakeProcesses);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const token = 'control-token-for-the-pact-test-0042';
const madeUp = 'made-up-key-nobody-issued-77';

test('no key, made-up key or control token reaches the pact, over HTTP or in --pact-out', async () => {
  const port = await freePort();
  const pactFile = join(dir, 'pact.json');
  const { child, output } = await startFakeProcess(
    ['--port', String(port), '--no-staging', '--pact-out', pactFile],
    { PETSTORE_CONTROL_TOKEN: token },
  );
  const api = `http://127.0.0.1:${port}/v1`;
  const business = { Authorization: 'Bearer business-demo-key' };
  const json = { ...business, 'Content-Type': 'application/json' };
  const sent = [
    fetch(`${api}/pets?api_key=business-demo-key`, { headers: business }),
    fetch(`${api}/pets?apikey=${madeUp}`, { headers: business }),
    fetch(`${api}/pets?token=${encodeURIComponent(token)}`, { headers: business }),
    fetch(`${api}/pets/business-demo-key`, { headers: business }),
    fetch(`${api}/pets/${encodeURIComponent(token)}`, { headers: business }),
    fetch(`${api}/pets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'business-demo-key', categoryId: 1, password: madeUp }),
    }),
    fetch(`${api}/pets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Rex', categoryId: 1, 'pro-demo-key': 1 }),
    }),
    fetch(`${api}/pets`, {
      method: 'POST',
      headers: { ...business, 'Content-Type': 'text/plain' },
      body: `free-demo-key api_key=${madeUp} Authorization: Bearer ${madeUp}`,
    }),
    fetch(`${api}/pets`, {
      method: 'POST',
      headers: {
        ...business,
        'Content-Type': `application/json; key=pro-demo-key; apikey=${madeUp}`,
      },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    }),
    fetch(`${api}/pets?x=${Buffer.from('user:enterprise-demo-key').toString('base64')}`, {
      headers: business,
    }),
  ];
  for (const answer of await Promise.all(sent)) await answer.text();

  const overHttp = await (
    await fetch(`http://127.0.0.1:${port}/__control/pact`, {
      headers: { 'X-Control-Token': token },
    })
  ).text();
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  expect((await exited)[0]).toBe(0);
  const written = readFileSync(pactFile, 'utf8');
  const pact = JSON.parse(written) as PactFile;
  expect(pact.interactions.length).toBeGreaterThanOrEqual(8);
  for (const text of [overHttp, written]) {
    for (const secret of [
      'business-demo-key',
      'pro-demo-key',
      'free-demo-key',
      'enterprise-demo-key',
      madeUp,
      token,
      encodeURIComponent(token),
      // base64 of "enterprise-demo-key" inside the Basic-like value, at its alignment.
      Buffer.from('user:enterprise-demo-key').toString('base64').slice(8, -4),
    ])
      expect(text, secret).not.toContain(secret);
    expect(text).toContain('[redacted]');
  }
  // The request log, through the same redaction, shows the same requests without the keys.
  // (The banner above it names the demo keys; the request lines start with their time.)
  const log = output()
    .split('\n')
    .filter((line) => /^\d{4}-/.test(line))
    .join('\n');
  expect(log).toContain('GET /v1/pets?api_key=[redacted] 200');
  for (const secret of ['business-demo-key', madeUp, token]) expect(log).not.toContain(secret);
  // The recorded query keeps its shape: the parameter is there, its value is not.
  const withQuery = pact.interactions.find((each) => each.request.query?.api_key !== undefined);
  expect(withQuery?.request.query?.api_key).toEqual(['[redacted]']);
});

test('credential-shaped names (access_key, secret_key, X-Amz-Signature...) are redacted in the pact over HTTP, in --pact-out and in the request log', async () => {
  const port = await freePort();
  const pactFile = join(dir, 'pact-names.json');
  const { child, output } = await startFakeProcess([
    '--port',
    String(port),
    '--no-staging',
    '--pact-out',
    pactFile,
  ]);
  const api = `http://127.0.0.1:${port}/v1`;
  const headers = { Authorization: 'Bearer business-demo-key' };
  // One made-up secret per name, in the spellings clients use (case, - or _).
  const names = [
    'access_key',
    'SECRET_KEY',
    'private-key',
    'subscription-key',
    'Subscription_Key',
    'X-Amz-Signature',
    'x_amz_credential',
    'aws_secret_access_key',
  ];
  const secretOf = (name: string) => `s3cret-${name.replace(/[^A-Za-z]/g, '')}-0042`;
  for (const name of names) {
    const answer = await fetch(`${api}/pets?${name}=${secretOf(name)}`, { headers });
    await answer.text();
  }
  const created = await fetch(`${api}/pets`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1, secret_key: secretOf('body') }),
  });
  await created.text();
  const overHttp = await (await fetch(`http://127.0.0.1:${port}/__control/pact`)).text();
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  expect((await exited)[0]).toBe(0);
  const written = readFileSync(pactFile, 'utf8');
  const log = output()
    .split('\n')
    .filter((line) => /^\d{4}-/.test(line))
    .join('\n');
  for (const [where, text] of [
    ['GET /__control/pact', overHttp],
    ['--pact-out', written],
    ['request log', log],
  ] as const) {
    for (const name of [...names, 'body'])
      expect(text, `${where}: ${name}`).not.toContain(secretOf(name));
  }
  // The recorded query keeps its shape: each parameter is there, its value is not.
  const pact = JSON.parse(written) as PactFile;
  const queries = pact.interactions.map((each) => each.request.query ?? {});
  for (const name of names)
    expect(
      queries.some((query) => JSON.stringify(query[name]) === '["[redacted]"]'),
      name,
    ).toBe(true);
  expect(log).toContain('GET /v1/pets?X-Amz-Signature=[redacted] 200');
});
