/**
 * verify-pact holds the real key and reads a pact it did not write: a hostile or mistaken pact
 * must not turn it. As a process, against servers that record every request they get: a pact
 * that asks for a write under --read-only, an operation the interface does not have, a path
 * outside the base URL (dot segments, encoded or not, absolute URLs, other hosts), a redirect to
 * another server, a regex that backtracks for ever, and every malformed field: each is refused
 * before anything is sent (one line, exit 2), or sent only where it may go.
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createFake } from '../mock/internal/entry.ts';
import { runCli } from '../test/support/contract-cli-process.ts';
import { freeKey, pactFixture } from './pact/pact-fixture.ts';

const fixture = pactFixture('petstore-verify-pact-hostile-');
const key = 'Zq8vT3xLw9Pm2Rk7-secret';
const env = { PETSTORE_API_KEY: key };

/** A server that records what reaches it and answers as `answer` says. */
interface Recording {
  readonly url: string;
  readonly seen: { method: string; url: string; authorization: string | undefined }[];
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function recordingServer(
  answer: (request: IncomingMessage) => {
    status: number;
    headers?: Record<string, string>;
    body?: string;
  } = () => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: '[]' }),
): Promise<Recording> {
  const seen: Recording['seen'] = [];
  const server = createServer((request, response) => {
    seen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
    });
    const { status, headers = {}, body = '' } = answer(request);
    response.writeHead(status, headers);
    response.end(body);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A small valid pact: one listPets 200 with the key, whose fields the tests then spoil. */
function validPact(): { interactions: Record<string, unknown>[]; metadata: unknown } {
  return {
    interactions: [
      {
        type: 'Synchronous/HTTP',
        key: 'k1',
        description: 'listPets 200: GET /pets (a key on the free plan)',
        providerStates: [{ name: 'a key on the free plan', params: { plan: 'free' } }],
        request: {
          method: 'GET',
          path: '/pets',
          headers: { Authorization: ['Bearer REDACTED-API-KEY'] },
          generators: {
            header: {
              // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact's own expression syntax.
              Authorization: { type: 'ProviderState', expression: 'Bearer ${apiKey}' },
            },
          },
        },
        response: { status: 200, headers: {}, matchingRules: {} },
      },
    ],
    metadata: { pactSpecification: { version: '4.0' } },
  };
}

let written = 0;
function pactFile(pact: unknown): string {
  written += 1;
  const file = join(fixture.dir, `hostile-${written}.json`);
  writeFileSync(file, JSON.stringify(pact));
  return file;
}

/** A copy of the valid pact with one change made to its interaction. */
function spoiled(change: (interaction: Record<string, unknown>) => void): unknown {
  const pact = validPact();
  change(pact.interactions[0] as Record<string, unknown>);
  return pact;
}

test('a valid pact against a recording server: the key goes there, as Authorization, and only there', async () => {
  const server = await recordingServer();
  const run = await runCli(
    ['verify-pact', pactFile(validPact()), '--base-url', `${server.url}/v1`],
    env,
  );
  expect(run.code).toBe(0);
  expect(server.seen).toEqual([{ method: 'GET', url: '/v1/pets', authorization: `Bearer ${key}` }]);
  expect(run.stdout + run.stderr).not.toContain(key);
});

test('--read-only replays no write: a recorded POST /pets and a state that creates pets are skipped, nothing is created', async () => {
  const file = await fixture.recordPact({ consumer: 'web', provider: 'petstore' }, async (send) => {
    await send('/pets', {
      method: 'POST',
      headers: { ...freeKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
    });
    await send('/pets?limit=1', { headers: freeKey });
  });
  const fake = await createFake({ seed: 'empty' });
  const base = `${await fixture.serve(fake)}/v1`;
  const run = await runCli(['verify-pact', file, '--base-url', base, '--read-only'], {
    PETSTORE_API_KEY: 'free-demo-key',
  });
  expect(run.stdout).toContain(
    '  SKIP  createPet 201: POST /pets (a key on the free plan)\n          - POST /pets is a write: allow writes (--allow-writes)',
  );
  expect(fake.control.describe().pets).toBe(0);
  expect(run.code).toBe(2);
});

test.each([
  ['DELETE, an operation the interface does not have', 'DELETE', '/pets/1'],
  ['PUT on a pet', 'PUT', '/pets/1'],
  ['dot segments', 'GET', '/../../admin/export'],
  ['dot segments inside the path', 'GET', '/pets/../../admin'],
  ['percent-encoded dot segments', 'GET', '/%2e%2e/%2E%2E/admin'],
  ['twice-encoded dot segments', 'GET', '/pets/%252e%252e/%252e%252e/admin'],
  ['an encoded slash', 'GET', '/pets/..%2F..%2Fadmin'],
  ['an absolute URL', 'GET', 'http://evil.example/v1/pets'],
  ['another host, scheme-relative', 'GET', '//evil.example/v1/pets'],
  ['a backslash', 'GET', '/pets\\..\\..\\admin'],
  ['a path outside the interface', 'GET', '/admin/export'],
])(
  'a pact asking for %s is refused before anything is sent: one line, exit 2',
  async (_name, method, path) => {
    const server = await recordingServer();
    const file = pactFile(
      spoiled((interaction) => {
        interaction.request = { ...(interaction.request as object), method, path };
      }),
    );
    const run = await runCli(['verify-pact', file, '--base-url', `${server.url}/v1`], env);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('interactions[0].request');
    expect(run.stdout).toBe('');
    expect(server.seen).toEqual([]);
  },
);

test('a redirect is not followed: the key never reaches the server it points to', async () => {
  const elsewhere = await recordingServer();
  const server = await recordingServer(() => ({
    status: 302,
    headers: { Location: `${elsewhere.url}/steal` },
  }));
  const run = await runCli(
    ['verify-pact', pactFile(validPact()), '--base-url', `${server.url}/v1`],
    env,
  );
  expect(server.seen).toHaveLength(1);
  expect(elsewhere.seen).toEqual([]);
  expect(run.stdout).toContain('status: expected 200, got 302');
  expect(run.code).toBe(1);
});

test("a pact's regex that backtracks for ever cannot hang it: the interaction is no verdict, within --timeout", async () => {
  const server = await recordingServer(() => ({
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'a'.repeat(60) }),
  }));
  const file = pactFile(
    spoiled((interaction) => {
      interaction.response = {
        status: 200,
        body: { content: { name: 'X' } },
        matchingRules: {
          body: { '$.name': { combine: 'AND', matchers: [{ match: 'regex', regex: '^(.+)+X$' }] } },
        },
      };
    }),
  );
  const run = await runCli(
    ['verify-pact', file, '--base-url', `${server.url}/v1`, '--timeout', '2000'],
    env,
    { killAfterMs: 20_000 },
  );
  expect(run.killed).toBe(false);
  expect(run.durationMs).toBeLessThan(15_000);
  expect(run.stdout).toContain("the pact's regex /^(.+)+X$/ ran past 250 ms");
  expect(run.code).toBe(2);
});

