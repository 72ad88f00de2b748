/**
 * The CLI, run as a user runs it, against servers that misbehave: slow, dropping
 * connections, 5xx storms, endless 429s, garbage headers, bodies that are not JSON, no HTTP at
 * all. Whatever the server does, the run ends within its budget and a time limit set by the flags
 * it was given, exits 1 (a rule broken) or 2 (no verdict) with a message naming the tool, never
 * crashes, never prints the key, and never retries a 429 sooner than Retry-After allows.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExpectStatic, type TestContext, test } from 'vitest';
import type { BadServer } from '../test/harness-fixtures/bad-servers/bad-server.ts';
import { startClosingServer } from '../test/harness-fixtures/bad-servers/closing-server.ts';
import { startEchoKeyServer } from '../test/harness-fixtures/bad-servers/echo-key-server.ts';
import { startErrorStorm } from '../test/harness-fixtures/bad-servers/error-storm-server.ts';
import { startGarbageServer } from '../test/harness-fixtures/bad-servers/garbage-server.ts';
import { startHugeBodyServer } from '../test/harness-fixtures/bad-servers/huge-body-server.ts';
import { startNotHttpServer } from '../test/harness-fixtures/bad-servers/not-http-server.ts';
import { startResettingServer } from '../test/harness-fixtures/bad-servers/resetting-server.ts';
import { startSlowServer } from '../test/harness-fixtures/bad-servers/slow-server.ts';
import {
  type Refusal,
  startThrottlingServer,
} from '../test/harness-fixtures/bad-servers/throttling-server.ts';
import { brokenRuleMessage, type CliRun, runCli } from '../test/support/contract-cli-process.ts';

const key = 'bad-servers-key-7c1e9a42';
/** What a run may take beyond its waits, from its first request to its exit. */
const overheadMs = 2_000;
/** Longest a whole case may take, Node's start-up on a busy 2-core machine included. */
const caseLimitMs = 20_000;
/** Scheduling slack allowed when comparing a retry's arrival with what Retry-After allowed. */
const slackMs = 50;
/** The client's documented backoff after the n-th 429 of a request (README: 1 s, 2 s, 4 s). */
const backoffMs = [1000, 2000, 4000];

/** One bad server and the flags the CLI is run with against it. */
interface Case {
  readonly server: BadServer;
  readonly budget: number;
  /**
   * `--timeout`. Generous by default: the first answer of a server that misbehaves only later
   * must not time out while the machine is busy starting the other cases' CLIs.
   */
  readonly timeoutMs?: number;
  /**
   * The longest the flags let the run wait (timeouts x budget, Retry-After, backoff); the run must
   * end within this plus `overheadMs` of its first request. Servers that answer at once have none.
   */
  readonly waitsMs?: number;
  /**
   * `--only`: a budget this small cannot hold every check (the run would refuse to start), so a
   * case that wants findings narrows the run to checks that fit.
   */
  readonly only?: string;
}

/** Runs the CLI against a case's server as a user would; closes the server when the test ends. */
async function runAgainst(
  onTestFinished: TestContext['onTestFinished'],
  { server, budget, timeoutMs = 2000, only }: Case,
): Promise<CliRun> {
  onTestFinished(() => server.close());
  const args = ['--base-url', server.baseUrl, '--budget', String(budget)];
  if (only !== undefined) args.push('--only', only);
  args.push('--timeout', String(timeoutMs), '--seed', '11');
  return runCli(args, { PETSTORE_API_KEY: key }, { killAfterMs: 25_000 });
}

/**
 * What every run against a bad server owes its user: it ended by itself, in time, within the
 * budget, with exit `code` and a message naming the tool, no crash and no key in sight.
 */
function expectOrderlyEnd(expect: ExpectStatic, run: CliRun, code: 1 | 2, spec: Case): void {
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.killed, `the CLI was still running after 25 s:\n${output}`).toBe(false);
  expect(run.code, output).toBe(code);
  expect(run.durationMs).toBeLessThan(caseLimitMs);
  // Start-up time depends on the machine's load, not on the server: time from the first request.
  const firstRequest = spec.server.arrivals[0]?.at ?? run.endedAt;
  expect(run.endedAt - firstRequest).toBeLessThan((spec.waitsMs ?? 0) + overheadMs);
  expect(spec.server.arrivals.length).toBeLessThanOrEqual(spec.budget);
  // No stack trace, no unhandled rejection, no "please report" from the harness.
  expect(output).not.toMatch(/\n\s+at \S|Unhandled|internal error|harness error|Node\.js v\d/);
  expect(output).not.toContain(key);
  for (const line of run.stderr.split('\n').filter((line) => line !== ''))
    expect(line).toMatch(/^petstore-contract: /);
  if (code === 1)
    expect(run.stdout).toContain('petstore-contract: the server breaks the interface');
  else expect(run.stderr).toMatch(/^petstore-contract: /);
}

