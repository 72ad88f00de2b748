/**
 * Interface coverage from the fake, through the doors a user uses: `fake.control.coverage()` and
 * `expectInterfaceCoverage` in-process, `GET /__control/coverage` over HTTP in each format, and
 * `npm start --coverage-report` as a child process.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { afterAll, afterEach, expect, test } from 'vitest';
import {
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../../test/support/fake-process.ts';
import { createFake } from '../../../core/fake.ts';
import { listenHttp } from '../../../doors/http/http-server.ts';
import type { CoverageRecord } from './coverage-record.ts';
import { expectInterfaceCoverage, InterfaceCoverageError } from './expect-interface-coverage.ts';

const api = 'http://127.0.0.1:4010/v1';
const ajv = new Ajv2020({ allErrors: true, strictRequired: false });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync('docs/coverage.schema.json', 'utf8')));
const dir = mkdtempSync(join(tmpdir(), 'petstore-coverage-'));
afterEach(stopFakeProcesses);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fake behind its HTTP door on a free port, and a supertest agent for it; close the door after. */
async function servedFake() {
  const fake = await createFake();
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  const http = request(`http://127.0.0.1:${(door.server.address() as { port: number }).port}`);
  return { http, door };
}

const item = (record: CoverageRecord, id: string) => record.items.find((each) => each.id === id);

test('fake.control.coverage() records each item with its key and client id, and a reset clears it', async () => {
  const fake = await createFake();
  const app = { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'checkout-web' };
  await fake.fetch(`${api}/pets?status=sold`, { headers: app });
  await fake.fetch(`${api}/pets/999999`, { headers: app });
  await fake.fetch(`${api}/pets`, { headers: { 'X-Client-Id': 'anonymous-app' } });
  await fake.fetch(`${api}/pets?api_key=free-demo-key`, { headers: { 'X-Client-Id': 'leaky' } });
  const record = fake.control.coverage();
  expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
  expect(record.source).toBe('fake');
  expect(item(record, 'getPet 404')).toMatchObject({
    status: 'exercised',
    count: 1,
    first: {
      method: 'GET',
      path: '/v1/pets/999999',
      status: 404,
      keyId: 'demo-free',
      clientId: 'checkout-web',
    },
    by: [{ keyId: 'demo-free', clientId: 'checkout-web', count: 1 }],
  });
  expect(item(record, 'getPet.deprecation')?.status).toBe('exercised');
  expect(item(record, 'listPets.statusFilter')?.count).toBe(1);
  expect(item(record, 'listPets 401')).toMatchObject({ status: 'exercised', count: 2 });
  expect(item(record, 'auth.challenge')?.by).toEqual([
    { clientId: 'anonymous-app', count: 1 },
    { clientId: 'leaky', count: 1 },
  ]);
  expect(item(record, 'createPet 201')).toMatchObject({ status: 'not-exercised', count: 0 });
  // Every answer carries X-RateLimit-*: all four requests exercised the header rule.
  expect(item(record, 'headers.rateLimit')?.count).toBe(4);
  expect(JSON.stringify(record)).not.toContain('free-demo-key');
  await fake.control.reset();
  expect(fake.control.coverage().summary).toMatchObject({ exercised: 0, exchanges: 0 });
});

test('a 429 with Retry-After, the requests that kept coming and the retry after it are the rate-limit items', async () => {
  const fake = await createFake();
  // Frozen first, then set: set and then frozen, the clock runs on for the moment between the
  // two calls (a loaded machine makes it a millisecond), and the retry's time reads 12:01:01.001.
  fake.control.freezeTime(true);
  fake.control.setTime(Date.parse('2026-06-01T12:00:00Z'));
  fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } });
  const headers = { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'poller' };
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++)
    statuses.push((await fake.fetch(`${api}/pets?limit=1`, { headers })).status);
  fake.control.advanceTime(61);
  statuses.push((await fake.fetch(`${api}/pets?limit=1`, { headers })).status);
  expect(statuses).toEqual([200, 429, 429, 200]);
  const record = fake.control.coverage();
  expect(item(record, 'listPets 429')?.count).toBe(2);
  expect(item(record, 'limits.retryAfter')?.count).toBe(2);
  expect(item(record, 'limits.ban')).toMatchObject({
    count: 1,
    first: { status: 429, clientId: 'poller' },
  });
  expect(item(record, 'limits.retryAfterHonoured')).toMatchObject({
    count: 1,
    first: { status: 200, at: '2026-06-01T12:01:01.000Z' },
  });
  expect(item(record, 'listPets.pageBounds')?.count).toBe(4);
});

