/**
 * The commands the shipped guides give, run as written in a user's project: the packed tarball
 * installed with msw, vitest and Prism (consumer-project.ts), the files of the tests guide
 * written there, and the project's own `test` (vitest run) and `e2e` (a stand-in end-to-end
 * suite, workflow-e2e-suite.ts) scripts, which the guides assume. Each block is read from the
 * installed package, by file and heading (shipped-docs.test.ts holds every block to a test).
 * What a guide leaves to the reader is given: staging (`https://staging.example.com/v1`) is the
 * fake's HTTP door on a free port, a fresh one per command (or behind one fault where a broken
 * server is wanted); the key placeholder (`PETSTORE_API_KEY=...`) is the Free demo key; the
 * guides' ports (4010, 4011, 4020) are free ones, and a `petstore-fake` started without
 * `--port` gets free ones with its documented `--port` and `--staging-port`; a command that
 * serves until stopped (the fake, the proxy) runs in the background until it prints that it is
 * ready. Each command's exit code and output are held against what the guide says of it.
 */
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { FakeTarget } from '../contract-tests/targets/fake-target.ts';
import {
  type ConsumerProject,
  createConsumerProject,
  projectEnvironment,
} from './consumer-project.ts';
import {
  backgroundCommands,
  expectAsDocumented,
  fakeServer,
  runBash,
  waitForOutput,
  withoutComment,
  withSecrets,
} from './doc-commands.ts';
import { exampleFileName, fencedBlocks, markdownSection } from './markdown-blocks.ts';
import { runShellBlock, shellCommands } from './shell-block.ts';

const key = 'free-demo-key';
const e2eSuite = new URL('./workflow-e2e-suite.ts', import.meta.url).pathname;
let project: ConsumerProject;
const background = backgroundCommands();
const stagings: FakeTarget[] = [];

beforeAll(async () => {
  project = await createConsumerProject(['@stoplight/prism-cli']);
  // The tests guide's files (its vitest suite writes the pact verify-pact and the CI guide read).
  for (const block of fencedBlocks(shipped('docs/tests.md'))) {
    const file = exampleFileName(block);
    if (file === undefined) continue;
    mkdirSync(dirname(join(project.dir, file)), { recursive: true });
    writeFileSync(join(project.dir, file), `${block.text}\n`);
  }
  const manifestPath = join(project.dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.scripts = { test: 'vitest run', e2e: `node ${e2eSuite}` };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}, 180_000);

afterEach(async () => {
  await background.stop();
  await Promise.all(stagings.splice(0).map((staging) => staging.close()));
});

afterAll(() => project?.remove());

/** A file of the installed package. */
function shipped(file: string): string {
  return readFileSync(join(project.dir, 'node_modules', 'petstore-fake', file), 'utf8');
}

/** The blocks of `langs` right under `heading` in a shipped file, in order. */
function blocksUnder(file: string, heading: string, langs = ['sh']): string[] {
  // markdownSection throws when the heading is gone: a moved section fails here, not silently.
  markdownSection(shipped(file), heading);
  return fencedBlocks(shipped(file))
    .filter((block) => block.heading === heading && langs.includes(block.lang))
    .map((block) => block.text);
}

/**
 * The project's environment: this Node first on PATH, then the project's bins, as an npm
 * script's would be; no key unless a guide sets one; no variables of the vitest running this
 * test; no colours; npm from its cache where it can.
 */
function projectEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...projectEnvironment(project.dir, /^NODE_ENV$|^PETSTORE_/), ...extra };
}

/** Runs one command as the reader's shell would, in the project; its exit code and output. */
const runCommand = (command: string, env: NodeJS.ProcessEnv) => runBash(command, project.dir, env);

/** A port nothing listens on, whose next port is free too (a fake's default staging port). */
async function freePorts(): Promise<{ port: number; stagingPort: number }> {
  for (;;) {
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as { port: number };
    const next = createServer().listen(port + 1, '127.0.0.1');
    const free = await new Promise<boolean>((resolve) => {
      next.once('listening', () => resolve(true));
      next.once('error', () => resolve(false));
    });
    await new Promise((resolve) => probe.close(resolve));
    if (free) await new Promise((resolve) => next.close(resolve));
    if (free) return { port, stagingPort: port + 1 };
  }
}

