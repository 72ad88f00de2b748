/**
 * Issue 17 point 1, "no default run against any server takes longer than its bound plus one
 * Retry-After wait", through the CLI as a user runs it: a server that stops answering, and one
 * that answers 429 forever, each with a small `--max-duration` in place of the default 300 s.
 * (plan-from-evidence.test.ts holds the window that never refills.)
 */
import { type TestContext, test } from 'vitest';
import type { BadServer } from './bad-servers/bad-server.ts';
import { startSlowServer } from './bad-servers/slow-server.ts';
import { startThrottlingServer } from './bad-servers/throttling-server.ts';
import { type CliRun, runCli } from './cli-process.ts';

const key = 'run-bound-key-8c41e2';
/** What a run may take beyond its bound, from its first request to its exit (as bad-servers.test.ts). */
const overheadMs = 2_000;
const boundMs = 4_000;

async function runAgainst(
  onTestFinished: TestContext['onTestFinished'],
  server: BadServer,
): Promise<CliRun> {
  onTestFinished(() => server.close());
  return runCli(
    ['--base-url', server.baseUrl, '--seed', '17', '--max-duration', String(boundMs / 1000)],
    { PETSTORE_API_KEY: key },
    { killAfterMs: 40_000 },
  );
}

test.concurrent('a server that stops answering after its first answer: the run ends at --max-duration (not --timeout later), incomplete (exit 2), naming the answer it awaited', async ({
  expect,
  onTestFinished,
}) => {
  // Every answer after the preflight's: a 200 head, then a body that never ends. The default
  // --timeout (10 s) is longer than the bound: before, the run ended a --timeout past its bound
  // and blamed the server (server.noFaults) for an answer the bound cut short.
  const server = await startSlowServer({ mode: 'stalled', from: 2 });
  const run = await runAgainst(onTestFinished, server);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.killed, output).toBe(false);
  expect(run.code, output).toBe(2);
  expect(run.stderr).toMatch(
    /^petstore-contract: incomplete, no verdict: \d+ selected check\(s\) could not run:$/m,
  );
  expect(run.stderr).toMatch(
    /stopped: --max-duration 4 s passed while awaiting the answer to [A-Z]+ http:\S+ \(no answer after \d+ ms; --timeout is 10000 ms\)/,
  );
  expect(run.stdout).not.toMatch(/FAIL {2}server\.noFaults/);
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
  const run = await runAgainst(onTestFinished, server);
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
