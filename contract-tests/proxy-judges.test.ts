/**
 * The proxy judges every exchange by every rule one exchange can show (STYLE.md: "the judge runs on
 * every exchange, whether the harness sent it or the proxy saw it"). A small app of its own (a
 * scripted client making the calls an end-to-end suite makes: browse, view, adopt, mistakes, no
 * key) goes through `petstore-contract proxy`, run as a user runs it, in front of each mutant of
 * the harness's self-proof set whose rule an exchange can show. First the app does only what does
 * not touch the broken rule: the proxy's report says the rule is `not exercised`, never passed.
 * Then it does everything: the proxy exits 1 naming the rule (an advisory rule warns).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { mutants } from '../test/harness-fixtures/mutants/catalogue.ts';
import { before, withQuery } from '../test/harness-fixtures/mutants/fault-helpers.ts';
import type { Mutant } from '../test/harness-fixtures/mutants/mutant.ts';
import { smallWindowKey } from '../test/harness-fixtures/mutants/small-window.ts';
import { brokenRulesIn } from '../test/support/contract-cli-process.ts';
import { passiveObservers } from './proxy/passive-verdicts.ts';
import { type FakeTarget, type FakeTargetOptions, httpFakeTarget } from './targets/fake-target.ts';

const cliPath = new URL('./cli.ts', import.meta.url).pathname;

/** The app's calls, grouped as an end-to-end suite's scenarios are. */
type Journey =
  | 'browse'
  | 'view'
  | 'adopt'
  | 'careless'
  | 'edgy'
  | 'invalid'
  | 'notAPet'
  | 'oddQueries'
  | 'lost'
  | 'anonymous'
  | 'burst';

/** Everything the app does, in the order a suite would run it (`burst` only on a small window). */
const everything: readonly Journey[] = [
  'browse',
  'view',
  'adopt',
  'careless',
  'edgy',
  'invalid',
  'notAPet',
  'oddQueries',
  'lost',
  'anonymous',
];

/**
 * Waits out the last seconds of a wall-clock minute, where the fake's window ends. There the
 * judge of rateLimit.remainingDecreases may rightly take a Remaining that stands still for a
 * refill (its Reset is under a second away), so a stuck Remaining played then is not evidence.
 */
async function clearOfMinuteEnd(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
}

/** The app: calls through the proxy with its key, as a client under test would. */
function app(baseUrl: string, key: string) {
  const call = async (
    method: string,
    path: string,
    options: { auth?: string | null; body?: string } = {},
  ): Promise<{ status: number; json: unknown }> => {
    const headers: Record<string, string> = {};
    const auth = options.auth === undefined ? `Bearer ${key}` : options.auth;
    if (auth !== null) headers.Authorization = auth;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  };
  const firstId = (json: unknown) =>
    Array.isArray(json) ? (json[0] as { id?: number } | undefined)?.id : undefined;
  const journeys: Record<Journey, () => Promise<void>> = {
    async browse() {
      await call('GET', '/pets');
      await call('GET', '/pets?limit=3');
      await call('GET', '/pets?limit=1');
      await call('GET', '/pets?status=sold');
      await call('GET', '/pets?status=pending&limit=5');
    },
    async view() {
      const { json } = await call('GET', '/pets?limit=5');
      await call('GET', `/pets/${firstId(json) ?? 1}`);
    },
    async adopt() {
      const created = await call('POST', '/pets', {
        body: '{"name":"Rex","categoryId":2,"status":"sold"}',
      });
      const id = (created.json as { id?: unknown } | undefined)?.id;
      if (typeof id === 'number') await call('GET', `/pets/${id}`);
      await call('GET', '/pets?status=sold&limit=100');
    },
    async careless() {
      await call('POST', '/pets', { body: '{"categoryId":2}' });
      await call('POST', '/pets', { body: '{"name":"Tom"}' });
      await call('POST', '/pets', { body: '{}' });
    },
    async edgy() {
      // What users type and what ids carry: a long name, an emoji and a tab, int64 edges, a
      // field the app adds that NewPet does not define.
      await call('POST', '/pets', {
        body: JSON.stringify({ name: 'x'.repeat(300), categoryId: 1 }),
      });
      await call('POST', '/pets', {
        body: JSON.stringify({ name: 'Tama 🐈\tcat', categoryId: 1 }),
      });
      await call('POST', '/pets', { body: '{"name":"Max","categoryId":9223372036854775807}' });
      await call('POST', '/pets', { body: '{"name":"Odd","categoryId":9007199254740993}' });
      await call('POST', '/pets', { body: '{"name":"Min","categoryId":-9223372036854775808}' });
      await call('POST', '/pets', { body: '{"name":"Tom","categoryId":1,"nickname":"T"}' });
    },
    async invalid() {
      await call('POST', '/pets', { body: '{"name":"Tom","categoryId":"5"}' });
      await call('POST', '/pets', { body: '{"name":"Tom","categoryId":5,"status":"adopted"}' });
    },
    async notAPet() {
      await call('POST', '/pets', { body: '[]' });
      await call('POST', '/pets', { body: '{"name":"Tom",' });
    },
    async oddQueries() {
      await call('GET', '/pets?limit=150');
      await call('GET', '/pets?status=adopted');
      await call('GET', '/pets/abc');
    },
    async lost() {
      await call('GET', '/pets/999999999');
    },
    async anonymous() {
      // Between two answers to the key, as a page that loads before the user signs in.
      await call('GET', '/pets?limit=2');
      await call('GET', '/pets', { auth: null });
      await call('POST', '/pets', { auth: null, body: '{"name":"Tom","categoryId":1}' });
      await call('GET', '/pets/1', { auth: `Basic ${key}` });
      await call('GET', '/pets?limit=2');
    },
    async burst() {
      // Two small windows and one more (2 x 8 + 1): a minute ending mid-burst still ends in a 429.
      for (let sent = 0; sent < 17; sent += 1)
        if ((await call('GET', '/pets?limit=1')).status === 429) return;
    },
  };
  return async (names: readonly Journey[]) => {
    for (const name of names) await journeys[name]();
  };
}

