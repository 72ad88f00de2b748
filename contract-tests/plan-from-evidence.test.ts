/**
 * Through the CLI as a user runs it: the plan follows what the server's answers
 * show, never what they leave out. A server that sends the IETF draft's RateLimit fields and no
 * X-RateLimit-* gets a Free key's minute and a failure naming those fields; a 429 the headers did
 * not announce is waited out and said to be unplanned; a window that never refills, a server that
 * stops answering and one that answers 429 forever each end the run `incomplete` at
 * `--max-duration` (plus one Retry-After wait at most), naming what it was waiting for.
 */
import { type TestContext, test } from 'vitest';
import type { BadServer } from '../test/harness-fixtures/bad-servers/bad-server.ts';
import { startQuotaServer } from '../test/harness-fixtures/bad-servers/quota-server.ts';
import { startSlowServer } from '../test/harness-fixtures/bad-servers/slow-server.ts';
import { startThrottlingServer } from '../test/harness-fixtures/bad-servers/throttling-server.ts';
import { brokenRuleMessage, type CliRun, runCli } from '../test/support/contract-cli-process.ts';

const key = 'plan-evidence-key-5d20b7';
/** What a run may take beyond its waits, from its first request to its exit (as bad-servers.test.ts). */
const overheadMs = 2_000;
/** The --max-duration of the stalled and the throttling servers' runs, in place of the default 300 s. */
const boundMs = 4_000;

async function runAgainst(
  onTestFinished: TestContext['onTestFinished'],
  server: BadServer,
  flags: readonly string[],
): Promise<CliRun> {
  onTestFinished(() => server.close());
  return runCli(
    ['--base-url', server.baseUrl, '--seed', '17', ...flags],
    { PETSTORE_API_KEY: key },
    { killAfterMs: 40_000 },
  );
}

test.concurrent("IETF RateLimit / RateLimit-Policy and no X-RateLimit-*: a Free key's minute, and headers.rateLimitOnEveryResponse fails naming the IETF fields", async ({
  expect,
  onTestFinished,
}) => {
  // express-rate-limit's README configuration (standardHeaders: 'draft-8', legacyHeaders: false)
  // sends these two fields and nothing else; the interface ("Limits", rate limit headers
  // "present on every response") promises X-RateLimit-Limit, -Remaining and -Reset.
  const server = await startQuotaServer((index) => ({
    status: 200,
    headers: {
      'RateLimit-Policy': '"60-in-1min"; q=60; w=60',
      RateLimit: `"60-in-1min"; r=${Math.max(0, 60 - index)}; t=60`,
    },
  }));
  const run = await runAgainst(onTestFinished, server, []);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.killed, output).toBe(false);
  expect(run.code, output).toBe(1);
  // Before: "up to 2913 requests (default: 100 runs per property: the key's window holds them)".
  expect(run.stdout).toMatch(
    /^petstore-contract: up to 70 requests \(default: a Free key's minute: the preflight's answer had no X-RateLimit-Remaining, \+ 10 without a valid key\); 1 run per property$/m,
  );
  expect(brokenRuleMessage(run.stdout, 'headers.rateLimitOnEveryResponse')).toMatch(
    /^a 200 answer without X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset \(it carries the IETF draft's RateLimit, RateLimit-Policy instead; the interface promises X-RateLimit-\*\)/,
  );
  // 60 with the key at most, and 10 without a valid key (which the key's window does not count).
  expect(server.arrivals.length).toBeLessThanOrEqual(70);
  expect(run.stdout).not.toMatch(/^petstore-contract: waiting/m);
  expect(output).not.toContain(key);
});

test.concurrent('a 429 its X-RateLimit-Remaining did not announce: the run waits its Retry-After, says the 429 was unplanned, and goes on', async ({
  expect,
  onTestFinished,
}) => {
  const server = await startQuotaServer((index, now) => {
    // The 429 says its window resets with its Retry-After; the others, a minute away.
    const reset = String(Math.ceil(now / 1000) + (index === 3 ? 2 : 60));
    if (index === 3)
      return {
        status: 429,
        headers: {
          'X-RateLimit-Limit': '60',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': reset,
          'Retry-After': '2',
        },
      };
    return {
      status: 200,
      headers: {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '50',
        'X-RateLimit-Reset': reset,
      },
    };
  });
  const run = await runAgainst(onTestFinished, server, ['--only', 'listPets.', '--read-only']);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.killed, output).toBe(false);
  expect(run.stdout).toMatch(
    /^petstore-contract: waiting [12]\.\d s for Retry-After: 2 \(an unplanned 429: X-RateLimit-Remaining was 50; the run re-plans: no request before it\)$/m,
  );
  const [refused, next] = [server.arrivals[2], server.arrivals[3]];
  expect(next?.at ?? 0).toBeGreaterThanOrEqual((refused?.at ?? 0) + 2000 - 50);
  // It went on after the wait: the run reached a verdict on the listPets checks.
  expect(server.arrivals.length).toBeGreaterThan(4);
  expect(run.stdout).toMatch(/listPets\.defaultLimit/);
});

