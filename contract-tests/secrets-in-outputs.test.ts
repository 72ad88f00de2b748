/**
 * One redaction for every output, held as a property through the doors users use: `npm start`
 * (the fake on a real port, with a keys file of its own, a control token, `--pact-out`,
 * `--coverage-report` and `--client-report`) and `petstore-contract proxy` in front of it (with
 * `--junit` and `--coverage`). Each run plants a secret in one part of a request (the path, a
 * query name or value, a header, a Content-Type parameter, the Authorization value, a JSON field
 * name or value, a text body) in one encoding (raw, percent-encoded, every byte encoded, a mix,
 * encoded twice, base64, base64url, inside a Basic credential), sends it straight to the fake or
 * through the proxy, and then reads every output: the Pact file, coverage in JSON, Markdown,
 * JUnit and CTRF, the client report, the request log, the proxy's report; at the end, the exit
 * files of both. No form of any planted secret may be in any of them. The secrets are the keys of
 * every plan of the keys file, the control token, made-up Bearer values, and made-up values of
 * credential-shaped query parameters and JSON fields.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ProxyProcess, startProxyProcess } from '../test/support/contract-cli-process.ts';
import { type FakeProcess, freePort, startFakeProcess } from '../test/support/fake-process.ts';

const seed = Number(process.env.SECRETS_SEED ?? 2929);
const dir = mkdtempSync(join(tmpdir(), 'petstore-secrets-'));
const token = 'Ctl-Token-9q2w8e7r6t5y4u3i';
/** A key of every plan, in a keys file of the test's own: none of the demo keys. */
const keys = {
  free: 'fk-7Hq2LmZp9Xw4Rt6V',
  pro: 'pk-3Jd8NcYe5Ub1Ko0S',
  // A slash and a plus, as base64-ish keys have: a slash splits a path, a plus means space.
  business: 'bk+6Gf4/TaQv2Wn8Mh1L==',
  enterprise: 'ek-9Pz5XcRb7Yd3Qs0K',
};
const limits = {
  free: { perMinute: 1_000_000, perDay: 10_000_000 },
  pro: { perMinute: 1_000_000, perDay: 10_000_000 },
  business: { perMinute: 1_000_000, perDay: 10_000_000 },
  enterprise: { perMinute: 1_000_000, perDay: 10_000_000 },
};
const files = {
  pact: join(dir, 'pact.json'),
  coverage: join(dir, 'coverage.md'),
  clients: join(dir, 'clients.json'),
  junit: join(dir, 'proxy.xml'),
  proxyCoverage: join(dir, 'proxy.md'),
};

const children: ChildProcess[] = [];
let fake: FakeProcess;
let proxy: ProxyProcess;
let fakeUrl = '';
/** Where the fake's output stands once its banner (which names the keys, as it should) is out. */
let bannerEnd = 0;
/** Every secret planted so far: the last check holds the exit files against all of them. */
const planted = new Set<string>();

beforeAll(async () => {
  const keysFile = join(dir, 'keys.json');
  writeFileSync(
    keysFile,
    JSON.stringify({
      plans: limits,
      keys: Object.entries(keys).map(([plan, key]) => ({ id: `test-${plan}`, key, plan })),
    }),
  );
  const port = await freePort();
  fake = await startFakeProcess(
    [
      '--port',
      String(port),
      '--no-staging',
      '--keys',
      keysFile,
      '--pact-out',
      files.pact,
      '--coverage-report',
      files.coverage,
      '--client-report',
      files.clients,
    ],
    { PETSTORE_CONTROL_TOKEN: token },
  );
  bannerEnd = fake.output().length;
  fakeUrl = `http://127.0.0.1:${port}`;
  proxy = await startProxyProcess(
    [
      '--target',
      `${fakeUrl}/v1`,
      '--port',
      '0',
      '--junit',
      files.junit,
      '--coverage',
      files.proxyCoverage,
    ],
    children,
    { PETSTORE_CONTROL_TOKEN: token },
  );
}, 60_000);