/**
 * For each mutant the traffic that leaves its rule unexercised: what an app does that never
 * meets the fault, or none at all where every answer shows the rule (every answer is JSON,
 * carries X-RateLimit-*, is no 5xx: an answer on another path is evidence that passes); and,
 * where everything is not the traffic that shows it, that traffic.
 */
const cases: Record<
  string,
  { quiet: readonly Journey[]; full?: readonly Journey[]; cutOverHttp?: true }
> = {
  'default-limit-25': { quiet: ['view', 'adopt'] },
  'limit-ignored': { quiet: ['adopt', 'lost'] },
  'limit-above-100-honoured': { quiet: ['browse'] },
  'status-filter-ignored': { quiet: ['view'] },
  'status-filter-swapped': { quiet: ['view'] },
  'listed-pet-without-category': { quiet: ['lost'] },
  'pet-id-as-string': { quiet: ['browse'] },
  'get-returns-other-name': { quiet: ['browse'] },
  'malformed-id-200': { quiet: ['browse', 'view'] },
  'sunset-wrong-date': { quiet: ['browse'] },
  'deprecation-header-missing': { quiet: ['browse'] },
  'create-answers-200': { quiet: ['browse', 'view', 'careless'] },
  'create-without-id': { quiet: ['browse', 'view', 'careless'] },
  'missing-name-accepted': { quiet: ['browse', 'adopt'] },
  'missing-category-accepted': { quiet: ['browse', 'adopt'] },
  'string-category-coerced': { quiet: ['browse', 'adopt', 'careless'] },
  'unknown-status-accepted': { quiet: ['browse', 'adopt', 'careless'] },
  'invalid-body-422': { quiet: ['browse', 'adopt'] },
  'duplicate-ids': { quiet: ['browse'] },
  'long-names-truncated': { quiet: ['browse', 'adopt'] },
  'category-id-rounded': { quiet: ['browse', 'adopt'] },
  'non-ascii-name-500': { quiet: ['browse', 'adopt'] },
  'control-character-name-500': { quiet: ['browse', 'adopt'] },
  'int64-min-category-500': { quiet: ['browse', 'adopt'] },
  'extra-fields-500': { quiet: ['browse', 'adopt'] },
  'missing-key-accepted': { quiet: ['browse'] },
  'basic-scheme-accepted': { quiet: ['browse'] },
  'unauthorised-403': { quiet: ['browse'] },
  'error-without-code': { quiet: ['browse'] },
  'error-status-mismatch': { quiet: ['browse'] },
  'error-as-plain-text': { quiet: ['browse'] },
  'list-as-text-plain': { quiet: [] },
  'get-body-not-json': { quiet: [] },
  'rate-limit-header-dropped': { quiet: [] },
  'rate-limit-headers-missing-on-errors': { quiet: [] },
  'rate-limit-reset-in-ms': { quiet: [] },
  'rate-limit-reset-as-delay': { quiet: [] },
  'rate-limit-remaining-above-limit': { quiet: [] },
  'free-limit-misreported': { quiet: [] },
  'rate-limit-remaining-frozen': { quiet: ['lost'] },
  'server-error-on-pending': { quiet: [] },
  'connection-reset-on-unknown-id': { quiet: [], cutOverHttp: true },
  'retry-after-missing': { quiet: ['view'], full: ['burst'] },
  'retry-after-garbage': { quiet: ['view'], full: ['burst'] },
  'keyless-requests-counted': { quiet: ['browse'] },
  'unknown-status-500': { quiet: ['browse'] },
  'array-body-500': { quiet: ['browse', 'adopt'] },
  'malformed-json-500': { quiet: ['browse', 'adopt'] },
  'listing-renames-created-pets': { quiet: ['browse'] },
};

