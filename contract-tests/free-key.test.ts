/**
 * A Free key's run, as CI and QA ask for it: every request draws from one key window, so with
 * `--rate-limits` the conformance checks run first and the window phase spends only what is
 * left (Remaining + 1 refused + 1 after Retry-After). The fake's clock is pinned to the start of
 * a minute and frozen: the harness's waits move it, nothing else does.
 */
import { expect, test } from 'vitest';
import { mutants } from '../test/harness-fixtures/mutants/catalogue.ts';
import {
  after,
  before,
  safeParse,
  withQuery,
} from '../test/harness-fixtures/mutants/fault-helpers.ts';
import { rebuild } from '../test/harness-fixtures/mutants/intercept.ts';
import type { Mutant } from '../test/harness-fixtures/mutants/mutant.ts';
import { pageSize, petStatuses } from './contract/interface-facts.ts';
import type { Exchange } from './http/exchange.ts';
import { failedIds, type SuiteResult } from './runner/results.ts';
import { createRunClient } from './runner/run-client.ts';
import { runSuite } from './runner/run-suite.ts';
import { directFakeTarget } from './targets/fake-target.ts';

const startOfMinute = Date.UTC(2026, 5, 1, 12, 0, 0);

/** The fake behind `wrap`, with the Free demo key, seen as a remote server that allows writes. */
async function freeKeyRun(options: {
  seed: number;
  rateLimits: boolean;
  wrap?: Mutant['wrap'];
  /** Default true (`--allow-writes`); false is the read-only run CI points at staging. */
  writes?: boolean;
  onExchange?: (exchange: Exchange) => void;
}) {
  const target = await directFakeTarget({
    apiKey: 'free-demo-key',
    ...(options.wrap === undefined ? {} : { wrap: options.wrap }),
  });
  target.fake.control.freezeTime(true);
  target.fake.control.setTime(startOfMinute);
  try {
    return await runSuite({
      client: createRunClient(
        { ...target, loopback: false },
        {
          seed: options.seed,
          ...(options.onExchange === undefined ? {} : { onExchange: options.onExchange }),
        },
      ),
      writes: options.writes ?? true,
      rateLimits: options.rateLimits,
    });
  } finally {
    await target.close();
  }
}

/**
 * Requests the run sends without a valid key at one run (the auth checks' 7, errors.largeRequests'
 * 3): no window counts them.
 */
const withoutKey = 10;

/**
 * A default run's traffic fits a Free key's minute: at most 60 requests with the key (the
 * preflight's included), and on top of them at most the 10 requests without a valid key at one
 * run (the auth checks', errors.largeRequests'), which the key's window does not count (interface, Limits;
 * rateLimit.othersNotCounted checks it).
 */
function expectFreeMinute(result: SuiteResult, seed?: number) {
  expect(result.keyRequests, `seed ${seed}`).toBeLessThanOrEqual(60);
  expect(result.requests, `seed ${seed}`).toBeLessThanOrEqual(60 + withoutKey);
}

test('with --allow-writes --rate-limits a Free key runs every check, one 429, at most 63 requests with the key', async () => {
  for (const seed of [1, 2, 3]) {
    const result = await freeKeyRun({ seed, rateLimits: true });
    expect(failedIds(result, true)).toEqual([]);
    const skipped = result.results.filter((check) => check.status === 'skip');
    // Only the opt-in checks this run did not ask for (--plan, --via-prism) are not run.
    expect(skipped.map((check) => [check.id, check.skip])).toEqual([
      ['rateLimit.keysIndependent', 'not-selected'],
      ['rateLimit.planLimits', 'not-selected'],
      ['prism.exchangesValid', 'not-selected'],
    ]);
    expect(result.keyRequests).toBeLessThanOrEqual(63);
    expect(result.requests - result.keyRequests).toBeLessThanOrEqual(withoutKey);
    expect(result.answered429).toBe(1);
    expect(result.runs).toBe(1);
  }
});

test('without --rate-limits a Free key runs every default check in 60 requests with the key at most, no 429', async () => {
  const result = await freeKeyRun({ seed: 4, rateLimits: false });
  expect(result.results.filter((check) => check.skip === 'could-not-run')).toEqual([]);
  expect(result.results.find((check) => check.id === 'createPet.concurrentCreates')?.status).toBe(
    'pass',
  );
  expectFreeMinute(result);
  expect(result.answered429).toBe(0);
});

const rateLimitFaults = [
  'limit-not-enforced',
  'retry-after-missing',
  'retry-after-garbage',
  'banned-despite-honouring',
];