afterAll(() => {
  for (const child of [...children, fake?.child])
    if (child !== undefined && child.exitCode === null && child.signalCode === null)
      child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Base64 of `secret` after `pad` bytes, without the characters its neighbours change. */
function base64Inner(secret: string, pad: number, url: boolean): string {
  const encoded = Buffer.from(`${'x'.repeat(pad)}${secret}`)
    .toString(url ? 'base64url' : 'base64')
    .replace(/=+$/, '');
  return encoded.slice(Math.ceil((pad * 4) / 3), -2);
}

/** Percent-escapes decoded, as many rounds as it takes. */
function decodedFully(text: string): string {
  let current = text;
  for (let round = 0; round < 4; round++) {
    const next = current.replace(/%[0-9a-f]{2}/gi, (hex) =>
      String.fromCharCode(Number.parseInt(hex.slice(1), 16)),
    );
    if (next === current) break;
    current = next;
  }
  return current;
}

/** The first form of `secret` found in `text`, in any encoding, or undefined. */
function leakOf(text: string, secret: string): string | undefined {
  const forms = [secret, encodeURIComponent(secret)];
  for (const pad of [0, 1, 2])
    forms.push(base64Inner(secret, pad, false), base64Inner(secret, pad, true));
  const plain = decodedFully(text);
  return forms.find((form) => text.includes(form) || plain.includes(form));
}

function expectNoLeak(outputs: Readonly<Record<string, string>>, secrets: Iterable<string>): void {
  for (const [name, text] of Object.entries(outputs))
    for (const secret of secrets) {
      const leak = leakOf(text, secret);
      if (leak !== undefined) {
        const at = text.indexOf(leak);
        throw new Error(
          `${name} holds ${JSON.stringify(secret)} as ${JSON.stringify(leak)}: ...${text.slice(Math.max(0, at - 120), at + 120)}...`,
        );
      }
    }
}

/** How a planted secret is spelt on the wire. */
const encodings: Record<string, (secret: string) => string> = {
  raw: (secret) => secret,
  percent: (secret) => encodeURIComponent(secret),
  everyByte: (secret) =>
    [...Buffer.from(secret)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
  everyByteUpper: (secret) =>
    [...Buffer.from(secret)]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  mixed: (secret) =>
    [...secret]
      .map((char, at) =>
        at % 3 === 0 ? `%${char.charCodeAt(0).toString(16).padStart(2, '0')}` : char,
      )
      .join(''),
  twice: (secret) =>
    [...Buffer.from(secret)].map((byte) => `%25${byte.toString(16).padStart(2, '0')}`).join(''),
  base64: (secret) => Buffer.from(secret).toString('base64'),
  base64url: (secret) => Buffer.from(`ab${secret}`).toString('base64url'),
  basicCredential: (secret) => Buffer.from(`user:${secret}`).toString('base64'),
};

/** One request with one secret in it, and how it is sent. */
interface Plan {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** The secrets this request plants. */
  readonly secrets: readonly string[];
}

const known = fc.constantFrom(...Object.values(keys), token);
const madeUp = fc.stringMatching(/^[A-Za-z0-9]{14,24}$/).map((text) => `mk${text}`);
const encoding = fc.constantFrom(...Object.keys(encodings));
const sender = fc.constantFrom(...Object.values(keys), undefined);
const credentialName = fc.constantFrom(
  'api_key',
  'apikey',
  'access_token',
  'token',
  'password',
  'client_secret',
  'key',
);
const jsonCredentialName = fc.constantFrom(
  'api_key',
  'apiKey',
  'access_token',
  'password',
  'client_secret',
  'secret',
);

/** A secret in one part of a request, in one encoding, from one sender (a key of a plan, or none). */
const requests = fc
  .tuple(
    fc.oneof(
      // A known secret anywhere, in any encoding.
      fc.record({
        secret: known,
        encoding,
        part: fc.constantFrom(
          'path',
          'queryValue',
          'queryName',
          'clientId',
          'userAgent',
          'contentType',
          'jsonValue',
          'jsonName',
          'textBody',
          'bearer',
        ),
      }),
      // A made-up credential where only its place says it is one.
      fc.record({
        secret: madeUp,
        encoding: fc.constant('raw'),
        part: fc.constantFrom(
          'bearer',
          'credentialQuery',
          'credentialJson',
          'credentialText',
          'credentialContentType',
        ),
      }),
    ),
    credentialName,
    jsonCredentialName,
    sender,
  )
  .map(([{ secret, encoding: spelling, part }, queryName, fieldName, key]): Plan => {
    const spelt = (encodings[spelling] as (text: string) => string)(secret);
    const headers: Record<string, string> =
      key === undefined ? {} : { Authorization: `Bearer ${key}` };
    const json = (value: unknown) => ({
      method: 'POST',
      path: '/v1/pets',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(value),
      secrets: [secret],
    });
    switch (part) {
      case 'path':
        return { method: 'GET', path: `/v1/pets/${spelt}`, headers, secrets: [secret] };
      case 'queryValue':
        return { method: 'GET', path: `/v1/pets?q=${spelt}`, headers, secrets: [secret] };
      case 'queryName':
        return { method: 'GET', path: `/v1/pets?${spelt}=1`, headers, secrets: [secret] };
      case 'clientId':
        return {
          method: 'GET',
          path: '/v1/pets',
          headers: { ...headers, 'X-Client-Id': `app ${spelt}` },
          secrets: [secret],
        };
      case 'userAgent':
        return {
          method: 'GET',
          path: '/v1/pets',
          headers: { ...headers, 'User-Agent': `agent/1 ${spelt}` },
          secrets: [secret],
        };
      case 'contentType':
        return {
          method: 'POST',
          path: '/v1/pets',
          headers: { ...headers, 'Content-Type': `application/json; charset=utf-8; x=${spelt}` },
          body: '{"name":"Rex","categoryId":1}',
          secrets: [secret],
        };
      case 'jsonValue':
        return json({ name: spelt, categoryId: 1 });
      case 'jsonName':
        return json({ name: 'Rex', categoryId: 1, [spelt]: true });
      case 'textBody':
        return {
          method: 'POST',
          path: '/v1/pets',
          headers: { ...headers, 'Content-Type': 'text/plain' },
          body: `note ${spelt} end`,
          secrets: [secret],
        };
      case 'bearer':
        return {
          method: 'GET',
          path: '/v1/pets',
          headers: { Authorization: `Bearer ${spelt}` },
          secrets: [secret],
        };
      case 'credentialQuery':
        return {
          method: 'GET',
          path: `/v1/pets?limit=1&${queryName}=${spelt}`,
          headers,
          secrets: [secret],
        };
      case 'credentialJson':
        return json({ name: 'Rex', categoryId: 1, [fieldName]: spelt });
      case 'credentialText':
        return {
          method: 'POST',
          path: '/v1/pets',
          headers: { ...headers, 'Content-Type': 'text/plain' },
          body: `${queryName}=${spelt}&x=1`,
          secrets: [secret],
        };
      default:
        return {
          method: 'POST',
          path: '/v1/pets',
          headers: { ...headers, 'Content-Type': `application/json; ${queryName}=${spelt}` },
          body: '{"name":"Rex","categoryId":1}',
          secrets: [secret],
        };
    }
  });

/** Sends a request as given (raw path, any header) and reads the answer whole. */
async function send(
  base: string,
  plan: Pick<Plan, 'method' | 'path' | 'headers' | 'body'>,
): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  const sent = request({
    host: url.hostname,
    port: url.port,
    method: plan.method,
    path: plan.path,
    headers: plan.headers,
  });
  sent.end(plan.body);
  const [answer] = (await once(sent, 'response')) as [IncomingMessage];
  let text = '';
  for await (const chunk of answer) text += chunk;
  return { status: answer.statusCode ?? 0, text };
}

/** Every output that can be read while the processes run. */
async function outputsNow(): Promise<Record<string, string>> {
  const control = { 'X-Control-Token': token };
  const read = async (url: string, headers: Record<string, string> = control) => {
    const answer = await fetch(url, { headers });
    expect(answer.status, url).toBe(200);
    return answer.text();
  };
  const proxyBase = `http://127.0.0.1:${proxy.port}`;
  return {
    'GET /__control/pact': await read(`${fakeUrl}/__control/pact`),
    'GET /__control/coverage': await read(`${fakeUrl}/__control/coverage`),
    'coverage markdown': await read(`${fakeUrl}/__control/coverage?format=markdown`),
    'coverage junit': await read(`${fakeUrl}/__control/coverage?format=junit`),
    'coverage ctrf': await read(`${fakeUrl}/__control/coverage?format=ctrf`),
    'GET /__control/clients': await read(`${fakeUrl}/__control/clients`),
    'GET /__control/state': await read(`${fakeUrl}/__control/state`),
    'request log': fake.output().slice(bannerEnd),
    'proxy report': await read(`${proxyBase}/__contract/report`, {}),
    'proxy report json': await read(`${proxyBase}/__contract/report?format=json`, {}),
    'proxy output': proxy.output(),
  };
}

test(`property: a secret planted in any part of a request, in any encoding, is in no output (seed ${seed})`, async () => {
  // The proxy learns keys from the traffic: each plan's key goes through it once first.
  for (const key of Object.values(keys))
    await send(`http://127.0.0.1:${proxy.port}`, {
      method: 'GET',
      path: '/v1/pets?limit=1',
      headers: { Authorization: `Bearer ${key}` },
    });
  await fc.assert(
    fc.asyncProperty(requests, fc.boolean(), async (plan, throughProxy) => {
      for (const secret of plan.secrets) planted.add(secret);
      await send(throughProxy ? `http://127.0.0.1:${proxy.port}` : fakeUrl, plan);
      expectNoLeak(await outputsNow(), plan.secrets);
    }),
    { seed, numRuns: 60, endOnFailure: true },
  );
}, 240_000);

test('and no planted secret is in any exit file or summary, written on SIGTERM', async () => {
  expect(planted.size).toBeGreaterThan(10);
  proxy.child.kill('SIGTERM');
  await once(proxy.child, 'close');
  fake.child.kill('SIGTERM');
  const [code] = (await once(fake.child, 'exit')) as [number];
  expect(code).toBe(0);
  const written = Object.fromEntries(
    Object.entries(files).map(([name, file]) => [name, readFileSync(file, 'utf8')]),
  );
  expect(JSON.parse(written.pact as string).interactions.length).toBeGreaterThan(5);
  expectNoLeak(
    { ...written, 'fake output': fake.output().slice(bannerEnd), 'proxy output': proxy.output() },
    planted,
  );
}, 60_000);