/** The mutants whose rule the proxy judges: every one with `--plan` given where it needs one. */
function judgedByProxy(mutant: Mutant): boolean {
  return passiveObservers(mutant.runAs?.plan ?? 'free').some((check) => check.id === mutant.expect);
}

/**
 * The fake's HTTP door turns a handler's network error (`Response.error()`, how the in-process
 * mutant cuts the connection) into a 500; in front of it, this cuts the client's connection
 * instead, as the mutant does in process.
 */
async function cuttingDoor(onFinished: OnFinished, target: FakeTarget): Promise<string> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type'])
      if (request.headers[name] !== undefined) headers[name] = String(request.headers[name]);
    const answer = await fetch(`${target.baseUrl.replace(/\/v1$/, '')}${request.url ?? '/'}`, {
      method: request.method ?? 'GET',
      headers,
      ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
    });
    if (answer.status === 500) {
      request.socket.destroy();
      return;
    }
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  onFinished(() => {
    server.close();
  });
  return `http://127.0.0.1:${port}/v1`;
}

/** Registers what to undo when the test ends (each test its own: they run side by side). */
type OnFinished = (undo: () => void | Promise<void>) => void;

/** The fake's HTTP door with a mutant's wrapper, closed when the test ends. */
async function mutantDoor(onFinished: OnFinished, options: FakeTargetOptions): Promise<FakeTarget> {
  const target = await httpFakeTarget({ virtualTime: false, ...options });
  onFinished(() => target.close());
  return target;
}

