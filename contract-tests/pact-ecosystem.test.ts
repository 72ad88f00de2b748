/**
 * The pact the fake records, read by the Pact ecosystem's own tools, pinned in package.json:
 * the official verifier (@pact-foundation/pact's Verifier, configured as its README's "Provider
 * API Testing" section shows, with `providerStatesSetupUrl` pointing at the fake's
 * provider-states route) replays it against the fake's HTTP door; and PactFlow's bi-directional
 * check (@pactflow/swagger-mock-validator, pinned in its own sub-project because it cannot share
 * the root install: contract-tests/pact/bi-directional-check.ts) finds it compatible with
 * openapi/petstore.yaml and reports a pact that is not.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { beforeAll, describe, expect, test } from 'vitest';
import { createFake } from '../mock/internal/entry.ts';
import { installBiDirectionalCheck, runBiDirectionalCheck } from './pact/bi-directional-check.ts';
import { officialVerifierOptions } from './pact/official-verifier.ts';
import { freeKey, pactFixture } from './pact/pact-fixture.ts';

// The verifier's core reports usage over the network unless told not to; no network here.
process.env.PACT_DO_NOT_TRACK = 'true';

const { dir, recordPact: record, serve } = pactFixture('petstore-pact-');

/** Records a consumer's suite and writes its pact; answers the file's path. */
function recordPact(): Promise<string> {
  return record({ consumer: 'web-app', provider: 'petstore' }, async (send) => {
    await send('/pets?limit=3', { headers: freeKey });
    await send('/pets?status=pending', { headers: freeKey });
    await send('/pets', {
      method: 'POST',
      headers: { ...freeKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }),
    });
    await send('/pets', {
      method: 'POST',
      headers: { ...freeKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ categoryId: 2 }),
    });
    await send('/pets/3', { headers: freeKey });
    await send('/pets/424242', { headers: freeKey });
    await send('/pets');
  });
}

/** The official verifier over a recorded pact, states set up through the fake's own route. */
function verify(base: string, file: string): Promise<unknown> {
  return new Verifier(officialVerifierOptions(file, base)).verifyProvider();
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

/** A pact interaction, as far as these tests change one. */
interface Interaction {
  description: string;
  request: { path: string };
  response: {
    body: { content: Record<string, unknown> };
    matchingRules: { body: Record<string, unknown> };
  };
}

/** Writes a copy of a recorded pact with its getPet 200 interaction changed; answers its path. */
function brokenPact(file: string, name: string, change: (getPet: Interaction) => void): string {
  const pact = JSON.parse(readFileSync(file, 'utf8')) as { interactions: Interaction[] };
  const getPet = pact.interactions.find((each) => each.description.startsWith('getPet 200'));
  if (getPet === undefined) throw new Error(`${file}: no getPet 200 interaction`);
  change(getPet);
  const broken = join(dir, name);
  writeFileSync(broken, JSON.stringify(pact));
  return broken;
}

describe('PactFlow bi-directional check (@pactflow/swagger-mock-validator 14.5.0, pinned in contract-tests/pact/pactflow-bi-directional)', () => {
  let cli = '';
  // The document as it ships: it ignores `servers` (its docs/OPENAPI3.md: "servers | no"), so
  // the pact's paths are relative to the base URL, as the document's are.
  const spec = 'openapi/petstore.yaml';
  beforeAll(async () => {
    // Installed once per checkout (npm ci from the registry, a few seconds), then reused: a
    // failed install fails every test here with npm's output, as no check ran.
    cli = await installBiDirectionalCheck();
  }, 300_000);

  test('finds the pact the fake recorded compatible with openapi/petstore.yaml', async () => {
    const file = await recordPact();
    const run = await runBiDirectionalCheck(cli, spec, file);
    expect(run.output.startsWith('0 error(s)\n1 warning(s)\n')).toBe(true);
    expect(run.status).toBe(0);
    // Its one warning, which does not fail the check: the 401's WWW-Authenticate challenge, a
    // standard header the interface requires (interface.md, auth.challenge) and the pact states,
    // which openapi/petstore.yaml does not declare on its Unauthorized response.
    const warnings = [...run.output.matchAll(/code: '([^']+)',\s+message: '([^']+)'/g)];
    expect(warnings.map(([, code, message]) => `${code}: ${message}`)).toEqual([
      'response.header.undefined: Standard http response header is not defined in the spec file: www-authenticate',
    ]);
  });

  test('loads a pact whose create bodies carry keys a plain path cannot name, and finds it compatible', async () => {
    // The keys contract-tests/pact-verifier-loads.test.ts holds the official Verifier to.
    const keys = ['first name', '_.V00u<', "it's", '', '\ud800', '[*]', 'é ü', '0'];
    const file = await record({ consumer: 'web-app', provider: 'petstore' }, async (send) => {
      for (const key of keys)
        await send('/pets', {
          method: 'POST',
          headers: { ...freeKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'Rex', categoryId: 1, [key]: { [key]: [1] } }),
        });
    });
    expect(readFileSync(file, 'utf8')).toContain("$['first name']");
    const run = await runBiDirectionalCheck(cli, spec, file);
    expect(run.output).toMatch(/^0 error\(s\)\n/);
    expect(run.status).toBe(0);
  });

  test('reports a pact whose getPet answer has an id that is not an integer', async () => {
    const broken = brokenPact(await recordPact(), 'pet-id-a-string.json', (getPet) => {
      getPet.response.body.content.id = 'three';
      delete getPet.response.matchingRules.body['$.id'];
    });
    const run = await runBiDirectionalCheck(cli, spec, broken);
    expect(run.status).toBe(1);
    expect(run.output).toContain('is not compatible with spec file');
    expect(run.output).toContain('response.body.incompatible: 1');
    expect(run.output).toContain('must be integer');
  });

  test('reports a pact that asks for a path the document does not have', async () => {
    const broken = brokenPact(await recordPact(), 'undocumented-path.json', (getPet) => {
      getPet.request.path = '/owners/3';
    });
    const run = await runBiDirectionalCheck(cli, spec, broken);
    expect(run.status).toBe(1);
    expect(run.output).toContain('request.path-or-method.unknown: 1');
    expect(run.output).toContain('Path or method not defined in spec file: GET /owners/3');
  });
});