test.concurrent('a window that never refills: the run stops at --max-duration, incomplete (exit 2), naming the wait, within its bound', async ({
  expect,
  onTestFinished,
}) => {
  // Every answer says the window is spent and resets in 2 s; none ever says it refilled. The
  // auth checks run first (their requests are not paced): they get the 401s they expect.
  const server = await startQuotaServer(
    (_index, now) => ({
      status: 200,
      headers: {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(Math.ceil(now / 1000) + 2),
      },
    }),
    key,
  );
  const refillBoundMs = 5_000;
  const run = await runAgainst(onTestFinished, server, [
    '--max-duration',
    String(refillBoundMs / 1000),
    '--read-only',
  ]);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.killed, output).toBe(false);
  expect(run.code, output).toBe(2);
  expect(run.stderr).toMatch(
    /^petstore-contract: incomplete, no verdict: \d+ selected check\(s\) could not run:$/m,
  );
  expect(run.stderr).toMatch(
    /stopped: --max-duration 5 s (would pass while waiting \d+ s for X-RateLimit-Reset \d+ \(X-RateLimit-Remaining is 0\)|passed; the last wait was for X-RateLimit-Reset)/,
  );
  // No request after the bound, and the run ended within it plus the start-up of the last wait.
  const first = server.arrivals[0]?.at ?? 0;
  const last = server.arrivals.at(-1)?.at ?? 0;
  expect(last - first).toBeLessThanOrEqual(refillBoundMs);
  expect(run.endedAt - first).toBeLessThan(refillBoundMs + overheadMs);
  expect(server.arrivals.length).toBeGreaterThan(1);
});

test.concurrent('a server that stops answering after its first answer: the run ends at --max-duration (not --timeout later), incomplete (exit 2), naming the answer it awaited', async ({
  expect,
  onTestFinished,
}) => {
  // Every answer after the preflight's: a 200 head, then a body that never ends. The default
  // --timeout (10 s) is longer than the bound: before, the run ended a --timeout past its bound
  // and blamed the server (server.noFaults) for an answer the bound cut short.
  const server = await startSlowServer({ mode: 'stalled', from: 2 });
  const run = await runAgainst(onTestFinished, server, ['--max-duration', String(boundMs / 1000)]);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.killed, output).toBe(false);
  expect(run.code, output).toBe(2);
  expect(run.stderr).toMatch(
    /^petstore-contract: incomplete, no verdict: \d+ selected check\(s\) could not run:$/m,
  );
  expect(run.stderr).toMatch(
    /stopped: --max-duration 4 s passed while awaiting the answer to [A-Z]+ http:\S+ \(no answer after \d+ ms; --timeout is 10000 ms\)/,
  );
  expect(brokenRuleMessage(run.stdout, 'server.noFaults')).toBeUndefined();
  const first = server.arrivals[0]?.at ?? 0;
  expect(run.endedAt - first).toBeLessThan(boundMs + overheadMs);
  expect(output).not.toContain(key);
});

test.concurrent('a server that answers 429 forever: the run ends within --max-duration plus one Retry-After wait, incomplete (exit 2), naming the wait', async ({
  expect,
  onTestFinished,
}) => {
  const retryAfterS = 1;
  const server = await startThrottlingServer({ retryAfter: () => String(retryAfterS) });
  const run = await runAgainst(onTestFinished, server, ['--max-duration', String(boundMs / 1000)]);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.killed, output).toBe(false);
  expect(run.code, output).toBe(2);
  // Which stop comes first depends on the machine's speed (a wait that would pass the bound, the
  // retries of one request running out): each names what the run was waiting for.
  expect(run.stderr).toMatch(
    /--max-duration 4 s would pass while waiting \d+ s for (Retry-After|backoff|X-RateLimit-Reset)|still answered 429 after 3 honoured retries/,
  );
  const first = server.arrivals[0]?.at ?? 0;
  const last = server.arrivals.at(-1)?.at ?? 0;
  expect(last - first).toBeLessThanOrEqual(boundMs);
  expect(run.endedAt - first).toBeLessThan(boundMs + retryAfterS * 1000 + overheadMs);
  expect(output).not.toContain(key);
});