/**
 * Asserts that every request after a 429 arrived no sooner than that 429's Retry-After allowed,
 * nor sooner than the client's backoff (`allowedAfter` reads the time a header allowed from its text).
 */
function expectHonouredRefusals(
  expect: ExpectStatic,
  server: { readonly arrivals: readonly { at: number }[]; readonly refusals: readonly Refusal[] },
  allowedAfter: (refusal: Refusal) => number | undefined,
): void {
  const { arrivals, refusals } = server;
  expect(arrivals.length).toBeGreaterThan(1);
  expect(refusals).toHaveLength(arrivals.length);
  for (let index = 1; index < arrivals.length; index++) {
    const refusal = refusals[index - 1];
    const arrival = arrivals[index];
    if (refusal === undefined || arrival === undefined) continue;
    const byHeader = allowedAfter(refusal) ?? refusal.at;
    const byBackoff = refusal.at + (backoffMs[index - 1] ?? 0);
    expect(arrival.at, `request ${index + 1}`).toBeGreaterThanOrEqual(
      Math.max(byHeader, byBackoff) - slackMs,
    );
  }
}

test.concurrent('a server slower than --timeout: one timed-out request, exit 2 saying so', async ({
  expect,
  onTestFinished,
}) => {
  const spec = {
    server: await startSlowServer({ mode: 'late', delayMs: 5000 }),
    budget: 5,
    timeoutMs: 300,
    waitsMs: 5 * 300,
  };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(run.stderr).toMatch(
    /cannot reach http:\S+\/v1\/pets: no answer within 300 ms \(--timeout\)/,
  );
  expect(spec.server.arrivals).toHaveLength(1);
});

test.concurrent('a server that stalls mid-body after its first answer: the timeouts are findings, exit 1', async ({
  expect,
  onTestFinished,
}) => {
  const spec = {
    server: await startSlowServer({ mode: 'stalled', from: 2 }),
    budget: 6,
    timeoutMs: 1000,
    waitsMs: 6 * 1000,
    only: 'listPets.limitRespected',
  };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 1, spec);
  expect(brokenRuleMessage(run.stdout, 'server.noFaults')).toMatch(
    /no answer within 1000 ms \(--timeout\)/,
  );
});

test.concurrent('a server that drops every connection: exit 2, connection reset', async ({
  expect,
  onTestFinished,
}) => {
  const spec = { server: await startResettingServer({ when: 'on-request' }), budget: 5 };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(run.stderr).toMatch(/cannot reach http:\S+: connection reset/);
});

test.concurrent('a server that drops connections mid-answer after its first answer: exit 1, server.noFaults', async ({
  expect,
  onTestFinished,
}) => {
  const spec = {
    server: await startResettingServer({ when: 'mid-response', from: 2 }),
    budget: 6,
    only: 'listPets.limitRespected',
  };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 1, spec);
  expect(brokenRuleMessage(run.stdout, 'server.noFaults')).toMatch(/connection reset/);
});

test.concurrent('a storm of 500s with Error bodies: exit 1, server.no5xx', async ({
  expect,
  onTestFinished,
}) => {
  const spec = {
    server: await startErrorStorm({ status: 500, json: true }),
    budget: 16,
    only: 'listPets.',
  };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 1, spec);
  expect(brokenRuleMessage(run.stdout, 'server.no5xx')).toMatch(/server error 500/);
});

test.concurrent('a storm of 503 HTML pages that echo the key: exit 1, the key never printed', async ({
  expect,
  onTestFinished,
}) => {
  const spec = {
    server: await startErrorStorm({ status: 503, json: false }),
    budget: 16,
    only: 'listPets.',
  };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 1, spec);
  expect(brokenRuleMessage(run.stdout, 'server.no5xx')).toMatch(
    /server error 503: <h1>503<\/h1><pre>Bearer \$PETSTORE_API_KEY/,
  );
  expect(brokenRuleMessage(run.stdout, 'responses.json')).toBeDefined();
});

