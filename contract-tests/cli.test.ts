/**
 * The CLI as a user runs it: `node contract-tests/cli.ts` in a child process against the fake on
 * a real port. Exit codes, the report, the request count of a Free key's run, the JUnit file,
 * and that the key never appears in anything the harness writes.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { mutants } from '../test/harness-fixtures/mutants/catalogue.ts';
import { type CliRun, closedPort, runCli } from '../test/support/contract-cli-process.ts';
import { type FakeTarget, httpFakeTarget } from './targets/fake-target.ts';

const freeKey = 'free-demo-key';
// Runs longer than a Free key's minute use a key whose window they cannot spend (no real waits).
const roomyKey = 'enterprise-demo-key';

const open: FakeTarget[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((target) => target.close()));
});

async function door(
  options: Parameters<typeof httpFakeTarget>[0] = {},
): Promise<{ target: FakeTarget; statuses: number[] }> {
  const statuses: number[] = [];
  const target = await httpFakeTarget({
    ...options,
    virtualTime: false,
    fake: { ...options.fake, onExchange: (record) => statuses.push(record.status) },
  });
  open.push(target);
  return { target, statuses };
}

test('a default run with a Free key runs every default check in at most 60 requests with the key and 10 without one, none answered 429, and never shows the key', async () => {
  const { target, statuses } = await door();
  const junit = join(mkdtempSync(join(tmpdir(), 'contract-')), 'report.xml');
  const run = await runCli(['--base-url', target.baseUrl, '--seed', '42', '--junit', junit], {
    PETSTORE_API_KEY: freeKey,
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(
    /^petstore-contract: checking http:\/\/127\.0\.0\.1:\d+\/v1 \(writes on; seed 42\)\npetstore-contract: up to 70 requests \(default: a Free key's minute, \+ 10 without a valid key\); 1 run per property\n/,
  );
  expect(run.stdout).toMatch(/pass {2}listPets\.defaultLimit/);
  // Every default check ran: the only skips are the opt-in ones.
  expect(run.stdout).toMatch(/pass {2}createPet\.concurrentCreates/);
  expect(run.stdout).toMatch(
    /skip {2}rateLimit\.exceededGives429 .*\n +not selected: opt-in: --rate-limits/,
  );
  expect(run.stdout).not.toMatch(/could not run:|not applicable:/);
  expect(run.stdout).toMatch(
    /skipped: 5 not selected, 0 not applicable, 1 not exercised, 0 could not run/,
  );
  // With one key, requests without a valid key are seen not to draw from its window.
  expect(run.stdout).toMatch(/pass {2}rateLimit\.othersNotCounted/);
  expect(run.stdout).toMatch(
    /skip {2}rateLimit\.keysIndependent .*\n +not selected: opt-in: PETSTORE_API_KEY_2/,
  );
  const counts = /(\d+) requests sent \((\d+) with the key\) of 70 allowed, 0 answered 429/.exec(
    run.stdout,
  );
  const sent = Number(counts?.[1]);
  const withKey = Number(counts?.[2]);
  expect(sent).toBeGreaterThan(30);
  expect(sent).toBeLessThanOrEqual(70);
  // Only requests with the key draw on a Free key's window of 60.
  expect(withKey).toBeLessThanOrEqual(60);
  expect(statuses).toHaveLength(sent);
  expect(statuses).not.toContain(429);
  expect(run.stdout).toMatch(
    /the server conforms to the interface in all \d+ checks that ran \(not run: 5 not selected, 1 not exercised\)/,
  );
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toMatch(/<testsuites name="petstore-contract" tests="\d+" failures="0"/);
  for (const text of [run.stdout, run.stderr, xml]) expect(text).not.toContain(freeKey);
});

test('a broken rule exits 1 with the counterexample, a curl line using $PETSTORE_API_KEY and the replay seed', async () => {
  const fault = mutants.find((mutant) => mutant.name === 'limit-ignored');
  const { target } = await door({ ...(fault === undefined ? {} : { wrap: fault.wrap }) });
  const junit = join(mkdtempSync(join(tmpdir(), 'contract-')), 'report.xml');
  const run = await runCli(
    ['--base-url', target.baseUrl, '--seed', '5', '--budget', '200', '--junit', junit],
    {
      PETSTORE_API_KEY: roomyKey,
    },
  );
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/FAIL {2}listPets\.limitRespected/);
  expect(run.stdout).toMatch(/counterexample \(shrunk\): \d+/);
  expect(run.stdout).toContain(`reproduce: curl -sS -i '${target.baseUrl}/pets?limit=`);
  expect(run.stdout).toContain('-H "Authorization: Bearer $PETSTORE_API_KEY"');
  expect(run.stdout).toContain(
    `replay: npm run contract -- --base-url ${target.baseUrl} --budget 200 --seed=5 --only listPets.limitRespected`,
  );
  expect(run.stdout).toContain('the server breaks the interface');
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toMatch(/<failure message="[^"]*" type="listPets.limitRespected">/);
  // The JUnit failure text holds the whole replay command, as the console prints it.
  expect(xml).toContain(
    `replay: npm run contract -- --base-url ${target.baseUrl} --budget 200 --seed=5 --only listPets.limitRespected`,
  );
  for (const text of [run.stdout, run.stderr, xml]) expect(text).not.toContain(roomyKey);
});

test('the same seed replays the same counterexample', async () => {
  const fault = mutants.find((mutant) => mutant.name === 'limit-ignored');
  const { target } = await door({ ...(fault === undefined ? {} : { wrap: fault.wrap }) });
  const args = [
    '--base-url',
    target.baseUrl,
    '--seed',
    '5',
    '--only',
    'listPets.limitRespected',
    '--budget',
    '100',
  ];
  const counterexample = (run: CliRun) => /counterexample \(shrunk\): (.*)/.exec(run.stdout)?.[1];
  const first = await runCli(args, { PETSTORE_API_KEY: roomyKey });
  const second = await runCli(args, { PETSTORE_API_KEY: roomyKey });
  expect(first.code).toBe(1);
  expect(counterexample(first)).toBeDefined();
  expect(counterexample(second)).toBe(counterexample(first));
});

test('usage and connection problems exit 2 with a message naming the tool', async () => {
  const closed = `http://127.0.0.1:${await closedPort()}/v1`;
  const noKey = await runCli(['--base-url', 'http://127.0.0.1:9/v1']);
  expect(noKey.code).toBe(2);
  expect(noKey.stderr).toMatch(/^petstore-contract: set PETSTORE_API_KEY/);

  const keyFlag = await runCli([
    '--base-url',
    'http://127.0.0.1:9/v1',
    '--api-key',
    'secret-value',
  ]);
  expect(keyFlag.code).toBe(2);
  expect(keyFlag.stderr).toMatch(/^petstore-contract: the API key is never a flag/);
  expect(keyFlag.stderr).not.toContain('secret-value');

  const noPrefix = await runCli(['--base-url', 'http://127.0.0.1:9/'], {
    PETSTORE_API_KEY: freeKey,
  });
  expect(noPrefix.code).toBe(2);
  expect(noPrefix.stderr).toMatch(
    /^petstore-contract: --base-url must end with the version prefix \/v1/,
  );

  const badBudget = await runCli(['--fake', '--budget', 'lots']);
  expect(badBudget.code).toBe(2);
  expect(badBudget.stderr).toMatch(
    /^petstore-contract: --budget must be an integer from 1 to 1000000, got "lots"/,
  );

  const unreachable = await runCli(['--base-url', closed], { PETSTORE_API_KEY: freeKey });
  expect(unreachable.code).toBe(2);
  expect(unreachable.stderr).toMatch(
    /^petstore-contract: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/pets: cannot connect/,
  );

  const { target: spent, statuses } = await door();
  spent.fake.control.updateKey('demo-free', { limits: { perMinute: 60, perDay: 1 } });
  const quota = await runCli(['--base-url', spent.baseUrl], { PETSTORE_API_KEY: freeKey });
  expect(quota.code).toBe(2);
  expect(quota.stderr).toMatch(
    /^petstore-contract: the key's rate limit stopped \d+ check\(s\) .*raise --max-wait/,
  );
  expect(statuses).not.toContain(429);

  const { target } = await door();
  const wrongKey = await runCli(['--base-url', target.baseUrl], {
    PETSTORE_API_KEY: 'not-a-valid-key',
  });
  expect(wrongKey.code).toBe(2);
  expect(wrongKey.stderr).toMatch(
    /^petstore-contract: the server answered 401 .* check that the variable holds a valid key/,
  );
  expect(`${wrongKey.stdout}${wrongKey.stderr}`).not.toContain('not-a-valid-key');
});

test('--fake --rate-limits spends a Free window after every conformance check, says what it waits for, one 429', async () => {
  const run = await runCli(['--fake', '--rate-limits', '--seed', '3']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/pass {2}rateLimit\.exceededGives429/);
  expect(run.stdout).toMatch(/pass {2}rateLimit\.servedAfterRetryAfter/);
  expect(run.stdout).toMatch(/pass {2}rateLimit\.retryAfterOn429/);
  expect(run.stdout).toMatch(
    /^petstore-contract: waiting \d+\.\d s for (Retry-After: \d+|X-RateLimit-Reset \d+ \(X-RateLimit-Remaining is 0\))$/m,
  );
  const [, sent, withKey] =
    /(\d+) requests sent \((\d+) with the key\) of \d+ allowed, 1 answered 429/.exec(run.stdout) ??
    [];
  expect(Number(withKey)).toBeLessThanOrEqual(63);
  expect(Number(sent)).toBeGreaterThanOrEqual(Number(withKey));
  expect(run.stdout).not.toMatch(/could not run:/);
});

test('a replay line with a negative seed runs as printed and replays the same counterexample', async () => {
  const fault = mutants.find((mutant) => mutant.name === 'limit-ignored');
  const { target } = await door({ ...(fault === undefined ? {} : { wrap: fault.wrap }) });
  const first = await runCli(
    ['--base-url', target.baseUrl, '--seed', '-77028589', '--budget', '200'],
    { PETSTORE_API_KEY: roomyKey },
  );
  expect(first.code).toBe(1);
  const replay = /replay: npm run contract -- (.*--only listPets\.limitRespected)$/m.exec(
    first.stdout,
  )?.[1];
  expect(replay).toContain('--seed=-77028589');
  const again = await runCli(replay?.split(' ') ?? [], { PETSTORE_API_KEY: roomyKey });
  expect(again.stderr).toBe('');
  expect(again.code).toBe(1);
  const counterexample = (run: CliRun) => /counterexample \(shrunk\): (.*)/.exec(run.stdout)?.[1];
  expect(counterexample(again)).toBe(counterexample(first));
});

test('--only one check against a conforming server conforms: observers waiting for other checks\' traffic are not exercised, never "could not run"', async () => {
  const { target } = await door();
  const run = await runCli(
    ['--base-url', target.baseUrl, '--seed=5', '--only', 'listPets.limitRespected'],
    { PETSTORE_API_KEY: freeKey },
  );
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^ {2}pass {2}listPets\.limitRespected/m);
  expect(run.stdout).toMatch(/, 0 could not run/);
  expect(run.stdout).toMatch(
    /skip {2}createPet\.readBackUnchanged .*\n\s+not exercised: no created pet was read back/,
  );
});

test('a second key (PETSTORE_API_KEY_2, --plan2) told another plan than its own fails rateLimit.keysIndependent, within the default budget, and neither key is ever shown', async () => {
  // The passing case (the right --plan2) runs in every door's suite (in-process.test.ts).
  const { target } = await door();
  const junit = join(mkdtempSync(join(tmpdir(), 'contract-')), 'report.xml');
  const wrong = await runCli(
    ['--base-url', target.baseUrl, '--seed=11', '--junit', junit, '--plan2', 'business'],
    { PETSTORE_API_KEY: freeKey, PETSTORE_API_KEY_2: 'pro-demo-key' },
  );
  expect(wrong.code, wrong.stdout + wrong.stderr).toBe(1);
  expect(wrong.stdout).toMatch(/up to 74 requests/);
  expect(wrong.stdout).toMatch(
    /FAIL {2}rateLimit\.keysIndependent[\s\S]*X-RateLimit-Limit 300 on answers to the second key is neither 1000 \(per minute\) nor 100000 \(per day\), the business plan's limits \(--plan2 business\)[\s\S]*Bearer \$PETSTORE_API_KEY_2/,
  );
  expect(wrong.stdout).toMatch(/pass {2}rateLimit\.othersNotCounted/);
  const xml = readFileSync(junit, 'utf8');
  for (const text of [wrong.stdout, wrong.stderr, xml]) {
    expect(text).not.toContain('pro-demo-key');
    expect(text).not.toContain(freeKey);
  }
}, 60_000);

test('--version and -h answer without a target', async () => {
  const version = await runCli(['--version']);
  expect(version.code).toBe(0);
  expect(version.stdout).toMatch(/^petstore-contract \d+\.\d+\.\d+\n$/);
  const help = await runCli(['-h']);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^Usage: npm run contract --/);
});

test('--log keeps every request and answer as JSON lines, the key written as $PETSTORE_API_KEY', async () => {
  const { target, statuses } = await door();
  const log = join(mkdtempSync(join(tmpdir(), 'contract-')), 'run.jsonl');
  const run = await runCli(['--base-url', target.baseUrl, '--seed', '8', '--log', log], {
    PETSTORE_API_KEY: freeKey,
  });
  expect(run.code).toBe(0);
  const text = readFileSync(log, 'utf8');
  const lines = text.trimEnd().split('\n');
  expect(lines).toHaveLength(statuses.length);
  const records = lines.map(
    (line) => JSON.parse(line) as { request?: unknown; response?: { status?: number } },
  );
  expect(records.map((record) => record.response?.status)).toEqual(statuses);
  expect(records[0]?.request).toMatchObject({
    method: 'GET',
    url: `${target.baseUrl}/pets`,
    authorization: 'Bearer $PETSTORE_API_KEY',
  });
  expect(text).not.toContain(freeKey);
});

test('a selected check that could not run makes the run incomplete: exit 2 with the reason, never "conforms"', async () => {
  const { target } = await door({ fake: { seed: [] } });
  const run = await runCli(['--base-url', target.baseUrl, '--read-only', '--seed', '9'], {
    PETSTORE_API_KEY: freeKey,
  });
  expect(run.code).toBe(2);
  expect(run.stdout).toMatch(
    /skip {2}getPet\.responseShape .*\n +could not run: GET \/pets\?limit=100 listed no pet/,
  );
  expect(run.stdout).not.toContain('conforms');
  expect(run.stderr).toMatch(
    /^petstore-contract: incomplete, no verdict: \d+ selected check\(s\) could not run:\npetstore-contract: {3}getPet\.responseShape: .*--allow-writes/m,
  );
});

test('an explicit --budget too small for --rate-limits exits 2 naming the budget needed', async () => {
  const { target } = await door();
  const run = await runCli(['--base-url', target.baseUrl, '--rate-limits', '--budget', '40'], {
    PETSTORE_API_KEY: freeKey,
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /^petstore-contract: --budget 40 is too small for the checks asked: they need at least (\d+) requests .*--rate-limits\); rerun with --budget \1/,
  );
});

test("--fake runs 100 runs per property: the Enterprise demo key's window holds them", async () => {
  const run = await runCli(['--fake', '--seed', '21'], {}, { killAfterMs: 120_000 });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(
    /^petstore-contract: up to \d+ requests \(default: 100 runs per property: the key's window holds them\); 100 runs per property$/m,
  );
  expect(run.stdout).toMatch(/\(100 runs per property, seed 21\)/);
});

// Honest modes: `prism mock` takes any key and answers errors with example
// bodies (`status: 0`), so a clean run against it proves only that the harness raises no false
// alarm on the checks that apply to a spec-only mock; it must never say the server conforms.
test('--prism-mock ends with what the self-test proved, never that the server conforms', async () => {
  const run = await runCli(['--prism-mock', '--seed=5'], {}, { killAfterMs: 120_000 });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).not.toMatch(/conforms/);
  expect(run.stdout).toMatch(
    /petstore-contract: self-test: no false alarm from the \d+ checks that ran against prism mock of openapi\/petstore\.yaml, which keeps no pets, takes any key and counts no requests \(not run: .*\d+ not applicable.*\); this proves nothing of a server\n$/,
  );
}, 150_000);
