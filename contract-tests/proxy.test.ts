/**
 * `petstore-contract proxy`, run as a user runs it (the CLI in a child process), in front of the
 * fake's HTTP door, with the active harness as its traffic: it forwards everything and adds no
 * request; over the real fake it finds nothing broken; over a faulty fake it reports what the
 * active harness's every-response checks report for the same traffic; the key never shows.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { mutants } from '../test/harness-fixtures/mutants/catalogue.ts';
import { brokenRulesIn } from '../test/support/contract-cli-process.ts';
import { allChecks } from './checks/registry.ts';
import { passiveObservers } from './proxy/passive-verdicts.ts';
import { failedIds } from './runner/results.ts';
import { createRunClient } from './runner/run-client.ts';
import { runSuite } from './runner/run-suite.ts';
import { type FakeTarget, type FakeTargetOptions, httpFakeTarget } from './targets/fake-target.ts';
import { urlTarget } from './targets/url-target.ts';

const cliPath = new URL('./cli.ts', import.meta.url).pathname;
const key = 'enterprise-demo-key';

/** A proxy started through the CLI; `stop` sends SIGTERM and collects what it printed. */
async function startProxyCli(target: string, extra: string[] = []) {
  const { PETSTORE_API_KEY: _, ...env } = process.env;
  const child: ChildProcess = spawn(
    process.execPath,
    [cliPath, 'proxy', '--target', target, '--port', '0', ...extra],
    { env },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner: ${stdout}${stderr}`)), 20_000);
    child.stdout?.on('data', () => {
      const match = /proxy: (http:\/\/127\.0\.0\.1:\d+\/v1) -> /.exec(stdout);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return {
    baseUrl,
    async stop() {
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return { code, stdout, stderr };
    },
  };
}

const open: FakeTarget[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((target) => target.close()));
});

async function fakeDoor(wrap?: FakeTargetOptions['wrap']) {
  let served = 0;
  const target = await httpFakeTarget({
    virtualTime: false,
    apiKey: key,
    ...(wrap === undefined ? {} : { wrap }),
    fake: {
      onExchange: () => {
        served += 1;
      },
    },
  });
  open.push(target);
  return { target, served: () => served };
}

test('in front of the fake: forwards the whole active run, adds no request, finds nothing broken', async () => {
  const { target, served } = await fakeDoor();
  const junit = join(mkdtempSync(join(tmpdir(), 'contract-proxy-')), 'proxy.xml');
  const proxy = await startProxyCli(target.baseUrl, ['--junit', junit]);
  const active = await runSuite({
    client: createRunClient(urlTarget(proxy.baseUrl, key), { seed: 31, budget: 1000 }),
    runs: 3,
  });
  expect(failedIds(active, true)).toEqual([]);
  expect(served()).toBe(active.requests);

  const report = await fetch(`${proxy.baseUrl.replace(/\/v1$/, '')}/__contract/report?format=json`);
  const json = (await report.json()) as {
    judged: number;
    forwarded: number;
    results: { id: string; status: string }[];
  };
  expect(json.forwarded).toBe(active.requests);
  expect(json.judged).toBe(active.requests);
  expect(json.results.filter((result) => result.status === 'fail')).toEqual([]);
  // The report answered itself: the fake saw no request for it.
  expect(served()).toBe(active.requests);

  const { code, stdout, stderr } = await proxy.stop();
  expect(code).toBe(0);
  expect(stdout).toMatch(/pass {2}rateLimit\.remainingDecreases/);
  expect(stdout).toMatch(/pass {2}createPet\.readBackUnchanged/);
  expect(stdout).toMatch(
    new RegExp(`${active.requests} requests forwarded, ${active.requests} exchanges judged`),
  );
  const xml = readFileSync(junit, 'utf8');
  for (const text of [stdout, stderr, xml]) expect(text).not.toContain(key);
  // The JUnit report says what the proxy did (it said requests=0 seed=0 after forwarding a run).
  expect(xml).toContain(
    `<properties><property name="forwarded" value="${active.requests}"/><property name="judged" value="${active.requests}"/><property name="unreachable" value="0"/><property name="findings" value="0"/><property name="rulesBroken" value="0"/></properties>`,
  );
  expect(xml).not.toMatch(/name="(seed|requests)"/);
  expect(Number(/<testsuites [^>]*time="([\d.]+)"/.exec(xml)?.[1])).toBeGreaterThan(0);
});

const faults = [
  'error-without-code',
  'rate-limit-remaining-frozen',
  'duplicate-ids',
  'get-returns-other-name',
  'server-error-on-pending',
  'rate-limit-headers-missing-on-errors',
];

for (const name of faults) {
  test(`in front of a fake with ${name}: reports what the active harness's every-response checks report`, async () => {
    const fault = mutants.find((mutant) => mutant.name === name);
    if (fault === undefined) throw new Error(`no mutant ${name}`);
    const { target, served } = await fakeDoor(fault.wrap);
    const proxy = await startProxyCli(target.baseUrl);
    const active = await runSuite({
      client: createRunClient(urlTarget(proxy.baseUrl, key), { seed: 32, budget: 1000 }),
      runs: 3,
    });
    // The every-response observers see the same exchanges in both runs, so they must agree
    // exactly; the active checks' judges see more on the proxy (every exchange, not only their
    // own), which proxy-judges.test.ts holds to the mutants one by one.
    const observers = new Set(
      passiveObservers(undefined)
        .filter((check) => allChecks.find((known) => known.id === check.id)?.kind === 'observer')
        .map((check) => check.id),
    );
    const expected = failedIds(active).filter((id) => observers.has(id));
    expect(expected.length).toBeGreaterThan(0);
    const { code, stdout } = await proxy.stop();
    expect(code).toBe(1);
    // Every rule broken, whether it leads a finding or is listed under one.
    const reported = brokenRulesIn(stdout);
    expect(reported.filter((id) => observers.has(id)).sort()).toEqual(expected.sort());
    expect(stdout).toContain('reproduce: curl');
    expect(served()).toBe(active.requests);
  });
}

test('proxy usage errors exit 2 naming the flag', async () => {
  const { PETSTORE_API_KEY: _, ...env } = process.env;
  const child = spawn(process.execPath, [cliPath, 'proxy', '--target', 'http://127.0.0.1:9/'], {
    env,
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number];
  expect(code).toBe(2);
  expect(stderr).toMatch(/^petstore-contract: --target must end with the version prefix \/v1/);
});