test('expectInterfaceCoverage lists every required item never exercised, and passes once they were', async () => {
  const fake = await createFake();
  const key = { Authorization: 'Bearer pro-demo-key' };
  await fake.fetch(`${api}/pets`, { headers: key });
  let thrown: unknown;
  try {
    expectInterfaceCoverage(fake, {
      require: ['listPets 200', 'createPet 400', 'getPet 404', 'limits.retryAfter'],
    });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InterfaceCoverageError);
  expect((thrown as Error).message).toBe(
    [
      'petstore-fake: the tests never exercised 3 of the 4 required interface item(s) (1 request seen):',
      '  - createPet 400: POST /pets answered 400 (POST /pets (createPet))',
      '  - getPet 404: GET /pets/{petId} answered 404 (GET /pets/{petId} (getPet))',
      '  - limits.retryAfter: a 429 said Retry-After (Limits, rule 2; Errors)',
    ].join('\n'),
  );
  expect((thrown as InterfaceCoverageError).missing.map((each) => each.id)).toEqual([
    'createPet 400',
    'getPet 404',
    'limits.retryAfter',
  ]);
  await fake.fetch(`${api}/pets`, {
    method: 'POST',
    headers: { ...key, 'Content-Type': 'application/json' },
    body: '{}',
  });
  await fake.fetch(`${api}/pets/0`, { headers: key });
  fake.control.force('listPets', 429, 1, 5);
  await fake.fetch(`${api}/pets`, { headers: key });
  expect(
    expectInterfaceCoverage(fake, {
      require: ['listPets 200', 'createPet 400', 'getPet 404', 'limits.retryAfter'],
    }).summary.exchanges,
  ).toBe(4);
  expect(() => expectInterfaceCoverage(fake, { require: ['getPet 410'] })).toThrow(
    /^petstore-fake: expectInterfaceCoverage: unknown item\(s\) "getPet 410"; the items are: listPets 200, /,
  );
  expect(() => expectInterfaceCoverage(fake)).toThrow(/never exercised \d+ of the 22 required/);
});

