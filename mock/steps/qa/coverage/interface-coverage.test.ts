import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { coverageCtrf, coverageJunit, coverageMarkdown } from './coverage-formats.ts';
import { coverageItems, ruleItems } from './coverage-items.ts';
import { type CoverageExchange, createCoverageRecorder } from './interface-coverage.ts';

const schema = JSON.parse(readFileSync('docs/coverage.schema.json', 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

function exchange(
  fields: Partial<Omit<CoverageExchange, 'header' | 'query'>> & {
    headers?: Record<string, string>;
    query?: string;
  },
): CoverageExchange {
  const headers = new Map(
    Object.entries(fields.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  return {
    operationId: 'listPets',
    method: 'GET',
    path: `/v1/pets${fields.query === undefined ? '' : `?${fields.query}`}`,
    status: 200,
    errorBody: false,
    at: Date.parse('2026-06-01T12:00:00Z'),
    ...fields,
    query: new URLSearchParams(fields.query ?? ''),
    header: (name) => headers.get(name.toLowerCase()),
  };
}

test('the status items are every operation x status petstore.yaml lists without x-not-in-interface: those of the interface', () => {
  const document = parse(readFileSync('openapi/petstore.yaml', 'utf8')) as {
    paths: Record<
      string,
      Record<string, { operationId: string; responses: Record<string, { $ref?: string }> }>
    >;
    components: { responses: Record<string, { 'x-not-in-interface'?: boolean }> };
  };
  const marked = (response: { $ref?: string }) =>
    document.components.responses[response.$ref?.split('/').at(-1) ?? '']?.[
      'x-not-in-interface'
    ] === true;
  const listed = Object.values(document.paths).flatMap((methods) =>
    Object.values(methods).flatMap((operation) =>
      Object.entries(operation.responses)
        .filter(([, response]) => !marked(response))
        .map(([status]) => `${operation.operationId} ${status}`),
    ),
  );
  const statusIds = coverageItems.filter((item) => item.kind === 'status').map((item) => item.id);
  expect(statusIds.sort()).toEqual(listed.sort());
  // The interface's tables: each operation's Responses, and 429 on every endpoint (Errors).
  expect(statusIds.sort()).toEqual(
    [
      'listPets 200',
      'listPets 401',
      'listPets 429',
      'createPet 201',
      'createPet 400',
      'createPet 401',
      'createPet 429',
      'getPet 200',
      'getPet 401',
      'getPet 404',
      'getPet 429',
    ].sort(),
  );
});

test('the rule items in code are the ones openapi/interface.md lists under "Coverage items"', () => {
  const text = readFileSync('openapi/interface.md', 'utf8');
  const section = text.slice(text.indexOf('\n## Coverage items'));
  const listed = [...section.matchAll(/^\| `([A-Za-z.]+)` \|/gm)].map((match) => match[1]);
  expect(listed.length).toBeGreaterThan(5);
  expect(ruleItems.map((item) => item.id)).toEqual(listed);
});

test('a 429 with Retry-After, then a request before it passed and one after, exercise the ban and the honoured retry', () => {
  const recorder = createCoverageRecorder();
  const t0 = Date.parse('2026-06-01T12:00:00Z');
  const limited = {
    'Retry-After': '60',
    'X-RateLimit-Limit': '3',
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': '1780315260',
  };
  expect(
    recorder.see(exchange({ status: 429, headers: limited, keyId: 'demo-free', at: t0 })),
  ).toEqual(
    expect.arrayContaining([
      'listPets 429',
      'limits.retryAfter',
      'headers.rateLimit',
      'headers.rateLimitReset',
      'listPets.defaultPage',
    ]),
  );
  expect(
    recorder.see(exchange({ status: 429, headers: limited, keyId: 'demo-free', at: t0 + 1000 })),
  ).toContain('limits.ban');
  const honoured = recorder.see(exchange({ keyId: 'demo-free', at: t0 + 62_000 }));
  expect(honoured).toContain('limits.retryAfterHonoured');
  expect(honoured).not.toContain('limits.ban');
  // Another key's 429 says nothing about this key's retries.
  expect(recorder.see(exchange({ keyId: 'demo-pro', at: t0 + 63_000 }))).not.toContain(
    'limits.retryAfterHonoured',
  );
  const record = recorder.record('fake', t0 + 70_000);
  const ban = record.items.find((item) => item.id === 'limits.ban');
  expect(ban).toMatchObject({
    status: 'exercised',
    count: 1,
    first: { status: 429, keyId: 'demo-free' },
  });
  expect(record.items.find((item) => item.id === 'getPet 404')).toMatchObject({
    status: 'not-exercised',
    count: 0,
  });
  expect(record.summary.exchanges).toBe(4);
});

test('listPets page bounds count limit 1 and 100 and values outside them, not limits in between', () => {
  const recorder = createCoverageRecorder();
  expect(recorder.see(exchange({ query: 'limit=50' }))).not.toContain('listPets.pageBounds');
  expect(recorder.see(exchange({ query: 'limit=100' }))).toContain('listPets.pageBounds');
  expect(recorder.see(exchange({ query: 'limit=0', status: 400 }))).toContain(
    'listPets.pageBounds',
  );
  expect(recorder.see(exchange({ query: 'status=sold' }))).toEqual([
    'listPets 200',
    'listPets.defaultPage',
    'listPets.statusFilter',
  ]);
});

test('a record validates against docs/coverage.schema.json, and a broken one does not', () => {
  const recorder = createCoverageRecorder();
  recorder.see(
    exchange({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer' },
      errorBody: true,
      clientId: 'web',
    }),
  );
  recorder.see(
    exchange({
      operationId: 'getPet',
      path: '/v1/pets/7',
      status: 404,
      errorBody: true,
      headers: { Deprecation: '@1', Sunset: 'x', Link: 'y' },
    }),
  );
  const record = recorder.record(
    'harness',
    Date.now(),
    new Map([['createPet 201', 'writes are off (--read-only)']]),
  );
  expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
  expect(record.items.find((item) => item.id === 'createPet 201')).toMatchObject({
    status: 'skipped',
    reason: 'writes are off (--read-only)',
  });
  expect(record.summary).toMatchObject({ skipped: 1, exercised: 6 });
  const broken = { ...record, items: [{ ...record.items[0], status: 'exercised', count: 0 }] };
  expect(validate(broken)).toBe(false);
});

test('senders per item are bounded and sorted by count', () => {
  const recorder = createCoverageRecorder();
  recorder.see(exchange({ clientId: 'busy', keyId: 'k' }));
  for (let i = 0; i < 200; i++) recorder.see(exchange({ clientId: `client-${i}`, keyId: 'k' }));
  for (let i = 0; i < 2; i++) recorder.see(exchange({ clientId: 'busy', keyId: 'k' }));
  const item = recorder.record('fake', Date.now()).items.find((each) => each.id === 'listPets 200');
  expect(item?.count).toBe(203);
  expect(item?.by.length).toBe(20);
  expect(item?.by[0]).toEqual({ keyId: 'k', clientId: 'busy', count: 3 });
});

test('Markdown, JUnit and CTRF say exercised, skipped and not exercised as pass, skip and fail', () => {
  const recorder = createCoverageRecorder();
  recorder.see(exchange({ keyId: 'demo-free', clientId: 'a|b' }));
  const record = recorder.record(
    'proxy',
    Date.parse('2026-06-01T12:00:00Z'),
    new Map([['limits.ban', 'no <ban> check']]),
  );
  const markdown = coverageMarkdown(record);
  expect(markdown).toContain(
    '| `listPets 200` GET /pets answered 200 | exercised | 1 | GET /v1/pets 200 (key demo-free, client "a\\|b") |',
  );
  expect(markdown).toContain(
    '| `getPet 404` GET /pets/{petId} answered 404 | **not exercised** | 0 |  |',
  );
  const junit = coverageJunit(record);
  expect(junit).toContain(
    `tests="${record.items.length}" failures="${record.summary.notExercised}" skipped="1"`,
  );
  expect(junit).toContain('<skipped message="no &lt;ban&gt; check"/>');
  expect(junit).toContain(
    'name="getPet 404" time="0"><failure message="not exercised: GET /pets/{petId} answered 404"',
  );
  const ctrf = coverageCtrf(record);
  expect(ctrf.results.summary).toEqual({
    tests: record.items.length,
    passed: 2,
    failed: record.items.length - 3,
    skipped: 1,
    pending: 0,
    other: 0,
    start: Date.parse('2026-06-01T12:00:00Z'),
    stop: Date.parse('2026-06-01T12:00:00Z'),
  });
  expect(ctrf.results.tests.find((t) => t.name === 'limits.ban')).toMatchObject({
    status: 'skipped',
    duration: 0,
  });
});

test('a record counts what see() returned, however often the same exchange repeats (seed 2026)', () => {
  const statuses = [200, 401, 429, 404];
  const senders = [
    { keyId: 'demo-free', clientId: 'web' },
    { keyId: 'demo-free', clientId: 'cli' },
    { keyId: 'demo-pro', clientId: 'web' },
    { clientId: 'anon' },
  ];
  const headers = {
    'X-RateLimit-Limit': '60',
    'X-RateLimit-Remaining': '1',
    'X-RateLimit-Reset': '1780000000',
  };
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          operationId: fc.constantFrom('listPets', 'getPet', undefined),
          status: fc.constantFrom(...statuses),
          sender: fc.constantFrom(...senders),
          withHeaders: fc.boolean(),
          repeat: fc.integer({ min: 1, max: 4 }),
        }),
        { maxLength: 40 },
      ),
      (plan) => {
        const recorder = createCoverageRecorder();
        const expected = new Map<
          string,
          {
            count: number;
            first: number;
            last: number;
            lastStatus: number;
            by: Map<string, number>;
          }
        >();
        let at = Date.parse('2026-06-01T12:00:00Z');
        for (const step of plan)
          for (let again = 0; again < step.repeat; again += 1) {
            at += 1000;
            const ids = recorder.see(
              exchange({
                operationId: step.operationId,
                status: step.status,
                errorBody: step.status >= 400,
                at,
                ...step.sender,
                ...(step.withHeaders ? { headers } : {}),
              }),
            );
            const who = `${step.sender.keyId ?? ''}/${step.sender.clientId}`;
            for (const id of ids) {
              const seen = expected.get(id) ?? {
                count: 0,
                first: at,
                last: at,
                lastStatus: step.status,
                by: new Map(),
              };
              seen.count += 1;
              seen.last = at;
              seen.lastStatus = step.status;
              seen.by.set(who, (seen.by.get(who) ?? 0) + 1);
              expected.set(id, seen);
            }
          }
        const record = recorder.record('fake', at);
        for (const item of record.items) {
          const seen = expected.get(item.id);
          expect(item.count).toBe(seen?.count ?? 0);
          if (seen === undefined) continue;
          expect(item.first?.at).toBe(new Date(seen.first).toISOString());
          expect(item.last?.at).toBe(new Date(seen.last).toISOString());
          expect(item.last?.status).toBe(seen.lastStatus);
          const by = new Map(
            item.by.map((sender) => [`${sender.keyId ?? ''}/${sender.clientId}`, sender.count]),
          );
          expect(by).toEqual(seen.by);
        }
      },
    ),
    { seed: 2026, numRuns: 200 },
  );
});