test.each([
  [
    'providerStates as a string',
    (i: Record<string, unknown>) => (i.providerStates = 'pet 1 exists'),
    'interactions[0].providerStates must be an array of {name, params}, got a string',
  ],
  [
    'a provider state without a name',
    (i: Record<string, unknown>) => (i.providerStates = [{ params: {} }]),
    'interactions[0].providerStates[0].name must be a string, got nothing',
  ],
  [
    'params as an array',
    (i: Record<string, unknown>) => (i.providerStates = [{ name: 'x', params: [] }]),
    'interactions[0].providerStates[0].params must be an object, got an array',
  ],
  [
    'no description',
    (i: Record<string, unknown>) => delete i.description,
    'interactions[0].description must be a non-empty string, got nothing',
  ],
  [
    'request as an array',
    (i: Record<string, unknown>) => (i.request = []),
    'interactions[0].request must be an object, got an array',
  ],
  [
    'a method that is a number',
    (i: Record<string, unknown>) => ((i.request as Record<string, unknown>).method = 7),
    'interactions[0].request.method must be a string, got a number',
  ],
  [
    'a query value that is a number',
    (i: Record<string, unknown>) => ((i.request as Record<string, unknown>).query = { limit: 5 }),
    'interactions[0].request.query["limit"] must be a string or an array of strings, got a number',
  ],
  [
    'a header holding a line break',
    (i: Record<string, unknown>) =>
      ((i.request as Record<string, unknown>).headers = { 'X-A': 'a\r\nHost: evil' }),
    'interactions[0].request.headers["X-A"] holds a line break',
  ],
  [
    'a Host header',
    (i: Record<string, unknown>) =>
      ((i.request as Record<string, unknown>).headers = { Host: 'evil.example' }),
    'interactions[0].request.headers["Host"] is not a header a pact may set',
  ],
  [
    'a status as a string',
    (i: Record<string, unknown>) => (i.response = { status: '200' }),
    'interactions[0].response.status must be an HTTP status (100 to 599), got a string',
  ],
  [
    'matchers not an array',
    (i: Record<string, unknown>) =>
      (i.response = { status: 200, matchingRules: { body: { '$.id': { matchers: 'integer' } } } }),
    'interactions[0].response.matchingRules.body["$.id"].matchers must be an array of matchers, got a string',
  ],
  [
    'a regex that does not compile',
    (i: Record<string, unknown>) =>
      (i.response = {
        status: 200,
        matchingRules: { header: { A: { matchers: [{ match: 'regex', regex: '(' }] } } },
      }),
    'interactions[0].response.matchingRules.header["A"].matchers[0].regex is not a regex',
  ],
  [
    'a min that is negative',
    (i: Record<string, unknown>) =>
      (i.response = {
        status: 200,
        matchingRules: { body: { $: { matchers: [{ match: 'type', min: -1 }] } } },
      }),
    'interactions[0].response.matchingRules.body["$"].matchers[0].min must be a whole number, got a number',
  ],
  [
    'a body rule path the Pact tools cannot parse (the issue: `$.first name`)',
    (i: Record<string, unknown>) =>
      (i.response = {
        status: 200,
        matchingRules: { body: { '$.first name': { matchers: [{ match: 'type' }] } } },
      }),
    'interactions[0].response.matchingRules.body["$.first name"] is not a path the Pact tools can load (the official Verifier refuses the whole file): " " is not allowed in an identifier in path expression "$.first name" at index 7',
  ],
  [
    "a request rule's path, which the replay does not use but the Verifier loads",
    (i: Record<string, unknown>) =>
      ((i.request as Record<string, unknown>).matchingRules = {
        body: { "$['a'b']": { matchers: [{ match: 'type' }] } },
      }),
    `interactions[0].request.matchingRules.body["$['a'b']"] is not a path the Pact tools can load`,
  ],
  [
    "a generator's path",
    (i: Record<string, unknown>) =>
      ((i.request as Record<string, unknown>).generators = {
        body: { '$._.V00u<': { type: 'RandomInt', min: 1, max: 2 } },
      }),
    'interactions[0].request.generators.body["$._.V00u<"] is not a path the Pact tools can load',
  ],
  [
    'a lone surrogate in a body (serde_json cannot parse the file)',
    (i: Record<string, unknown>) =>
      ((i.request as Record<string, unknown>).body = { content: { name: 'Rex\ud800' } }),
    'interactions[0].request.body.content.name holds a lone surrogate',
  ],
])(
  'a malformed field (%s) is one line naming it, exit 2, nothing sent',
  async (_name, change, message) => {
    const server = await recordingServer();
    const run = await runCli(
      ['verify-pact', pactFile(spoiled(change)), '--base-url', `${server.url}/v1`],
      env,
    );
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(server.seen).toEqual([]);
  },
);

test('a file that is not JSON, not UTF-8, or not there, is one line too', async () => {
  const notJson = join(fixture.dir, 'not-json.json');
  writeFileSync(notJson, '{"interactions": [');
  // A valid pact but for one byte that is not UTF-8 (the Verifier: "stream did not contain
  // valid UTF-8"; a lenient decoder would read it as U+FFFD and replay it).
  const notUtf8 = join(fixture.dir, 'not-utf8.json');
  const bytes = Buffer.from(JSON.stringify(validPact()).replace('listPets', 'listP\u00e9ts'));
  bytes[bytes.indexOf(0xc3)] = 0xff;
  writeFileSync(notUtf8, bytes);
  const run = await runCli(['verify-pact', notUtf8, '--base-url', 'http://127.0.0.1:1/v1'], env);
  expect(run.stderr).toContain('it is not UTF-8 text, which the Pact tools cannot read');
  for (const file of [notJson, notUtf8, join(fixture.dir, 'missing.json')]) {
    const run = await runCli(['verify-pact', file, '--base-url', 'http://127.0.0.1:1/v1'], env);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`verify-pact: cannot read ${file}`);
  }
});