/** Staging: the fake's HTTP door on a free port, or behind one fault; answers its base URL. */
async function staging(mutant?: string): Promise<string> {
  const target = await fakeServer(key, mutant);
  stagings.push(target);
  return target.baseUrl;
}

/** A guide's text with what it leaves to the reader given. */
function given(
  text: string,
  values: { staging?: string; port?: number; stagingPort?: number; proxyPort?: number } = {},
): string {
  let out = text.replaceAll('PETSTORE_API_KEY=...', `PETSTORE_API_KEY=${key}`);
  if (values.staging !== undefined)
    out = out.replaceAll('https://staging.example.com/v1', values.staging);
  if (values.port !== undefined)
    out = out
      .replaceAll(':4010', `:${values.port}`)
      .replaceAll('--port 4010', `--port ${values.port}`);
  if (values.stagingPort !== undefined) out = out.replaceAll(':4011', `:${values.stagingPort}`);
  if (values.proxyPort !== undefined)
    out = out
      .replaceAll(':4020', `:${values.proxyPort}`)
      .replaceAll('--port 4020', `--port ${values.proxyPort}`);
  return out;
}

/** What a command that serves until stopped prints once it is ready; undefined for the others. */
function servesUntilStopped(command: string): RegExp | undefined {
  if (/^npx petstore-fake\b/.test(command) && !/--help/.test(command)) return /demo keys \(send as/;
  if (/^npx petstore-contract proxy\b/.test(command) && !/ -- /.test(command))
    return /petstore-contract proxy: http:\/\/\S+ -> /;
  return undefined;
}

/** One command of a block, run: its exit code (none for a server still serving) and output. */
interface Ran {
  readonly command: string;
  readonly code: number | null | 'serving';
  readonly out: string;
  readonly comments: readonly string[];
  readonly server?: ReturnType<typeof background.start>;
}

/**
 * Runs a block command by command in the project: `export NAME=value` sets the environment of
 * the commands after it, a command that serves until stopped runs in the background until it is
 * ready (a `petstore-fake` without `--port` on free ports), every other command to its end.
 */
async function runBlock(text: string, env: NodeJS.ProcessEnv): Promise<Ran[]> {
  const vars = { ...env };
  const ran: Ran[] = [];
  for (const { command: written, comments } of shellCommands(text)) {
    const command = withoutComment(written);
    const exported = /^export (\w+)=(\S+)$/.exec(command);
    if (exported !== null) {
      vars[exported[1] as string] = exported[2] as string;
      continue;
    }
    const ready = servesUntilStopped(command);
    if (ready !== undefined) {
      let line = command;
      if (/^npx petstore-fake\b/.test(line) && !/--port\b/.test(line)) {
        const { port, stagingPort } = await freePorts();
        line = `${line} --port ${port} --staging-port ${stagingPort}`;
      }
      const server = background.start(line, project.dir, vars);
      const out = await waitForOutput(server, ready);
      ran.push({ command: line, code: 'serving', out, comments, server });
      continue;
    }
    ran.push({ command, comments, ...(await runCommand(command, vars)) });
  }
  return ran;
}

/** The lines a run printed that start with `petstore-contract: `, last one last. */
const closing = (out: string) => out.trim().split('\n').at(-1) ?? '';

test('README.md, Set up: the second command starts the fake, the curl line answers, and the QA guide recipe runs against it as written (docs/qa.md, Recipe: 429 → Retry-After → ban → recovery, in seconds)', async () => {
  const [setUp = '', curl = ''] = blocksUnder('README.md', 'Set up');
  const commands = shellCommands(setUp).map(({ command }) => withoutComment(command));
  expect(commands).toHaveLength(2);
  // The install line is the install guide's, which consumer-versions.test.ts runs as written.
  const installLine = shellCommands(blocksUnder('docs/install.md', 'Install')[0] ?? '')
    .map(({ command }) => withoutComment(command))
    .find((command) => command.startsWith('npm install --save-dev /path/to/'));
  expect(commands[0]).toBe(installLine);
  expect(commands[1]).toBe('npx petstore-fake');
  const [fake] = await runBlock(commands[1] as string, projectEnv());
  const port = Number(/--port (\d+)/.exec(fake?.command ?? '')?.[1]);
  const stagingPort = Number(/--staging-port (\d+)/.exec(fake?.command ?? '')?.[1]);
  expect(fake?.out).toContain(`http://127.0.0.1:${port}/v1`);
  expect(fake?.out).toContain(`http://127.0.0.1:${stagingPort}/v1`);

  const listed = runShellBlock(given(curl, { port }), projectEnv(), project.dir);
  expect(listed).toHaveLength(1);
  expectAsDocumented(listed);
  const pets = JSON.parse(listed[0]?.output ?? '') as { status: string }[];
  expect(pets).toHaveLength(2);
  for (const pet of pets) expect(pet.status).toBe('sold');

  const [recipe = ''] = blocksUnder(
    'docs/qa.md',
    'Recipe: 429 → Retry-After → ban → recovery, in seconds',
  );
  const steps = runShellBlock(given(recipe, { port }), projectEnv(), project.dir);
  // 200 200 200 429; the bans; HTTP/1.1 200 OK; the 503; the stub; Prefer; the journal's last three statuses.
  expect(steps.filter((step) => step.expectation.length > 0)).toHaveLength(7);
  expectAsDocumented(steps);
}, 120_000);

test('README.md, CI engineer: staging held to the interface: the proxy runs the suite through it, exit 0 against staging and 1 against a broken one', async () => {
  const [example = ''] = blocksUnder('README.md', 'CI engineer: staging held to the interface');
  expect(example).toBe(
    'PETSTORE_API_KEY=... npx petstore-contract proxy --target https://staging.example.com/v1 -- npm run e2e',
  );
  const passed = await runCommand(given(example, { staging: await staging() }), projectEnv());
  expect(passed.out).toContain('e2e: passed');
  expect(passed.code, passed.out).toBe(0);
  const failed = await runCommand(
    given(example, { staging: await staging('error-without-code') }),
    projectEnv(),
  );
  expect(failed.out).toMatch(/^ {2}FAIL {2}errors\.bodyShape/m);
  expect(failed.code, failed.out).toBe(1);
  expect(`${passed.out}${failed.out}`).not.toContain(key);
}, 120_000);

test('contract-tests/README.md, Contract harness, and harness/run.md, Point it at a server: a run against staging conforms; --fake, --prism-mock and --via-prism as written', async () => {
  const [map = ''] = blocksUnder('contract-tests/README.md', 'Contract harness');
  const [first = '', others = ''] = blocksUnder('docs/harness/run.md', 'Point it at a server');
  expect(map).toBe(first);
  const run = await runBlock(given(first, { staging: await staging() }), projectEnv());
  expect(run).toHaveLength(1);
  expect(closing(run[0]?.out ?? '')).toMatch(
    /^petstore-contract: the server conforms to the interface/,
  );
  expect(run[0]?.code, run[0]?.out).toBe(0);

  // The second block runs where the first left the reader: the key exported, the fake of the
  // README's set-up serving on 4010.
  const [fake] = await runBlock('npx petstore-fake', projectEnv());
  const port = Number(/--port (\d+)/.exec(fake?.command ?? '')?.[1]);
  const targets = await runBlock(given(others, { port }), projectEnv({ PETSTORE_API_KEY: key }));
  expect(targets.map((each) => each.command)).toEqual([
    'npx petstore-contract --fake',
    'npx petstore-contract --prism-mock',
    `PETSTORE_API_KEY=enterprise-demo-key npx petstore-contract --base-url http://127.0.0.1:${port}/v1 --via-prism`,
  ]);
  const [fakeRun, prismMock, viaPrism] = targets;
  expect(closing(fakeRun?.out ?? '')).toMatch(/the server conforms to the interface/);
  expect(fakeRun?.code, fakeRun?.out).toBe(0);
  expect(closing(prismMock?.out ?? '')).toMatch(/self-test: no false alarm/);
  expect(prismMock?.code, prismMock?.out).toBe(0);
  expect(viaPrism?.out).toMatch(/^ {2}pass {2}prism\.exchangesValid/m);
  expect(closing(viaPrism?.out ?? '')).toMatch(/the server conforms to the interface/);
  expect(viaPrism?.code, viaPrism?.out).toBe(0);
}, 240_000);

test('install.md, The commands, from your project: the fake serves, the harness finds it and its own fake conforming', async () => {
  const [block = ''] = blocksUnder('docs/install.md', 'The commands, from your project');
  const { port, stagingPort } = await freePorts();
  const ran = await runBlock(given(block, { port, stagingPort }), projectEnv());
  expect(ran.map((each) => each.command)).toEqual([
    `npx petstore-fake --port ${port}`,
    'npx petstore-contract --fake',
    `npx petstore-contract --base-url http://127.0.0.1:${port}/v1 --plan free`,
  ]);
  const [served, fakeRun, planRun] = ran;
  expect(served?.out).toContain(`http://127.0.0.1:${stagingPort}/v1`);
  for (const each of [fakeRun, planRun]) {
    expect(closing(each?.out ?? ''), each?.command).toMatch(/the server conforms to the interface/);
    expect(each?.code, each?.out).toBe(0);
  }
  // --plan free: the Free key's X-RateLimit-Limit held to the plan table.
  expect(planRun?.out).toMatch(/^ {2}pass {2}rateLimit\.planLimits/m);
}, 180_000);

test('harness/proxy.md, Conformance from real traffic: the proxy: the wrapper form passes and writes its JUnit file; the server form reports, and Ctrl-C ends it with its verdicts and the file', async () => {
  const [wrapper = '', server = ''] = blocksUnder(
    'docs/harness/proxy.md',
    'Conformance from real traffic: the proxy',
  );
  const wrapped = await runBlock(
    given(wrapper, { staging: await staging() }),
    projectEnv({ PETSTORE_API_KEY: key }),
  );
  expect(wrapped).toHaveLength(1);
  expect(wrapped[0]?.out).toContain('e2e: passed');
  expect(wrapped[0]?.code, wrapped[0]?.out).toBe(0);
  // The e2e suite's four requests, forwarded and judged.
  const junit = readFileSync(join(project.dir, 'proxy.xml'), 'utf8');
  expect(junit).toContain('<property name="forwarded" value="4"/>');

  const proxyPort = (await freePorts()).port;
  const ran = await runBlock(given(server, { staging: await staging(), proxyPort }), projectEnv());
  const [proxy, report] = ran;
  expect(proxy?.code).toBe('serving');
  expect(report?.command).toBe(`curl -s http://127.0.0.1:${proxyPort}/__contract/report`);
  expect(report?.out).toMatch(/petstore-contract proxy: 0 requests forwarded, 0 exchanges judged/);
  expect(report?.code).toBe(0);
  // "Ctrl-C (or SIGTERM): prints the verdicts, writes proxy.xml and exits": Ctrl-C, which a
  // terminal sends to the whole foreground group, npx included. Nothing went through it.
  expect(report?.comments.join(' ')).toMatch(/SIGTERM\): prints the verdicts, writes proxy\.xml/);
  const child = proxy?.server;
  if (child?.pid === undefined) throw new Error('the proxy did not start');
  let printed = proxy?.out ?? '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  process.kill(-child.pid, 'SIGINT');
  const [code, signal] = await exited;
  expect(printed).toMatch(/petstore-contract proxy: 0 requests forwarded, 0 exchanges judged/);
  expect(printed).toMatch(/petstore-contract proxy: no evidence, no verdict/);
  // npx ends by the signal, as the guide says: the shell sees 130, not the verdict.
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGINT' });
  expect(readFileSync(join(project.dir, 'proxy.xml'), 'utf8')).toContain(
    '<property name="forwarded" value="0"/>',
  );
}, 180_000);

