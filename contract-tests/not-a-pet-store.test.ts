/**
 * A base URL where nothing answers as a Pet Store, through the CLI as a CI job runs it: the run
 * says so first, quoting one answer and naming what to check, then reports its findings as
 * always (they are true of what answers there) and exits 1. A conforming server, or one that
 * breaks a rule, gets no such line.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startStatusPageSizeGateway } from '../test/harness-fixtures/bad-servers/status-page-size-gateway.ts';
import {
  startPlain400Server,
  startUnversionedStub,
} from '../test/harness-fixtures/bad-servers/unversioned-stub.ts';
import { endedAfterEach, runCli } from '../test/support/contract-cli-process.ts';
import { httpFakeTarget } from './targets/fake-target.ts';

const key = 'enterprise-demo-key';
const { closers } = endedAfterEach();

/** The lines a run printed before its first check's line. */
function beforeTheChecks(stdout: string): string {
  return stdout.slice(0, stdout.search(/^ {2}(pass|FAIL|skip|warn) {2}/m));
}

test('a server that answers every request 400 text/plain: the run says first that nothing there answers as a Pet Store, then its findings, exit 1', async () => {
  const server = await startPlain400Server();
  closers.push(() => server.close());
  const junit = join(mkdtempSync(join(tmpdir(), 'not-a-pet-store-')), 'contract.xml');
  const run = await runCli(['--base-url', server.baseUrl, '--seed', '1', '--junit', junit], {
    PETSTORE_API_KEY: key,
  });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.code, output).toBe(1);
  const first = beforeTheChecks(run.stdout);
  expect(first).toContain(
    `petstore-contract: nothing at ${server.baseUrl} answers as a Pet Store: GET /v1/pets with the key got 400 text/plain "Bad Request" (not JSON), and without a key the same answer.`,
  );
  expect(first).toMatch(
    /^petstore-contract: {3}that --base-url is the service's base address, ending in its version prefix \(\/v1\)/m,
  );
  expect(first).toMatch(/^petstore-contract: {3}that PETSTORE_API_KEY is a key of that server$/m);
  expect(first).toMatch(
    /^petstore-contract: {3}whether a gateway or proxy in front answers instead of the service$/m,
  );
  // The findings stay: every answer breaks rules the interface states.
  expect(run.stdout).toMatch(/^ {2}FAIL {2}listPets\.responseShape /m);
  expect(run.stdout).toContain('petstore-contract: the server breaks the interface:');
  expect(readFileSync(junit, 'utf8')).toMatch(
    /<system-out>petstore-contract: nothing at http:\/\/127\.0\.0\.1:\d+\/v1 answers as a Pet Store: /,
  );
  expect(output).not.toContain(key);
}, 60_000);

test('a stub of the interface whose paths lack /v1: the run at .../v1 says first that what answers names a Specmatic stub, then its findings, exit 1', async () => {
  const fake = await httpFakeTarget({ virtualTime: false, apiKey: key });
  closers.push(() => fake.close());
  const stub = await startUnversionedStub(fake.baseUrl);
  closers.push(() => stub.close());
  // The stub serves the interface, without the version prefix.
  const origin = new URL(stub.baseUrl).origin;
  const served = await fetch(`${origin}/pets?limit=2`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(served.status).toBe(200);
  expect(await served.json()).toHaveLength(2);
  const run = await runCli(['--base-url', stub.baseUrl, '--seed', '1'], { PETSTORE_API_KEY: key });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.code, output).toBe(1);
  expect(beforeTheChecks(run.stdout)).toContain(
    `petstore-contract: nothing at ${stub.baseUrl} answers as a Pet Store: GET /v1/pets with the key got 400 text/plain "No matching REST stub for GET /v1/pets" (it names a Specmatic stub), and without a key the same answer.`,
  );
  expect(run.stdout).toMatch(/^ {2}FAIL {2}listPets\.responseShape /m);
}, 60_000);

test('a Pet Store that breaks one rule gets its finding, and no word that nothing there is one', async () => {
  const fake = await httpFakeTarget({ virtualTime: false, apiKey: key });
  closers.push(() => fake.close());
  const gateway = await startStatusPageSizeGateway(fake.baseUrl);
  closers.push(() => gateway.close());
  const run = await runCli(['--base-url', gateway.baseUrl, '--seed', '1', '--runs', '1'], {
    PETSTORE_API_KEY: key,
  });
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toMatch(/^ {2}FAIL {2}listPets\.limitRespected /m);
  expect(run.stdout).not.toContain('answers as a Pet Store');
}, 60_000);
