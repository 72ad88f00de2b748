/**
 * A field added in one place: a copy of the repository gets an optional
 * `nickname` (a string of at most 40 characters) in its openapi/petstore.yaml, runs its generator
 * and nothing else. Its fake then stores and answers the field, and its harness generates it,
 * sends it and compares it: a server that drops it on create fails, the fake passes, and this
 * repository's harness (which has never heard of the field) does not notice the fault.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFake, parseJson, stringifyJson } from '../mock/internal/entry.ts';
import { brokenRuleMessage } from '../test/support/contract-cli-process.ts';
import { freePort, waitForBanner } from '../test/support/fake-process.ts';

const repository = new URL('..', import.meta.url).pathname;
const apiKey = 'enterprise-demo-key';
const nickname = 'Sir Barksalot of the Back Garden';

/** The field as the copy's document declares it, right under NewPet's `status`. */
const anchor = `        status:
          $ref: "#/components/schemas/PetStatus"
    Pet:
`;
const withNickname = `        status:
          $ref: "#/components/schemas/PetStatus"
        nickname:
          type: string
          maxLength: 40
          description: What the animal answers to, if not its name.
    Pet:
`;

let copy = '';
let fake: ChildProcess | undefined;
let fakeBaseUrl = '';
let proxy: Server | undefined;
let proxyBaseUrl = '';
/** Whether the proxy drops `nickname` from `POST /v1/pets` bodies (the planted fault). */
let dropNickname = false;

/** Copies what the fake and the harness need, and adds `nickname` to the copy's document. */
function copyRepositoryWithNickname(): string {
  const target = mkdtempSync(join(tmpdir(), 'petstore-new-field-'));
  for (const part of ['openapi', 'mock', 'contract-tests', 'fixtures', 'scripts'])
    cpSync(join(repository, part), join(target, part), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json'])
    cpSync(join(repository, file), join(target, file));
  symlinkSync(join(repository, 'node_modules'), join(target, 'node_modules'), 'dir');
  const yamlPath = join(target, 'openapi/petstore.yaml');
  const yaml = readFileSync(yamlPath, 'utf8');
  if (!yaml.includes(anchor))
    throw new Error('new-field.test: NewPet in openapi/petstore.yaml no longer ends as expected');
  writeFileSync(yamlPath, yaml.replace(anchor, withNickname));
  execFileSync(process.execPath, ['scripts/generate-contract.ts'], { cwd: target });
  return target;
}

/**
 * A proxy in front of the copy's fake (over its HTTP door) that forwards every request as it is,
 * except, while `dropNickname` is set, a create's `nickname`: a server that does not store it.
 */
async function startProxy(upstream: string): Promise<Server> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body: string | undefined =
      chunks.length === 0 ? undefined : Buffer.concat(chunks).toString();
    if (
      dropNickname &&
      request.method === 'POST' &&
      request.url === '/v1/pets' &&
      body !== undefined
    ) {
      try {
        const parsed = parseJson(body);
        if (parsed !== null && typeof parsed === 'object' && 'nickname' in parsed) {
          const { nickname: _, ...rest } = parsed as Record<string, unknown>;
          body = stringifyJson(rest);
        }
      } catch {
        // Not JSON: forwarded as it came, for the fake to refuse.
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name))
        headers.set(name, value);
    let answer: Response;
    try {
      answer = await fetch(`${upstream}${request.url ?? ''}`, {
        method: request.method ?? 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
      });
    } catch (error) {
      // The harness sees a 502 (server.no5xx fails the run), never a hang.
      response.writeHead(502).end(String(error));
      return;
    }
    const text = await answer.text();
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
        out[name] = value;
    });
    response.writeHead(answer.status, out).end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