for (const name of rateLimitFaults) {
  test(`a Free-key --rate-limits run catches ${name} within 63 requests with the key`, async () => {
    const fault = mutants.find((mutant) => mutant.name === name);
    if (fault === undefined) throw new Error(`no mutant ${name}`);
    const result = await freeKeyRun({ seed: 5, rateLimits: true, wrap: fault.wrap });
    expect(failedIds(result)).toContain(fault.expect);
    expect(result.keyRequests).toBeLessThanOrEqual(63);
  });
}

const edgeFaults = [
  'non-ascii-name-500',
  'control-character-name-500',
  'int64-min-category-500',
  'long-names-truncated',
  'category-id-rounded',
];

// At one run per property, a server that fails only on an edge class is caught on every seed.
for (const name of edgeFaults) {
  test(`at one run per property, ${name} is caught whatever the seed`, async () => {
    const fault = mutants.find((mutant) => mutant.name === name);
    if (fault === undefined) throw new Error(`no mutant ${name}`);
    for (let seed = 1; seed <= 8; seed++) {
      const result = await freeKeyRun({ seed, rateLimits: false, wrap: fault.wrap });
      expect(result.runs).toBe(1);
      expect(failedIds(result), `seed ${seed}`).toContain(fault.expect);
    }
  });
}

// A realistic query-builder bug, the status filter dropped whenever limit is
// also given. The pinned examples pair each status with the limit edge classes, so the default
// Free-key run (one run per property) catches it on every seed, in listPets.statusFilter itself.
test("at one run per property, a server that ignores status when limit is present is caught by listPets.statusFilter whatever the seed, in a Free key's minute", async () => {
  const statusIgnoredWithLimit = before('listPets', (call) =>
    withQuery(call, (query) => {
      if (query.has('limit')) query.delete('status');
    }),
  );
  for (let seed = 1; seed <= 8; seed++) {
    const result = await freeKeyRun({ seed, rateLimits: false, wrap: statusIgnoredWithLimit });
    expect(result.runs).toBe(1);
    expect(failedIds(result), `seed ${seed}`).toContain('listPets.statusFilter');
    expectFreeMinute(result, seed);
  }
});

/** `status/limit` of a GET /pets (`-` for a parameter not sent). */
function cellOf(path: string): string | undefined {
  const url = new URL(path, 'http://pet.store');
  if (url.pathname !== '/pets') return undefined;
  return `${url.searchParams.get('status') ?? '-'}/${url.searchParams.get('limit') ?? '-'}`;
}

const limitClasses = [undefined, pageSize.min, pageSize.default, pageSize.max];
const everyCell = [undefined, ...petStatuses].flatMap((status) =>
  limitClasses.map((limit) => `${status ?? '-'}/${limit ?? '-'}`),
);

// The default run sends every status (or none) with every limit edge class
// (omitted, 1, 20, 100), with the key, in a Free key's minute, read-only or writing; the status
// filter is checked on every such answer (listPets.statusFilter, and createPet.refusedLeavesNoPet
// for limit 100 when writing).
for (const writes of [true, false]) {
  test(`a default Free-key run ${writes ? 'with writes' : 'read-only'} sends all 16 status x limit pairs with the key, whatever the seed`, async () => {
    for (let seed = 1; seed <= 4; seed++) {
      const sent = new Set<string>();
      const result = await freeKeyRun({
        seed,
        rateLimits: false,
        writes,
        onExchange(exchange) {
          const cell = cellOf(exchange.spec.path);
          if (
            cell !== undefined &&
            exchange.spec.auth === 'key' &&
            exchange.response?.status === 200
          )
            sent.add(cell);
        },
      });
      expect(failedIds(result), `seed ${seed}`).toEqual([]);
      expect(
        everyCell.filter((cell) => !sent.has(cell)),
        `seed ${seed}`,
      ).toEqual([]);
      expectFreeMinute(result, seed);
    }
  });
}

// A server that drops status at one limit edge class only: each is caught in the default run,
// read-only or writing, on every seed, by listPets.statusFilter (limit 100 while writing in
// createPet.refusedLeavesNoPet's listings, which the filter's judge holds too).
for (const limit of limitClasses)
  for (const writes of [true, false])
    test(`a server that ignores status only when limit is ${limit ?? 'omitted'} is caught in a default Free-key run ${writes ? 'with writes' : 'read-only'}, whatever the seed`, async () => {
      const statusIgnored = before('listPets', (call) =>
        withQuery(call, (query) => {
          if (
            (query.get('limit') ?? undefined) === (limit === undefined ? undefined : String(limit))
          )
            query.delete('status');
        }),
      );
      for (let seed = 1; seed <= 8; seed++) {
        const result = await freeKeyRun({ seed, rateLimits: false, writes, wrap: statusIgnored });
        expect(failedIds(result), `seed ${seed}`).toEqual(['listPets.statusFilter']);
        const seenIn = result.results.find((check) => check.id === 'listPets.statusFilter')?.failure
          ?.seenIn;
        if (writes && limit === pageSize.max)
          expect(seenIn, `seed ${seed}`).toBe('createPet.refusedLeavesNoPet');
        else expect(seenIn, `seed ${seed}`).toBeUndefined();
        expectFreeMinute(result, seed);
      }
    });