test.concurrent('endless 429s with Retry-After: 1: each retry waits for it and the backoff, then exit 2', async ({
  expect,
  onTestFinished,
}) => {
  const server = await startThrottlingServer({ retryAfter: () => '1' });
  // Three retries: max(1 s, backoff) = 1 + 2 + 4 s, plus up to 10% jitter each.
  const spec = { server, budget: 10, waitsMs: 7_700 };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(run.stderr).toMatch(/cannot start: still answered 429 after 3 honoured retries/);
  expect(server.arrivals).toHaveLength(4);
  expectHonouredRefusals(expect, server, (refusal) => refusal.at + 1000);
});

test.concurrent('endless 429s with Retry-After as an HTTP-date: no retry before that date, never past --budget', async ({
  expect,
  onTestFinished,
}) => {
  const server = await startThrottlingServer({
    retryAfter: (now) => new Date(now + 2000).toUTCString(),
  });
  const spec = { server, budget: 3, waitsMs: 2 * 2_200 };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(run.stderr).toMatch(
    /cannot start: the request budget ran out: 3 requests sent \(--budget 3\)/,
  );
  expect(server.arrivals).toHaveLength(3);
  expectHonouredRefusals(expect, server, (refusal) => Date.parse(refusal.retryAfter ?? ''));
});

test.concurrent('endless 429s with a garbage Retry-After: exponential backoff from 1 s, never past --budget', async ({
  expect,
  onTestFinished,
}) => {
  const server = await startThrottlingServer({ retryAfter: () => 'soon' });
  const spec = { server, budget: 3, waitsMs: 3_300 };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(server.arrivals).toHaveLength(3);
  expectHonouredRefusals(expect, server, () => undefined);
});

test.concurrent('endless 429s without Retry-After: exponential backoff from 1 s, never past --budget', async ({
  expect,
  onTestFinished,
}) => {
  const server = await startThrottlingServer({ retryAfter: () => undefined });
  const spec = { server, budget: 3, waitsMs: 3_300 };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(server.arrivals).toHaveLength(3);
  expectHonouredRefusals(expect, server, () => undefined);
});

test.concurrent('429s for good after a first answer: the run stops sending once a request is refused through its retries, exit 2', async ({
  expect,
  onTestFinished,
}) => {
  const server = await startThrottlingServer({ retryAfter: () => '1', from: 2 });
  const spec = { server, budget: 20, waitsMs: 7_700, only: 'listPets.' };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(run.stderr).toMatch(
    /^petstore-contract: the key's rate limit stopped \d+ check\(s\) \(.+\): still answered 429 after 3 honoured retries; rerun when its quota resets$/m,
  );
  expect(run.stdout).toMatch(/not sent: an earlier request was still answered 429/);
  // The first answer, then one request and its three retries.
  expect(server.arrivals).toHaveLength(5);
  expectHonouredRefusals(
    expect,
    { arrivals: server.arrivals.slice(1), refusals: server.refusals },
    (refusal) => refusal.at + 1000,
  );
});

test.concurrent('X-RateLimit-* that are not numbers: exit 1, headers.rateLimitValues, and no waiting on them', async ({
  expect,
  onTestFinished,
}) => {
  const spec = {
    server: await startGarbageServer({ kind: 'rate-limit-headers' }),
    budget: 16,
    only: 'listPets.',
  };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 1, spec);
  expect(brokenRuleMessage(run.stdout, 'headers.rateLimitValues')).toMatch(
    /X-RateLimit-\w+: "[^"]+" is not a non-negative integer/,
  );
  expect(run.stdout).not.toContain('waiting for rate limits');
});

test.concurrent('headers larger than the HTTP client accepts: exit 2, headers overflow', async ({
  expect,
  onTestFinished,
}) => {
  const spec = { server: await startGarbageServer({ kind: 'huge-headers' }), budget: 5 };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(run.stderr).toMatch(/cannot reach http:\S+: .*Headers Overflow/);
});

test.concurrent('200 answers that are not JSON and echo the key: exit 1, responses.json, the key never printed', async ({
  expect,
  onTestFinished,
}) => {
  const spec = {
    server: await startGarbageServer({ kind: 'not-json' }),
    budget: 16,
    only: 'listPets.',
  };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 1, spec);
  expect(brokenRuleMessage(run.stdout, 'responses.json')).toMatch(
    /a 200 answer whose body is not JSON/,
  );
  expect(run.stdout).toContain('Bearer $PETSTORE_API_KEY</body>');
});

