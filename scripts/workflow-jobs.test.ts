/**
 * The CI patterns the documentation shows, run as scripts. The workflow's commented
 * e2e-through-proxy job: its `run` steps are read from
 * .github/workflows/contract.yml (the comment markers removed, as GitHub would read the job once
 * uncommented), with the step's env and `${{ secrets.* }}` given, in `bash -e` as Actions runs
 * them, in a checkout-like folder whose package.json adds the user's `e2e` script
 * (workflow-e2e-suite.ts). Against a broken server the job fails; against the fake it passes;
 * a suite that bypasses the proxy fails it too (no evidence). The README's opening example, the
 * same wrapper form as a package user types it, runs in shipped-docs-commands.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { FakeTarget } from '../contract-tests/targets/fake-target.ts';
import packageJson from '../package.json' with { type: 'json' };
import { fakeServer, runBash, withSecrets } from './doc-commands.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const workflow = readFileSync(join(root, '.github/workflows/contract.yml'), 'utf8');
const key = 'enterprise-demo-key';

interface Step {
  readonly run?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
}

/** The commented job `name`, uncommented and parsed. */
function commentedJob(name: string): { steps: Step[] } {
  const lines = workflow.split('\n');
  const start = lines.indexOf(`  # ${name}:`);
  if (start === -1) throw new Error(`contract.yml: no commented job ${name}`);
  const body: string[] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('  #')) break;
    body.push(line.replace(/^ {2}# ?/, ''));
  }
  return (parse(body.join('\n')) as Record<string, { steps: Step[] }>)[name] as { steps: Step[] };
}

/** The job's steps GitHub would run as shell, but `npm ci` (node_modules is installed here). */
function runSteps(steps: readonly Step[]): Step[] {
  return steps.filter((step) => step.run !== undefined && step.run.trim() !== 'npm ci');
}

const folders: string[] = [];
const open: FakeTarget[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((target) => target.close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A checkout of this repository (links to it) whose package.json names the user's e2e suite. */
function checkout(): string {
  const folder = mkdtempSync(join(tmpdir(), 'workflow-job-'));
  folders.push(folder);
  for (const entry of ['node_modules', 'contract-tests', 'mock', 'openapi', 'fixtures'])
    symlinkSync(join(root, entry), join(folder, entry));
  const suite = join(root, 'scripts', 'workflow-e2e-suite.ts');
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ ...packageJson, scripts: { ...packageJson.scripts, e2e: `node ${suite}` } }),
  );
  return folder;
}

/** Runs one script in `folder` as Actions runs a step (bash -e), with `env`; its status and output. */
async function runScript(script: string, folder: string, env: Record<string, string>) {
  const { PETSTORE_API_KEY: _, ...inherited } = process.env;
  const { code, out } = await runBash(
    `set -e\n${script}`,
    folder,
    { ...inherited, ...env },
    90_000,
  );
  return { status: code, output: out };
}

/** Runs the job's shell steps in order as Actions does (bash -e; a failed step fails the job). */
async function runJob(baseUrl: string, extraEnv: Record<string, string> = {}) {
  const secrets: Record<string, string> = {
    PETSTORE_STAGING_BASE_URL: baseUrl,
    PETSTORE_STAGING_API_KEY: key,
  };
  const folder = checkout();
  const outputs: string[] = [];
  for (const step of runSteps(commentedJob('e2e-through-proxy').steps)) {
    const env = withSecrets(step.env ?? {}, secrets);
    const { status, output } = await runScript(step.run ?? '', folder, { ...env, ...extraEnv });
    outputs.push(output);
    if (status !== 0) return { status, output: outputs.join('\n'), folder };
  }
  return { status: 0, output: outputs.join('\n'), folder };
}

async function fakeDoor(mutant?: string): Promise<FakeTarget> {
  const target = await fakeServer(key, mutant);
  open.push(target);
  return target;
}

test('the e2e-through-proxy job runs its suite through the proxy, needs no background job, and names the JUnit file it uploads', () => {
  const job = commentedJob('e2e-through-proxy');
  const steps = runSteps(job.steps);
  expect(steps).toHaveLength(1);
  expect(steps[0]?.run).toMatch(/npm run contract -- proxy .* -- npm run e2e/);
  expect(steps[0]?.run).not.toMatch(/&\s*$|kill|\.pid/m);
  const upload = job.steps.find((step) => step.uses?.startsWith('actions/upload-artifact'));
  expect(upload).toBeDefined();
  expect(JSON.stringify(upload)).toContain('proxy.xml');
});

test('the e2e-through-proxy job fails against a server that breaks the interface, and its JUnit report names the rule', async () => {
  const target = await fakeDoor('error-without-code');
  const job = await runJob(target.baseUrl);
  // The suite itself passes (it sees its 401): the proxy's verdict fails the job.
  expect(job.output).toContain('e2e: passed');
  expect(job.status, job.output).toBe(1);
  expect(job.output).toMatch(/^ {2}FAIL {2}errors\.bodyShape/m);
  const xml = readFileSync(join(job.folder, 'proxy.xml'), 'utf8');
  expect(xml).toMatch(/<failure [^>]*type="errors\.bodyShape"/);
  expect(`${job.output}${xml}`).not.toContain(key);
}, 120_000);

test('the e2e-through-proxy job passes against the fake, which conforms', async () => {
  const target = await fakeDoor();
  const job = await runJob(target.baseUrl);
  expect(job.status, job.output).toBe(0);
  expect(job.output).toContain('e2e: passed');
  expect(job.output).toMatch(/no rule seen broken in 4 exchanges/);
  expect(existsSync(join(job.folder, 'proxy.xml'))).toBe(true);
}, 120_000);

test('the e2e-through-proxy job fails when the suite bypasses the proxy: no evidence, exit 2', async () => {
  const target = await fakeDoor();
  const job = await runJob(target.baseUrl, { E2E_BASE_URL: target.baseUrl });
  expect(job.output).toContain('e2e: passed');
  expect(job.status, job.output).toBe(2);
  expect(job.output).toMatch(/no evidence, no verdict/);
  expect(job.output).not.toMatch(/--rate-limits/);
}, 120_000);
