/**
 * The harness loses no digit of an int64 at any door it reads JSON from:
 * 2^63 - 1, -2^63 and 2^53 + 1 go through the active run's client, the proxy, verify-pact's
 * reading of a pact and of the answers, and calibrate. Against the fake, which keeps every digit,
 * each door finds nothing wrong (a reader that rounds would see 2^63 - 1 as 2^63, outside int64,
 * and blame the server). Behind a gateway that answers each value
 * one off on GET (int64-off-by-one-gateway.ts), each door that compares values reports it: a
 * reader that rounds to a double reads both numbers of each pair as one and would pass it.
 */
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { Pet } from '../mock/internal/entry.ts';
import { startInt64OffByOneGateway } from '../test/harness-fixtures/bad-servers/int64-off-by-one-gateway.ts';
import {
  brokenRuleMessage,
  endedAfterEach,
  runCli,
  startProxyProcess,
} from '../test/support/contract-cli-process.ts';
import { type FakeTarget, httpFakeTarget } from './targets/fake-target.ts';

const key = 'enterprise-demo-key';
const max = 2n ** 63n - 1n;
const min = -(2n ** 63n);
const pastDouble = 2n ** 53n + 1n;
/** The fake's pets: one per value (ids stay small: the next id must still fit an int64). */
const seed: Pet[] = [
  { id: 1, name: 'Max', categoryId: max, status: 'available' },
  { id: 2, name: 'Min', categoryId: min, status: 'pending' },
  { id: 3, name: 'Odd', categoryId: pastDouble, status: 'sold' },
];
/** A pact (V4) whose three interactions read back pets made with the three values. */
const pact = fileURLToPath(new URL('./pact/int64-edges.pact.json', import.meta.url));

const { children, closers } = endedAfterEach();

/** The fake over HTTP, holding `pets`; and the off-by-one gateway in front of it. */
async function servers(pets: Pet[] | 'empty'): Promise<{ fake: FakeTarget; gateway: string }> {
  const fake = await httpFakeTarget({ virtualTime: false, apiKey: key, fake: { seed: pets } });
  closers.push(() => fake.close());
  const gateway = await startInt64OffByOneGateway(fake.baseUrl);
  closers.push(() => gateway.close());
  return { fake, gateway: gateway.baseUrl };
}

test('active run: listings and pets holding 2^63 - 1, -2^63 and 2^53 + 1 conform; the same answered one off are caught', async () => {
  const { fake, gateway } = await servers(seed);
  const exact = await runCli(['--base-url', fake.baseUrl, '--seed', '3', '--runs', '2'], {
    PETSTORE_API_KEY: key,
  });
  expect(exact.code, exact.stdout + exact.stderr).toBe(0);
  expect(exact.stdout).toMatch(/pass {2}listPets\.responseShape/);
  expect(exact.stdout).toMatch(/pass {2}createPet\.int64CategoryId/);
  const off = await runCli(['--base-url', gateway, '--seed', '3', '--runs', '2'], {
    PETSTORE_API_KEY: key,
  });
  expect(off.code, off.stdout + off.stderr).toBe(1);
  // The harness's own creates at the int64 edges come back one off (a GET read-back).
  expect(brokenRuleMessage(off.stdout, 'createPet.int64CategoryId')).toMatch(
    /categoryId (9223372036854775807|-9223372036854775808|9007199254740993) became (9223372036854775806|-9223372036854775807|9007199254740992)$/,
  );
}, 120_000);

/** An app of its own: creates a pet per value (raw JSON text) and reads each back by its id. */
const app = `const headers = { Authorization: 'Bearer ${key}', 'Content-Type': 'application/json' };
for (const categoryId of ['9223372036854775807', '-9223372036854775808', '9007199254740993']) {
  const created = await (await fetch(process.env.PETSTORE_PROXY_URL + '/pets', { method: 'POST', headers, body: '{"name":"Edge","categoryId":' + categoryId + '}' })).text();
  const id = /"id":(\\d+)/.exec(created)[1];
  await (await fetch(process.env.PETSTORE_PROXY_URL + '/pets/' + id, { headers })).text();
}`;

test('proxy: pets created and read back with 2^63 - 1, -2^63 and 2^53 + 1 pass; read back one off they are caught', async () => {
  const { fake, gateway } = await servers('empty');
  const command = ['--', process.execPath, '--input-type=module', '-e', app];
  const exact = await startProxyProcess(['--target', fake.baseUrl, ...command], children);
  const [exactCode] = (await once(exact.child, 'close')) as [number];
  expect(exactCode, exact.output()).toBe(0);
  expect(exact.output()).toMatch(/no rule seen broken in 6 exchanges/);
  const off = await startProxyProcess(['--target', gateway, ...command], children);
  const [offCode] = (await once(off.child, 'close')) as [number];
  expect(offCode, off.output()).toBe(1);
  const seen = brokenRuleMessage(off.output(), 'createPet.readBackUnchanged') ?? '';
  expect(seen).toMatch(/9223372036854775807|-9223372036854775808|9007199254740993/);
  expect(seen).toMatch(/9223372036854775806|-9223372036854775807|9007199254740992/);
}, 120_000);

test("verify-pact: a pact's 2^63 - 1, -2^63 and 2^53 + 1 are sent and compared with every digit", async () => {
  const { fake, gateway } = await servers('empty');
  const env = { PETSTORE_API_KEY: key };
  const exact = await runCli(['verify-pact', pact, '--base-url', fake.baseUrl], env);
  // The states' pets are created with the pact's values, exactly (a rounded 2^63 - 1 is outside
  // int64, and the fake would refuse the create: the interaction skipped, exit 2).
  expect(exact.stdout, exact.stderr).toMatch(/3 passed, 0 failed, 0 skipped/);
  expect(exact.code).toBe(0);
  const off = await runCli(['verify-pact', pact, '--base-url', gateway], env);
  expect(off.code, off.stdout + off.stderr).toBe(1);
  for (const [held, answered] of [
    ['9223372036854775807', '9223372036854775806'],
    ['-9223372036854775808', '-9223372036854775807'],
    ['9007199254740993', '9007199254740992'],
  ])
    expect(off.stdout).toContain(`$.categoryId: expected ${held}, got ${answered}`);
}, 120_000);

test('calibrate: a server whose pets hold 2^63 - 1, -2^63 and 2^53 + 1 is read as the fake is, every choice learnt', async () => {
  const { fake } = await servers(seed);
  const run = await runCli(['calibrate', '--base-url', fake.baseUrl, '--compare'], {
    PETSTORE_API_KEY: key,
  });
  // The fake against itself: nothing differs, nothing was misread as a server's fault.
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stderr).toBe('');
}, 120_000);
