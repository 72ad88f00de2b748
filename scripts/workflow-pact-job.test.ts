/**
 * The workflow's commented `pact` job, read from .github/workflows/contract.yml as GitHub would
 * read it once uncommented: its verify-pact step, run in `bash -e` as Actions runs it in a
 * checkout-like folder holding a pact the fake recorded, passes against a server that honours
 * the pact and fails against one that breaks it. The `npm test` step is the user's suite and the
 * publish step needs a Pact Broker, which does not exist here: both are read, not run.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { parse } from 'yaml';
import { createFake, type FakeWithCore } from '../mock/core/fake.ts';
import { listenHttp } from '../mock/doors/http/http-server.ts';
import packageJson from '../package.json' with { type: 'json' };
import { runBash, withSecrets } from './doc-commands.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const workflow = readFileSync(join(root, '.github/workflows/contract.yml'), 'utf8');

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
}

/** The commented job `pact`, uncommented and parsed. */
function pactJob(): { needs?: string; steps: Step[] } {
  const lines = workflow.split('\n');
  const start = lines.indexOf('  # pact:');
  if (start === -1) throw new Error('contract.yml: no commented job pact');
  const body: string[] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('  #')) break;
    body.push(line.replace(/^ {2}# ?/, ''));
  }
  return (parse(body.join('\n')) as { pact: { steps: Step[] } }).pact;
}

const step = (name: string): Step => {
  const found = pactJob().steps.find((each) => each.name === name);
  if (found === undefined) throw new Error(`contract.yml: the pact job has no step "${name}"`);
  return found;
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A checkout of this repository (links to it) holding the pact the app's tests wrote. */
async function checkoutWithPact(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'workflow-pact-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  for (const entry of ['node_modules', 'contract-tests', 'mock', 'openapi', 'fixtures'])
    symlinkSync(join(root, entry), join(folder, entry));
  writeFileSync(join(folder, 'package.json'), JSON.stringify(packageJson));
  const fake = await createFake();
  const headers = { Authorization: 'Bearer free-demo-key' };
  await fake.fetch('http://127.0.0.1:4010/v1/pets?limit=2', { headers });
  await fake.fetch('http://127.0.0.1:4010/v1/pets/5', { headers });
  mkdirSync(join(folder, 'pacts'));
  const pact = fake.control.pact({ consumer: 'web-app', provider: 'petstore' });
  writeFileSync(join(folder, 'pacts', 'web-app-petstore.json'), JSON.stringify(pact));
  return folder;
}

async function serve(fake: FakeWithCore): Promise<string> {
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  cleanups.push(() => door.close());
  return `http://127.0.0.1:${(door.server.address() as { port: number }).port}/v1`;
}

/** Runs the verify step as Actions does (bash -e), its secrets given. */
async function runVerifyStep(folder: string, baseUrl: string) {
  const { run = '', env = {} } = step('Staging honours the pact');
  const secrets: Record<string, string> = {
    PETSTORE_STAGING_BASE_URL: baseUrl,
    PETSTORE_STAGING_API_KEY: 'free-demo-key',
  };
  const { PETSTORE_API_KEY: _, ...inherited } = process.env;
  const given = { ...inherited, ...withSecrets(env, secrets) };
  const { code, out } = await runBash(`set -e\n${run}`, folder, given, 90_000);
  return { status: code, output: out };
}

test('the pact job runs the tests that write the pact, verifies staging against it, then publishes it', () => {
  const job = pactJob();
  expect(job.needs).toBe('staging');
  const runs = job.steps.flatMap((each) => (each.run === undefined ? [] : [each.run.trim()]));
  expect(runs[0]).toBe('npm ci');
  expect(runs[1]).toBe('npm test');
  expect(runs[2]).toMatch(/^npm run contract -- verify-pact pacts\/web-app-petstore\.json /);
  expect(runs[3]).toMatch(
    /^npx --yes --package @pact-foundation\/pact-cli@18\.1\.2 pact-broker publish pacts /,
  );
  expect(Object.keys(step('Publish the pact to the broker').env ?? {})).toEqual([
    'PACT_BROKER_BASE_URL',
    'PACT_BROKER_TOKEN',
  ]);
});

test("the pact job's verify step passes against a server that honours the pact", async () => {
  const folder = await checkoutWithPact();
  const run = await runVerifyStep(folder, await serve(await createFake()));
  expect(run.output).toContain('the server honours the pact (2 interactions)');
  expect(run.status).toBe(0);
});

test("the pact job's verify step fails against a server that breaks the pact", async () => {
  const folder = await checkoutWithPact();
  const broken = await createFake();
  broken.control.force('getPet', 404, 100);
  const run = await runVerifyStep(folder, await serve(broken));
  expect(run.output).toContain(
    '  FAIL  getPet 200: GET /pets/{petId} (a key on the free plan, pet 5 exists)',
  );
  expect(run.status).toBe(1);
});