// The malformed-header examples go to different operations: a server whose POST route reads the
// header apart (here: any scheme before the key is accepted) fails in the default run too.
test('at one run per property, a server that takes "Basic <key>" on POST /pets is caught by auth.malformedHeader whatever the seed', async () => {
  const basicAcceptedOnCreate = before('createPet', (call) => {
    const header = call.request.headers.get('Authorization') ?? '';
    if (!header.startsWith('Basic ')) return call.request;
    const headers = new Headers(call.request.headers);
    headers.set('Authorization', `Bearer ${header.slice('Basic '.length)}`);
    return rebuild(call.request, { headers, body: call.body });
  });
  for (let seed = 1; seed <= 8; seed++) {
    const result = await freeKeyRun({ seed, rateLimits: false, wrap: basicAcceptedOnCreate });
    expect(result.runs).toBe(1);
    expect(failedIds(result), `seed ${seed}`).toContain('auth.malformedHeader');
  }
});

/** The answer as a query builder that throws would give it: 500, an Error body, the same headers. */
function serverError(response: Response): Response {
  const body = { code: 'internal_error', message: 'query failed', status: 500 };
  return new Response(JSON.stringify(body), { status: 500, headers: response.headers });
}

// The other listPets properties pair their parameters too: a server whose paged path (limit
// given) fails on an unknown status, or whose filtered path (status given) fails on a limit out
// of range, is caught in the default run, in the property that sends the pair (before, neither
// property ever sent the second parameter at one run per property: missed on every seed).
const listPetsPairFaults: readonly {
  readonly name: string;
  readonly expect: string;
  readonly fails: (query: URLSearchParams) => boolean;
}[] = [
  {
    name: 'an unknown status answered 500 when limit is given',
    expect: 'listPets.unknownStatus',
    fails: (query) =>
      query.has('limit') &&
      query.has('status') &&
      !(petStatuses as readonly string[]).includes(query.get('status') ?? ''),
  },
  {
    name: 'a limit out of range answered 500 when status is given',
    expect: 'listPets.limitOutOfRange',
    fails: (query) => {
      const limit = Number(query.get('limit'));
      return (
        query.has('status') && query.has('limit') && (limit < pageSize.min || limit > pageSize.max)
      );
    },
  },
];

for (const fault of listPetsPairFaults) {
  test(`at one run per property, ${fault.name} is caught by ${fault.expect} whatever the seed, in a Free key's minute`, async () => {
    const wrap = after((response, call) =>
      call.operation === 'listPets' && fault.fails(call.url.searchParams)
        ? serverError(response)
        : response,
    );
    for (let seed = 1; seed <= 8; seed++) {
      const result = await freeKeyRun({ seed, rateLimits: false, wrap });
      expect(result.runs).toBe(1);
      expect(failedIds(result), `seed ${seed}`).toContain(fault.expect);
      expectFreeMinute(result, seed);
    }
  });
}

// createPet's refused bodies pair the broken field with a status: a server that validates only
// bodies without a status (here: answers 201 to any body with a PetStatus) fails both checks in
// the default run (before, their examples sent no valid status: missed on every seed).
test('at one run per property, a server that skips validation when status is given is caught by createPet.requiredFields and createPet.invalidValues whatever the seed', async () => {
  const unvalidatedWithStatus = after((response, call) => {
    if (call.operation !== 'createPet' || response.status !== 400) return response;
    const body = safeParse(call.body);
    const status = (body as { status?: unknown } | undefined)?.status;
    if (typeof status !== 'string' || !(petStatuses as readonly string[]).includes(status))
      return response;
    const created = { id: 900_001, ...(body as object) };
    return new Response(JSON.stringify(created), { status: 201, headers: response.headers });
  });
  for (let seed = 1; seed <= 8; seed++) {
    const result = await freeKeyRun({ seed, rateLimits: false, wrap: unvalidatedWithStatus });
    expect(result.runs).toBe(1);
    expect(failedIds(result), `seed ${seed}`).toEqual(
      expect.arrayContaining(['createPet.requiredFields', 'createPet.invalidValues']),
    );
    expectFreeMinute(result, seed);
  }
});
