/**
 * The pact the fake records, read by the Pact ecosystem's own tools, pinned in package.json:
 * the official verifier (@pact-foundation/pact's Verifier, configured as its README's "Provider
 * API Testing" section shows, with `providerStatesSetupUrl` pointing at the fake's
 * provider-states route) replays it against the fake's HTTP door. (PactFlow's bi-directional
 * check, @pactflow/swagger-mock-validator, does not install here: README, Pact files.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { afterAll, afterEach, expect, test } from 'vitest';
import { listenHttp } from '../mock/doors/http/http-server.ts';
import { createFake, type Fake } from '../mock/fake.ts';

// The verifier's core reports usage over the network unless told not to; no network here.
process.env.PACT_DO_NOT_TRACK = 'true';

const dir = mkdtempSync(join(tmpdir(), 'petstore-pact-'));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const api = 'http://127.0.0.1:4010/v1';
const free = { Authorization: 'Bearer free-demo-key' };

/** Records a consumer's suite and writes its pact; answers the file's path. */
async function recordPact(): Promise<string> {
  const fake = await createFake();
  const send = (path: string, init?: RequestInit) => fake.fetch(`${api}${path}`, init);
  await send('/pets?limit=3', { headers: free });
  await send('/pets?status=pending', { headers: free });
  await send('/pets', {
    method: 'POST',
    headers: { ...free, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
  });
  await send('/pets', {
    method: 'POST',
    headers: { ...free, 'Content-Type': 'application/json' },
    body: JSON.stringify({ categoryId: 2 }),
  });
  await send('/pets/3', { headers: free });
  await send('/pets/424242', { headers: free });
  await send('/pets');
  fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 50 } });
  await send('/pets', { headers: free });
  const file = join(dir, `pact-${closers.length}-${Date.now()}.json`);
  writeFileSync(
    file,
    JSON.stringify(fake.control.pact({ consumer: 'web-app', provider: 'petstore' })),
  );
  return file;
}

async function serve(fake: Fake): Promise<string> {
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  closers.push(() => door.close());
  return `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
}

/** The official verifier over a recorded pact, states set up through the fake's own route. */
function verify(base: string, file: string): Promise<unknown> {
  return new Verifier({
    provider: 'petstore',
    providerBaseUrl: `${base}/v1`,
    pactUrls: [file],
    providerStatesSetupUrl: `${base}/__control/provider-states`,
    logLevel: 'error',
  }).verifyProvider();
}

test('the official Pact verifier replays the recorded pact against the fake, states set up by the fake', async () => {
  const file = await recordPact();
  const base = await serve(await createFake());
  const output = await verify(base, file);
  const result = JSON.parse(String(output)) as {
    result: boolean;
    interactionResults: { description: string; result: string }[];
  };
  expect(result.result).toBe(true);
  expect(result.interactionResults).toHaveLength(8);
  expect(result.interactionResults.every((each) => each.result === 'OK')).toBe(true);
}, 60_000);

test('the official verifier fails a provider that breaks the pact (getPet answers 404 for a pet the state created)', async () => {
  const file = await recordPact();
  const broken = await createFake();
  broken.control.force('getPet', 404, 100);
  const base = await serve(broken);
  const run = verify(base, file);
  await expect(run).rejects.toThrow(/getPet 200: GET \/pets\/\{petId\}/);
}, 60_000);