test('harness/calibrate.md, Calibrate the fake against a real server: the profile is written, the fake starts with it, and the comparison finds no drift', async () => {
  const [block = ''] = blocksUnder(
    'docs/harness/calibrate.md',
    'Calibrate the fake against a real server',
  );
  const ran = await runBlock(given(block, { staging: await staging() }), projectEnv());
  const written = (command: string) =>
    command.replace(/ --port \d+ --staging-port \d+$/, '').replace(/\s+/g, ' ');
  expect(ran.map((each) => written(each.command))).toEqual([
    `npx petstore-contract calibrate --base-url ${stagings[0]?.baseUrl} --allow-writes --out staging.profile.json`,
    'npx petstore-fake --profile staging.profile.json',
    `npx petstore-contract calibrate --base-url ${stagings[0]?.baseUrl} --allow-writes --compare --fake-profile staging.profile.json`,
  ]);
  const [learned, started, compared] = ran;
  expect(learned?.code, learned?.out).toBe(0);
  expect(existsSync(join(project.dir, 'staging.profile.json'))).toBe(true);
  expect(started?.code).toBe('serving');
  expect(compared?.code, compared?.out).toBe(0);
}, 180_000);

test("harness/verify-pact.md, Replay a pact: verify-pact: the pact the tests guide's suite wrote is honoured by staging", async () => {
  const suite = await runCommand('npx vitest run', projectEnv());
  expect(suite.code, suite.out).toBe(0);
  const [block = ''] = blocksUnder('docs/harness/verify-pact.md', 'Replay a pact: verify-pact');
  const ran = await runBlock(given(block, { staging: await staging() }), projectEnv());
  expect(ran).toHaveLength(1);
  expect(closing(ran[0]?.out ?? '')).toMatch(/^petstore-contract: the server honours the pact/);
  expect(ran[0]?.code, ran[0]?.out).toBe(0);
}, 180_000);

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
}