/** `petstore-contract proxy` in front of `target`, started as a user starts it. */
async function proxyFor(onFinished: OnFinished, target: string, extra: readonly string[] = []) {
  const { PETSTORE_API_KEY: _, ...env } = process.env;
  const child = spawn(
    process.execPath,
    [cliPath, 'proxy', '--target', target, '--port', '0', ...extra],
    { env },
  );
  onFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const banner = /proxy: (http:\/\/127\.0\.0\.1:\d+\/v1) -> /;
  for (let waited = 0; !banner.test(stdout); waited += 25) {
    if (waited > 20_000 || child.exitCode !== null) throw new Error(`no banner: ${stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const baseUrl = banner.exec(stdout)?.[1] as string;
  return {
    baseUrl,
    /** The verdicts so far, from the proxy's own report (`GET /__contract/report?format=json`). */
    async report(): Promise<{ id: string; status: string; skip?: string }[]> {
      const answer = await fetch(`${baseUrl.replace(/\/v1$/, '')}/__contract/report?format=json`);
      return ((await answer.json()) as { results: { id: string; status: string }[] }).results;
    },
    async stop() {
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return { code, stdout };
    },
  };
}

test('every mutant whose rule one exchange can show has a case here', () => {
  const judged = mutants.filter(judgedByProxy).map((mutant) => mutant.name);
  expect(judged.filter((name) => cases[name] === undefined)).toEqual([]);
  expect(Object.keys(cases).filter((name) => !judged.includes(name))).toEqual([]);
  // The active-only checks are judged on the proxy too, not only the every-response observers.
  expect(judged.length).toBeGreaterThanOrEqual(40);
});

for (const mutant of mutants.filter(judgedByProxy)) {
  const traffic = cases[mutant.name] ?? { quiet: [] };
  // Side by side (each with its own fake and proxy): the proxy's start is most of each test.
  test.concurrent(`proxy in front of ${mutant.name}: ${mutant.expect} not exercised by traffic that does not meet it, then ${mutant.advisory ? 'warned' : 'caught'}`, async ({
    expect,
    onTestFinished,
  }) => {
    const target = await mutantDoor(onTestFinished, {
      ...(mutant.fake === undefined ? {} : { fake: mutant.fake }),
      wrap: mutant.wrap,
    });
    const door = traffic.cutOverHttp ? await cuttingDoor(onTestFinished, target) : undefined;
    const key =
      mutant.runAs?.apiKey ?? (mutant.rateLimits ? smallWindowKey : 'enterprise-demo-key');
    const proxy = await proxyFor(
      onTestFinished,
      door ?? target.baseUrl,
      mutant.runAs === undefined ? [] : ['--plan', mutant.runAs.plan],
    );
    const play = app(proxy.baseUrl, key);

    await play(traffic.quiet);
    const quiet = (await proxy.report()).find((result) => result.id === mutant.expect);
    expect(quiet).toMatchObject({ status: 'skip', skip: 'not-exercised' });

    if (mutant.expect === 'rateLimit.remainingDecreases') await clearOfMinuteEnd();
    await play(traffic.full ?? everything);
    const { code, stdout } = await proxy.stop();
    if (mutant.advisory) {
      expect(stdout).toMatch(new RegExp(`^ {2}warn {2}${mutant.expect.replace('.', '\\.')} `, 'm'));
      return;
    }
    // The rule is broken whether it leads a finding or is listed under another rule's.
    expect(brokenRulesIn(stdout)).toContain(mutant.expect);
    expect(code).toBe(1);
  });
}

test("the issue's example: an app asks limit=3, the server returns 4 pets, the proxy exits 1 naming the rule", async ({
  onTestFinished,
}) => {
  // One pet more than asked (GET /pets, query limit: "Maximum number of animals returned").
  const onePetTooMany = before('listPets', (call) =>
    withQuery(call, (query) => {
      const limit = query.get('limit');
      if (limit !== null) query.set('limit', String(Number(limit) + 1));
    }),
  );
  const target = await mutantDoor(onTestFinished, { wrap: onePetTooMany });
  const proxy = await proxyFor(onTestFinished, target.baseUrl);
  const answer = await fetch(`${proxy.baseUrl}/pets?limit=3`, {
    headers: { Authorization: 'Bearer enterprise-demo-key' },
  });
  expect(((await answer.json()) as unknown[]).length).toBe(4);
  const { code, stdout } = await proxy.stop();
  expect(code).toBe(1);
  expect(stdout).toMatch(/^ {2}FAIL {2}listPets\.limitRespected +returns at most `limit` pets/m);
  expect(stdout).toContain('limit=3 returned 4 pets');
  expect(stdout).toContain('rule: GET /pets, query limit (minimum 1, maximum 100)');
  expect(stdout).not.toMatch(/no rule seen broken/);
});

test('a rule the traffic gave no evidence for is "not exercised", never "could not run", and the counts say so', async ({
  onTestFinished,
}) => {
  const target = await mutantDoor(onTestFinished, {});
  const proxy = await proxyFor(onTestFinished, target.baseUrl);
  // One listing: nothing compares Remaining across requests, nothing creates a pet.
  await app(proxy.baseUrl, 'enterprise-demo-key')(['lost']);
  const { code, stdout } = await proxy.stop();
  expect(code).toBe(0);
  expect(stdout).not.toMatch(/could not run/);
  expect(stdout).toMatch(/skip {2}rateLimit\.remainingDecreases .*\n +not exercised: /);
  const skipped = [...stdout.matchAll(/^ {2}skip {2}/gm)].length;
  expect(stdout).toContain(`, ${skipped} not exercised`);
  expect(stdout).toMatch(/no rule seen broken in 1 exchange \(checks not exercised/);
});