test.concurrent('a server that closes each connection right after accepting it: exit 2', async ({
  expect,
  onTestFinished,
}) => {
  const spec = { server: await startClosingServer(), budget: 5 };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(run.stderr).toMatch(/cannot reach http:\S+: connection reset/);
});

test.concurrent('a server that does not speak HTTP: exit 2', async ({ expect, onTestFinished }) => {
  const spec = { server: await startNotHttpServer(), budget: 5 };
  const run = await runAgainst(onTestFinished, spec);
  expectOrderlyEnd(expect, run, 2, spec);
  expect(run.stderr).toMatch(/cannot reach http:\S+: request failed: .*HTTP/);
});

const mebibyte = 1024 * 1024;

for (const kind of ['sized', 'endless'] as const) {
  const what = kind === 'sized' ? 'a 50 MB JSON answer' : 'an endless answer';
  test.concurrent(`${what}: the harness stops reading at --max-body-bytes, exit 2 within a minute, under 300 MiB`, async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startHugeBodyServer({ kind, from: 2 });
    onTestFinished(() => server.close());
    const run = await runCli(
      ['--base-url', server.baseUrl, '--only', 'listPets.', '--timeout', '3000', '--seed', '11'],
      { PETSTORE_API_KEY: key },
      { killAfterMs: 60_000 },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.killed, output).toBe(false);
    expect(run.code, output).toBe(2);
    expect(run.durationMs).toBeLessThan(60_000);
    expect(run.stdout).toMatch(
      /could not run: GET \/pets\?limit=100: the answer's body is larger than 4194304 bytes/,
    );
    expect(run.stderr).toMatch(/raise --max-body-bytes to judge it/);
    expect(run.peakRssBytes).toBeGreaterThan(0);
    expect(run.peakRssBytes).toBeLessThan(300 * mebibyte);
  });
}

test.concurrent('an oversized first answer stops the run before it starts, naming --max-body-bytes', async ({
  expect,
  onTestFinished,
}) => {
  const server = await startHugeBodyServer({ kind: 'endless' });
  onTestFinished(() => server.close());
  const run = await runCli(
    ['--base-url', server.baseUrl, '--max-body-bytes', '65536'],
    { PETSTORE_API_KEY: key },
    { killAfterMs: 30_000 },
  );
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /^petstore-contract: GET http:\S+\/v1\/pets: the answer's body is larger than 65536 bytes.*raise --max-body-bytes/,
  );
});

/** A key with the characters escaping changes: `/` (JSON), `+` and `/` (percent, base64). */
const awkwardKey = 'k3y/with+slashes/and-more-9f2c';

for (const form of ['json-escaped', 'percent-encoded', 'base64', 'straddling-preview'] as const) {
  test.concurrent(`a server that echoes the key ${form}: the key appears nowhere the harness writes`, async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startEchoKeyServer({ form, from: 2 });
    onTestFinished(() => server.close());
    const dir = mkdtempSync(join(tmpdir(), 'contract-echo-'));
    const files = { junit: join(dir, 'report.xml'), log: join(dir, 'run.jsonl') };
    const run = await runCli(
      ['--base-url', server.baseUrl, '--only', 'listPets.', '--seed', '11'].concat([
        '--junit',
        files.junit,
        '--log',
        files.log,
      ]),
      { PETSTORE_API_KEY: awkwardKey },
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(brokenRuleMessage(run.stdout, 'server.no5xx')).toBeDefined();
    const written = [
      run.stdout,
      run.stderr,
      readFileSync(files.junit, 'utf8'),
      readFileSync(files.log, 'utf8'),
    ];
    const forms = [
      awkwardKey,
      awkwardKey.replaceAll('/', '\\/'),
      encodeURIComponent(awkwardKey),
      Buffer.from(`user:${awkwardKey}`).toString('base64').slice(8, 24),
      awkwardKey.slice(0, 12),
      awkwardKey.slice(-8),
    ];
    for (const text of written) for (const echoed of forms) expect(text).not.toContain(echoed);
    expect(run.stdout).toContain('$PETSTORE_API_KEY');
  });
}