test('harness/ci.md, CI: every job of the workflow runs as Actions would against staging, the publish step aside', async () => {
  const [yaml = ''] = blocksUnder('docs/harness/ci.md', 'CI', ['yaml']);
  const workflow = parse(yaml) as { jobs: Record<string, { steps: Step[] }> };
  expect(Object.keys(workflow.jobs)).toEqual([
    'staging',
    'calibration',
    'e2e-through-proxy',
    'pact',
  ]);
  const outputs: Record<string, string> = {};
  for (const [name, job] of Object.entries(workflow.jobs)) {
    const secrets: Record<string, string> = {
      PETSTORE_STAGING_BASE_URL: await staging(),
      PETSTORE_STAGING_API_KEY: key,
    };
    outputs[name] = '';
    for (const step of job.steps) {
      if (step.run === undefined || step.run.trim() === 'npm ci') continue;
      // No broker exists here: the one step that needs it is read, not run.
      if (step.run.includes('pact-broker publish')) {
        expect(Object.keys(step.env ?? {})).toEqual(['PACT_BROKER_BASE_URL', 'PACT_BROKER_TOKEN']);
        continue;
      }
      const env = withSecrets(
        Object.fromEntries(
          Object.entries(step.env ?? {}).map(([variable, value]) => [
            variable,
            // The run number stands for the seed, as on a scheduled run.
            value.replace(
              /\$\{\{\s*github\.event\.inputs\.seed \|\| github\.run_number\s*\}\}/,
              '7',
            ),
          ]),
        ),
        secrets,
      );
      const result = await runCommand(`set -e\n${step.run}`, projectEnv(env));
      outputs[name] += result.out;
      expect(result.code, `${name}: ${step.run}\n${result.out}`).toBe(0);
    }
  }
  expect(outputs.staging).toMatch(/the server conforms to the interface/);
  expect(outputs.calibration).toMatch(/the fake answers as the server does on all \d+ choices/);
  expect(outputs['e2e-through-proxy']).toContain('e2e: passed');
  expect(outputs.pact).toMatch(/the server honours the pact/);
  // The staging job's budget is refused without --read-only against this loopback staging: the
  // flag is what keeps the example valid on any target.
  const stagingRun = workflow.jobs.staging?.steps.find((step) => step.name === 'Check staging');
  const withoutReadOnly = await runCommand(
    (stagingRun?.run ?? '').replace('--read-only', ''),
    projectEnv({ PETSTORE_API_KEY: key, STAGING_BASE_URL: await staging(), SEED: '7' }),
  );
  expect(withoutReadOnly.out).toMatch(/--budget 60 is too small for the checks asked/);
  expect(withoutReadOnly.code).toBe(2);
}, 600_000);

test('tests.md, In your tests (vitest, Node): the project starts with npm init -y and npm pkg set type=module, and the install line of the fake.fetch example installs the majors it pins', async () => {
  const [start = '', line = ''] = blocksUnder('docs/tests.md', 'In your tests (vitest, Node)');
  // The first block starts a project; consumer-project.ts runs it as written for this project.
  expect(start).toMatch(/^npm init -y .*\nnpm pkg set type=module /);
  expect(project.startOutput).toMatch(/"type": "commonjs"/);
  expect(line).toBe('npm install --save-dev ky@^2.1.0 openapi-fetch@^0.17.0');
  const install = await runCommand(line, projectEnv());
  expect(install.code, install.out).toBe(0);
  const version = (name: string) =>
    JSON.parse(readFileSync(join(project.dir, 'node_modules', name, 'package.json'), 'utf8'))
      .version as string;
  expect(version('ky')).toMatch(/^2\./);
  expect(version('openapi-fetch')).toMatch(/^0\.17\./);
}, 180_000);