test('GET /__control/coverage answers JSON, Markdown, JUnit and CTRF over HTTP, and refuses another format', async () => {
  const { http, door } = await servedFake();
  try {
    await http.get('/v1/pets/1').set('Authorization', 'Bearer free-demo-key').expect(200);
    const json = await http.get('/__control/coverage').expect(200);
    expect(validate(json.body)).toBe(true);
    expect(item(json.body, 'getPet 200')).toMatchObject({
      status: 'exercised',
      first: { keyId: 'demo-free', path: '/v1/pets/1' },
    });
    const markdown = await http.get('/__control/coverage?format=markdown').expect(200);
    expect(markdown.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(markdown.text).toContain(
      '| `getPet 200` GET /pets/{petId} answered 200 | exercised | 1 | GET /v1/pets/1 200 (key demo-free',
    );
    const junit = await http.get('/__control/coverage?format=junit').expect(200);
    expect(junit.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(junit.text).toContain(
      '<testcase classname="interface-coverage.status" name="getPet 404" time="0"><failure',
    );
    const ctrf = await http.get('/__control/coverage?format=ctrf').expect(200);
    expect(
      ctrf.body.results.tests.find((t: { name: string }) => t.name === 'getPet 200'),
    ).toMatchObject({ status: 'passed' });
    const bad = await http.get('/__control/coverage?format=html').expect(400);
    expect(bad.body.message).toContain(
      'format must be one of json, markdown, junit, ctrf, got "html"',
    );
  } finally {
    await door.close();
  }
});

test('the Markdown escapes what clients send: a path or client id cannot add HTML, a link or a column to a job summary', async () => {
  const { http, door } = await servedFake();
  try {
    // `|`, `[`, `]`, `(`, `)`, `*` and `!` stay raw in a URL path; `<` and `>` in the client id.
    await http
      .get('/v1/pets/![x](javascript:x)|*bold*|`code`')
      .set('Authorization', 'Bearer free-demo-key')
      .set('X-Client-Id', '<img src=x onerror=alert(1)> | [click](https://evil.example)')
      .expect(404);
    const markdown = (await http.get('/__control/coverage?format=markdown').expect(200)).text;
    const row = markdown.split('\n').find((line) => line.startsWith('| `getPet 404`')) ?? '';
    expect(row).toContain(
      'GET /v1/pets/\\!\\[x\\]\\(javascript:x\\)\\|\\*bold\\*\\|%60code%60 404',
    );
    expect(row).toContain(
      'client "\\<img src=x onerror=alert\\(1\\)\\> \\| \\[click\\]\\(https://evil.example\\)"',
    );
    // Still one row of four cells: no unescaped pipe in it but the table's own.
    expect(row.split(/(?<!\\)\|/)).toHaveLength(6);
  } finally {
    await door.close();
  }
});

test('npm start prints the coverage on SIGTERM and writes --coverage-report in the format its name says', async () => {
  const port = await freePort();
  const markdownFile = join(dir, 'coverage.md');
  const { child, output } = await startFakeProcess([
    '--port',
    String(port),
    '--no-staging',
    '--quiet',
    '--coverage-report',
    markdownFile,
  ]);
  await fetch(`http://127.0.0.1:${port}/v1/pets`);
  await fetch(`http://127.0.0.1:${port}/v1/pets?limit=100`, {
    headers: { Authorization: 'Bearer free-demo-key' },
  });
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  expect((await exited)[0]).toBe(0);
  const printed = output();
  expect(printed).toMatch(
    /petstore-fake: interface coverage: 8 of 22 items exercised by 2 requests; never: listPets 429, createPet 201, /,
  );
  expect(printed).toContain(`petstore-fake: coverage report written to ${markdownFile}`);
  const markdown = readFileSync(markdownFile, 'utf8');
  expect(markdown).toContain('## Interface coverage (fake)');
  expect(markdown).toContain(
    '| `listPets.pageBounds` listPets was asked with limit at or past a bound (1, 100, or outside them) | exercised | 1 | GET /v1/pets?limit=100 200 (key demo-free, client "node") |',
  );
});

test('with coverage.keepOnReset a suite that resets after every test keeps the whole suite coverage; clearCoverage and DELETE clear it', async () => {
  const fake = await createFake({ coverage: { keepOnReset: true } });
  const key = { Authorization: 'Bearer free-demo-key' };
  await fake.fetch(`${api}/pets/0`, { headers: key });
  await fake.control.reset();
  await fake.fetch(`${api}/pets`, { method: 'POST', headers: key, body: 'not json' });
  await fake.control.reset();
  expect(
    expectInterfaceCoverage(fake, { require: ['getPet 404', 'createPet 400'] }).summary.exchanges,
  ).toBe(2);
  fake.control.clearCoverage();
  expect(fake.control.coverage().summary.exchanges).toBe(0);

  await fake.fetch(`${api}/pets/0`, { headers: key });
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  try {
    const http = request(`http://127.0.0.1:${(door.server.address() as { port: number }).port}`);
    const cleared = await http
      .delete('/__control/coverage')
      .set('Content-Type', 'application/json')
      .expect(200);
    expect(cleared.body).toMatchObject({ exercised: 0, exchanges: 0 });
    expect(fake.control.coverage().summary.exchanges).toBe(0);
  } finally {
    await door.close();
  }
  await expect(
    createFake({ coverage: { keepOnReset: 'yes' as unknown as boolean } }),
  ).rejects.toThrow('petstore-fake: coverage.keepOnReset must be true or false, got yes');
});