/** Runs a harness CLI (`cli.ts` under `root`) to its end, with the demo Enterprise key. */
async function runHarness(root: string, args: readonly string[]) {
  const child = spawn(process.execPath, [join(root, 'contract-tests/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, PETSTORE_API_KEY: apiKey, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, output };
}

/** One `POST /pets` of a harness run, from its `--log`: the body sent (when an object) and the answer. */
interface LoggedCreate {
  readonly body: Record<string, unknown>;
  readonly status: number | undefined;
  readonly answer: unknown;
}

function parsedObject(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text ?? '') as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Every `POST /pets` with a JSON object body that a harness run logged. */
function loggedCreates(logPath: string): LoggedCreate[] {
  return readFileSync(logPath, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map(
      (line) =>
        JSON.parse(line) as {
          request: { method: string; url: string; body?: string };
          response?: { status: number; body: string };
        },
    )
    .filter(({ request }) => request.method === 'POST' && request.url.endsWith('/pets'))
    .flatMap(({ request, response }) => {
      const body = parsedObject(request.body);
      return body === undefined
        ? []
        : [{ body, status: response?.status, answer: parsedObject(response?.body) }];
    });
}

beforeAll(async () => {
  copy = copyRepositoryWithNickname();
  const port = await freePort();
  fake = spawn(
    process.execPath,
    [
      join(copy, 'mock/doors/cli/cli.ts'),
      '--port',
      String(port),
      '--no-staging',
      '--quiet',
      '--seed',
      'empty',
    ],
    { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitForBanner(fake);
  fakeBaseUrl = `http://127.0.0.1:${port}`;
  proxy = await startProxy(fakeBaseUrl);
  proxyBaseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  proxy?.close();
  if (fake !== undefined && fake.exitCode === null) {
    fake.kill('SIGKILL');
    await once(fake, 'exit');
  }
  if (copy !== '') rmSync(copy, { recursive: true, force: true });
});

const authorised = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };

test("the copy's generator alone puts nickname in the document the fake and the harness read", () => {
  const generated = readFileSync(join(copy, 'mock/base/contract/openapi.generated.ts'), 'utf8');
  expect(generated).toContain('"nickname"');
  expect(
    readFileSync(join(repository, 'mock/base/contract/openapi.generated.ts'), 'utf8'),
  ).not.toContain('"nickname"');
});

test("the copy's fake stores nickname on create and answers it from GET /v1/pets/{id} and GET /v1/pets", async () => {
  const created = await fetch(`${fakeBaseUrl}/v1/pets`, {
    method: 'POST',
    headers: authorised,
    body: JSON.stringify({ name: 'Rex', categoryId: 3, nickname }),
  });
  expect(created.status).toBe(201);
  const pet = (await created.json()) as { id: number; nickname?: string };
  expect(pet).toMatchObject({ name: 'Rex', categoryId: 3, nickname });

  const byId = await fetch(`${fakeBaseUrl}/v1/pets/${pet.id}`, { headers: authorised });
  expect(byId.status).toBe(200);
  expect(await byId.json()).toEqual(pet);

  const list = await fetch(`${fakeBaseUrl}/v1/pets?limit=100`, { headers: authorised });
  expect(list.status).toBe(200);
  expect(((await list.json()) as { id: number }[]).find((row) => row.id === pet.id)).toEqual(pet);

  // The document's bound holds too: 41 characters is a NewPet with an invalid value.
  const tooLong = await fetch(`${fakeBaseUrl}/v1/pets`, {
    method: 'POST',
    headers: authorised,
    body: JSON.stringify({ name: 'Rex', categoryId: 3, nickname: 'x'.repeat(41) }),
  });
  expect(tooLong.status).toBe(400);
});

test("this repository's fake, whose document has no nickname, drops it: the copy's behaviour is the document's doing", async () => {
  const original = await createFake({ seed: [] });
  const created = await original.fetch(
    new Request(`${original.config.origins[0]}${original.config.basePath}/pets`, {
      method: 'POST',
      headers: authorised,
      body: JSON.stringify({ name: 'Rex', categoryId: 3, nickname }),
    }),
  );
  expect(created.status).toBe(201);
  expect(await created.json()).not.toHaveProperty('nickname');
});

const harnessArgs = (log: string) => [
  '--seed',
  '7',
  '--runs',
  '10',
  '--only',
  'createPet.,model.',
  '--log',
  log,
];

test("the copy's harness sends nickname and passes the copy's fake, and fails a server that drops it on create", async () => {
  // The copy's own fake, as `--fake` starts it.
  const passLog = join(copy, 'pass.jsonl');
  const pass = await runHarness(copy, ['--fake', ...harnessArgs(passLog)]);
  expect(pass.code, pass.output).toBe(0);
  expect(pass.output).not.toMatch(/FAIL/);
  const creates = loggedCreates(passLog);
  // Valid NewPets that carried a nickname: at most 40 characters, and answered with it.
  const stored = creates.filter(
    ({ body, status }) => status === 201 && typeof body.nickname === 'string',
  );
  expect(stored.length, 'creates that sent a nickname and got 201').toBeGreaterThan(3);
  for (const { body, answer } of stored) {
    expect([...(body.nickname as string)].length).toBeLessThanOrEqual(40);
    expect(answer).toHaveProperty('nickname', body.nickname);
  }
  // Wrong values derived from the schema (another type, or past 40 characters) were sent, and
  // got the 400 createPet.invalidValues requires.
  const refused = creates.filter(
    ({ body }) =>
      'nickname' in body && (typeof body.nickname !== 'string' || [...body.nickname].length > 40),
  );
  expect(refused.length, 'creates with a nickname NewPet does not allow').toBeGreaterThan(0);
  for (const { status } of refused) expect(status).toBe(400);

  // The same fake behind the proxy, first forwarding everything as it came: it passes too.
  dropNickname = false;
  const passThrough = await runHarness(copy, [
    '--base-url',
    `${proxyBaseUrl}/v1`,
    ...harnessArgs(join(copy, 'pass-through.jsonl')),
  ]);
  expect(passThrough.code, passThrough.output).toBe(0);

  const failLog = join(copy, 'fail.jsonl');
  dropNickname = true;
  const fail = await runHarness(copy, [
    '--base-url',
    `${proxyBaseUrl}/v1`,
    ...harnessArgs(failLog),
  ]);
  dropNickname = false;
  expect(fail.code, fail.output).toBe(1);
  // The round trip and the model catch it, both naming the field.
  expect(brokenRuleMessage(fail.output, 'createPet.roundTrip')).toMatch(
    /^POST \/pets with a valid NewPet: nickname "[^"]*" came back as undefined/,
  );
  expect(brokenRuleMessage(fail.output, 'model.createListGet')).toMatch(
    /^create: nickname "[^"]*" came back as undefined/,
  );
}, 90_000);

test("this repository's harness, which does not know nickname, passes the same faulty server", async () => {
  dropNickname = true;
  const run = await runHarness(repository, [
    '--base-url',
    `${proxyBaseUrl}/v1`,
    ...harnessArgs(join(copy, 'original.jsonl')),
  ]);
  dropNickname = false;
  expect(run.code, run.output).toBe(0);
  const creates = loggedCreates(join(copy, 'original.jsonl'));
  expect(creates.length).toBeGreaterThan(10);
  expect(creates.some(({ body }) => 'nickname' in body)).toBe(false);
}, 60_000);
