/**
 * `petstore-contract verify-pact <file> --base-url <url>` as a process, against the fake's HTTP
 * door: a pact the fake recorded is replayed with its provider states set up through the
 * interface (a pet created for "pet 3 exists", the window spent for the 429), exit 0; a server
 * that breaks it exits 1 naming the mismatch; a state it cannot make here, or a budget too small,
 * exits 2 with the reason; the key is never printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createFake, type FakeWithCore } from '../mock/internal/entry.ts';
import { runCli } from '../test/support/contract-cli-process.ts';
import { freeKey, pactFixture } from './pact/pact-fixture.ts';

const fixture = pactFixture('petstore-verify-pact-');
const { dir } = fixture;
const env = { PETSTORE_API_KEY: 'free-demo-key' };

/** Records a small consumer suite and writes its pact; answers the file. */
function recordedPact(): Promise<string> {
  return fixture.recordPact({ consumer: 'web', provider: 'petstore' }, async (send) => {
    await send('/pets?limit=2', { headers: freeKey });
    await send('/pets', {
      method: 'POST',
      headers: { ...freeKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Biscuit', categoryId: 2, status: 'pending' }),
    });
    await send('/pets/3', { headers: freeKey });
    await send('/pets/424242', { headers: freeKey });
    await send('/pets');
  });
}

/** Serves `fake` through its HTTP door; answers its base URL (with `/v1`). */
async function serve(fake: FakeWithCore): Promise<string> {
  return `${await fixture.serve(fake)}/v1`;
}

test('replays a recorded pact against a server, states set up through the interface: exit 0', async () => {
  const file = await recordedPact();
  // An empty server: every pet a state needs is created by the replay itself.
  const base = await serve(await createFake({ seed: 'empty' }));
  const run = await runCli(['verify-pact', file, '--base-url', base], env);
  expect(run.stderr).toBe('');
  expect(run.stdout).toContain(
    '  PASS  getPet 200: GET /pets/{petId} (a key on the free plan, pet 3 exists)',
  );
  expect(run.stdout).toContain(
    "  PASS  listPets 429 rate_limited: GET /pets (a key on the free plan, the key's window is spent)",
  );
  expect(run.stdout).toMatch(/petstore-contract: 6 passed, 0 failed, 0 skipped; \d+ requests sent/);
  expect(run.stdout).toContain('the server honours the pact (6 interactions)');
  expect(run.code).toBe(0);
  expect(run.stdout + run.stderr).not.toContain('free-demo-key');
});

test('a server that breaks the pact exits 1, naming the mismatch', async () => {
  const file = await recordedPact();
  const broken = await createFake();
  broken.control.force('getPet', 404, 100);
  const run = await runCli(['verify-pact', file, '--base-url', await serve(broken)], env);
  expect(run.stdout).toContain(
    '  FAIL  getPet 200: GET /pets/{petId} (a key on the free plan, pet 3 exists)',
  );
  expect(run.stdout).toContain('          - status: expected 200, got 404');
  expect(run.stdout).toContain('the server breaks the pact (1 interaction(s))');
  expect(run.code).toBe(1);
});

test('a state the interface cannot make here, or a spent budget, skips with the reason: exit 2', async () => {
  const file = await recordedPact();
  const base = await serve(await createFake());
  const readOnly = await runCli(['verify-pact', file, '--base-url', base, '--read-only'], env);
  expect(readOnly.stdout).toContain(
    '  SKIP  getPet 200: GET /pets/{petId} (a key on the free plan, pet 3 exists)\n          - "pet 3 exists" needs a pet created: allow writes (--allow-writes)',
  );
  expect(readOnly.stderr).toContain('incomplete, no verdict');
  expect(readOnly.code).toBe(2);
  const small = await runCli(['verify-pact', file, '--base-url', base, '--budget', '3'], env);
  expect(small.stdout).toContain('the request budget (3) is spent: raise --budget');
  expect(small.stdout).toMatch(/; 3 requests sent/);
  expect(small.code).toBe(2);
});

test('usage problems exit 2: no file, not a V4 pact, no --base-url', async () => {
  const notPact = join(dir, 'not-pact.json');
  writeFileSync(
    notPact,
    JSON.stringify({ interactions: [], metadata: { pactSpecification: { version: '2.0.0' } } }),
  );
  const noFile = await runCli(['verify-pact', '--base-url', 'http://127.0.0.1:1/v1'], env);
  expect(noFile.stderr).toContain('verify-pact: give exactly one pact file');
  expect(noFile.code).toBe(2);
  const v2 = await runCli(['verify-pact', notPact, '--base-url', 'http://127.0.0.1:1/v1'], env);
  expect(v2.stderr).toContain(
    'a Pact V4 file is needed (metadata.pactSpecification.version "4.0"), got "2.0.0"',
  );
  expect(v2.code).toBe(2);
  const noUrl = await runCli(['verify-pact', notPact], env);
  expect(noUrl.stderr).toContain('--base-url <url> is required');
  expect(noUrl.code).toBe(2);
});

/** The small suite's reads, then the Free key sent on past its 429 until the fake bans it. */
async function recordedPactWithBan(): Promise<string> {
  const fake = await createFake();
  const send = (path: string) =>
    fake.fetch(`http://127.0.0.1:4010/v1${path}`, { headers: freeKey });
  await send('/pets?limit=2');
  await send('/pets/3');
  fake.control.updateKey('demo-free', { limits: { perMinute: 2, perDay: 50 } });
  // Every refusal in one minute, so they add up to the ban.
  fake.control.freezeTime(true);
  const codes: string[] = [];
  for (let sent = 0; sent < 8; sent++) codes.push((await send('/pets')).status.toString());
  const file = join(dir, 'pact-with-ban.json');
  writeFileSync(file, JSON.stringify(fake.control.pact({ consumer: 'web', provider: 'petstore' })));
  expect(readFileSync(file, 'utf8')).toContain('the key is banned');
  return file;
}

const banned =
  'listPets 429 temporarily_banned: GET /pets (a key on the free plan, the key is banned)';

test('a recorded ban cannot be set up without banning the key: SKIP and exit 2, unless --pending accepts it (PENDING, nothing sent for it, exit 0)', async () => {
  const file = await recordedPactWithBan();
  const base = await serve(await createFake({ seed: 'empty' }));
  const plain = await runCli(['verify-pact', file, '--base-url', base], env);
  expect(plain.stdout).toContain(
    `  SKIP  ${banned}\n          - "the key is banned": setting it up would get the key banned for real`,
  );
  expect(plain.code).toBe(2);

  const accepted = await runCli(
    [
      'verify-pact',
      file,
      '--base-url',
      await serve(await createFake({ seed: 'empty' })),
      '--pending',
      'the key is banned',
    ],
    env,
  );
  expect(accepted.stderr).toBe('');
  expect(accepted.stdout).toContain(
    `  PENDING  ${banned}\n          - "the key is banned" is accepted as pending (--pending): not set up, nothing sent`,
  );
  expect(accepted.stdout).toMatch(/: 3 passed, 0 failed, 0 skipped, 1 pending; \d+ requests sent/);
  expect(accepted.stdout).toContain(
    'the server honours the pact (3 interactions; 1 pending, not verified)',
  );
  expect(accepted.code).toBe(0);
  // The same requests as the run that skipped it: none was sent for the pending interaction.
  const sent = (out: string) => /; (\d+) requests sent/.exec(out)?.[1];
  expect(sent(accepted.stdout)).toBe(sent(plain.stdout));
});

test('--pending naming a state no interaction is in says so, and the run goes on as without it', async () => {
  const file = await recordedPactWithBan();
  const base = await serve(await createFake({ seed: 'empty' }));
  const run = await runCli(
    ['verify-pact', file, '--base-url', base, '--pending', 'the key is bannd'],
    env,
  );
  expect(run.stderr).toContain(
    'verify-pact: --pending "the key is bannd": no interaction of this pact is in that state',
  );
  expect(run.stdout).toContain(`  SKIP  ${banned}`);
  expect(run.code).toBe(2);
});

test("a body rule written in brackets (`$['name']`) is the rule of that field", async () => {
  const recorded = JSON.parse(readFileSync(await recordedPact(), 'utf8')) as {
    interactions: {
      description: string;
      response: { matchingRules: { body: Record<string, unknown> } };
    }[];
  };
  const getPet = recorded.interactions.find((each) => each.description.startsWith('getPet 200'));
  if (getPet === undefined) throw new Error('no getPet 200 interaction');
  const rules = getPet.response.matchingRules.body;
  expect(rules['$.name']).toBeDefined();
  delete rules['$.name'];
  rules["$['name']"] = { combine: 'AND', matchers: [{ match: 'integer' }] };
  const file = join(dir, 'bracket-rule.json');
  writeFileSync(file, JSON.stringify(recorded));
  const run = await runCli(
    ['verify-pact', file, '--base-url', await serve(await createFake({ seed: 'empty' }))],
    env,
  );
  expect(run.stdout).toMatch(/ {10}- \$\.name: expected an integer, got "[^"]+"/);
  expect(run.code).toBe(1);
});
