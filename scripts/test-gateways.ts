/**
 * `npm run test:gateways` (not part of `npm test`): the gateway cases
 * (contract-tests/real-servers/gateway-cases.ts), run against the real gateways from Debian's
 * packages instead of their stand-ins. Each case starts the fake on a free loopback port, the
 * gateway with a configuration of its own in a temporary folder (scripts/gateway-configs.ts) on
 * another, and the harness CLI through the gateway, as a user runs it; then stops both and
 * removes the folder. Gateways that are missing are installed with `apt-get install` when this
 * runs as root on a machine with apt-get; the ones it cannot install are named, and their cases
 * reported as not run. Bounded: each harness run by its own time limit, the whole script by
 * `deadlineMs`; every process it starts is stopped on the way out, whatever the way.
 *
 * Exit 0: every case ran and ended as the interface decides; 1: some case did not; 2: some case
 * could not run (a gateway missing or not starting), none went wrong.
 * docs/harness/gateways.md keeps what it last printed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  caseTitle,
  type GatewayCase,
  type GatewayName,
  type GatewayRun,
  gatewayCases,
} from '../test/harness-fixtures/real-servers/gateway-cases.ts';
import type {
  GatewayModel,
  Refusal,
} from '../test/harness-fixtures/real-servers/gateway-models.ts';
import { brokenRuleMessage, type CliRun, runCli } from '../test/support/contract-cli-process.ts';
import { freePort, startFakeProcess, stopFakeProcesses } from '../test/support/fake-process.ts';
import { gatewayCommand, versionCommand } from './gateway-configs.ts';

/** The whole script's limit: installs, eleven runs four at a time, each a fake's minute or two. */
const deadlineMs = 20 * 60_000;
/** `apt-get install` of the four packages. */
const installTimeoutMs = 10 * 60_000;
/** One harness run: a default run sends about 70 requests; `--rate-limits` waits one minute. */
const runBoundMs = { default: 90_000, rateLimits: 180_000 };
/** How long a gateway may take to answer its first request. */
const startUpMs = 20_000;
/** Runs at a time: the fakes and gateways idle while the `--rate-limits` runs wait. */
const concurrency = 4;
/** Most output kept of a gateway, for when it fails to start. */
const keptOutputChars = 8 * 1024;

/** Debian keeps nginx, apache2 and haproxy in /usr/sbin, which a user's PATH may lack. */
const path = `${process.env.PATH ?? ''}:/usr/sbin:/sbin`;
/** The fake's Free demo key (fixtures/keys.json): a Free key's minute, as CI runs with. */
const freeKey = (() => {
  const keys = JSON.parse(
    readFileSync(new URL('../fixtures/keys.json', import.meta.url), 'utf8'),
  ) as { keys: { key: string; plan: string }[] };
  const free = keys.keys.find((entry) => entry.plan === 'free');
  if (free === undefined) throw new Error('test:gateways: fixtures/keys.json has no free key');
  return free.key;
})();

/** Gateway processes still running, stopped on the way out. */
const gateways = new Set<ChildProcess>();
/** Harness runs still running, killed on the way out (the script's own limit ends them). */
const harnessRuns = new Set<ChildProcess>();
/** Temporary folders not yet removed. */
const folders = new Set<string>();

/** Kills `child`'s process group (gateways start their own, with workers in it). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Gone already.
  }
}

/** Stops a gateway: SIGTERM to its group, SIGKILL 3 s later if any of it is left. */
async function stopGateway(child: ChildProcess): Promise<void> {
  gateways.delete(child);
  // Never started (spawn failed), or ended already.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
  // Workers that outlived their master.
  if (child.pid !== undefined)
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // None left.
    }
}

/** Kills whatever is still running, synchronously (for exit and signals). */
function killEverything(): void {
  for (const child of gateways) killGroup(child, 'SIGKILL');
  for (const child of harnessRuns) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', killEverything);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    console.error(`test:gateways: ${signal}, stopping every gateway and fake it started`);
    // Synchronously, then out: a worker left running would start the next case's processes.
    killEverything();
    void stopFakeProcesses();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });

/** Whether `command` is on the PATH (with /usr/sbin). */
const installed = (command: string) =>
  spawnSync('sh', ['-c', `command -v ${command}`], { env: { ...process.env, PATH: path } })
    .status === 0;

/** Runs `apt-get <args>` non-interactively; whether it succeeded, and its last words. */
function aptGet(args: readonly string[]): { ok: boolean; said: string } {
  const run = spawnSync('apt-get', args, {
    env: { ...process.env, PATH: path, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    timeout: installTimeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  const said = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split('\n').slice(-3).join(' / ');
  return { ok: run.status === 0, said: run.error?.message ?? said };
}

/**
 * Installs the gateways that are missing, when it can (root, apt-get); returns why each of the
 * ones still missing is.
 */
function installMissing(names: readonly GatewayName[]): Map<GatewayName, string> {
  const missing = names.filter((name) => !installed(name));
  const why = new Map<GatewayName, string>();
  if (missing.length === 0) return why;
  if (!installed('apt-get')) {
    for (const name of missing) why.set(name, 'not installed, and no apt-get here');
    return why;
  }
  if (process.getuid?.() !== 0) {
    for (const name of missing)
      why.set(name, `not installed; as root: apt-get install -y ${missing.join(' ')}`);
    return why;
  }
  console.log(`test:gateways: installing ${missing.join(', ')} from Debian's packages`);
  const install = ['install', '-y', '--no-install-recommends', ...missing];
  let result = aptGet(install);
  // Stale package lists: update once, then try again.
  if (!result.ok && aptGet(['update']).ok) result = aptGet(install);
  for (const name of missing)
    if (!installed(name)) why.set(name, `apt-get install failed: ${result.said}`);
  return why;
}

/** The first line a gateway prints about its version. */
function versionOf(name: GatewayName): string {
  const [command = name, ...args] = versionCommand[name];
  const run = spawnSync(command, args, { env: { ...process.env, PATH: path }, encoding: 'utf8' });
  return `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split('\n')[0] ?? '(no version)';
}

/** Waits until the gateway forwards a request to the fake (a JSON answer), or throws why not. */
async function waitForGateway(baseUrl: string, child: ChildProcess, output: () => string) {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the gateway exited (${child.exitCode ?? child.signalCode}): ${output()}`);
    try {
      const response = await fetch(`${baseUrl}/pets`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.headers.get('Content-Type')?.startsWith('application/json')) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() - started > startUpMs)
      throw new Error(`the gateway did not forward within ${startUpMs} ms: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether `response` is `refusal`, byte for byte (status, Content-Type, body). */
async function isRefusal(response: Response, refusal: Refusal): Promise<boolean> {
  const body = await response.text();
  return (
    response.status === refusal.status &&
    response.headers.get('Content-Type') === (refusal.contentType ?? null) &&
    body === refusal.body
  );
}

/**
 * Holds the stand-in's model to the real gateway at each of its request-line and body limits:
 * a request of the limit's size reaches the fake (a JSON answer), one octet more gets the
 * model's refusal, byte for byte. Returns what differs.
 */
async function checkEdges(baseUrl: string, model: GatewayModel): Promise<string[]> {
  const problems: string[] = [];
  const path = `${new URL(baseUrl).pathname}/pets?limit=20&contract-padding=`;
  const probes: [string, number, Refusal, (size: number) => Promise<Response>][] = [];
  if (model.requestLine !== undefined)
    probes.push([
      'request line',
      model.requestLine.max,
      model.requestLine.refusal,
      (size) =>
        fetch(
          `${baseUrl}/pets?limit=20&contract-padding=${'x'.repeat(size - `GET ${path} HTTP/1.1`.length)}`,
        ),
    ]);
  if (model.body !== undefined)
    probes.push([
      'body',
      model.body.max,
      model.body.refusal,
      (size) =>
        fetch(`${baseUrl}/pets`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: `{"name":"${'x'.repeat(size - 26)}","categoryId":1}`,
        }),
    ]);
  for (const [what, max, refusal, send] of probes) {
    const forwarded = await send(max);
    const type = forwarded.headers.get('Content-Type') ?? '';
    await forwarded.arrayBuffer();
    if (!type.startsWith('application/json'))
      problems.push(
        `a ${what} of ${max} octets got ${forwarded.status} (${type}), not the fake's answer`,
      );
    const refused = await send(max + 1);
    const status = refused.status;
    if (!(await isRefusal(refused, refusal)))
      problems.push(
        `a ${what} of ${max + 1} octets got ${status}, not the stand-in's ${refusal.status} page`,
      );
  }
  return problems;
}

/** How one run ended. */
interface Outcome {
  readonly gatewayCase: GatewayCase;
  readonly run: GatewayRun;
  /** The harness's exit code, or why the run could not happen. */
  readonly code: number | null | string;
  readonly ok: boolean | 'not run';
  readonly seconds: number;
  /** What went wrong, with the harness's output. */
  readonly detail?: string;
  /** The finding of errors.largeRequests, when the run has one. */
  readonly finding?: string;
}

/** What the report says of errors.largeRequests, shortened, whether it leads a finding or not. */
function findingOf(stdout: string): string | undefined {
  const message = brokenRuleMessage(stdout, 'errors.largeRequests');
  return message === undefined ? undefined : message.replace(/; body: .*?; /, '; ').slice(0, 400);
}

/** Whether the harness's run is the verdict `run` expects. */
function judge(result: CliRun, run: GatewayRun): string | undefined {
  if (result.killed) return 'the harness was still running at its time limit';
  if (result.code !== run.code) return `the harness exited ${result.code}, expected ${run.code}`;
  const output = `${result.stdout}\n${result.stderr}`;
  if (run.code === 0 && !/the server conforms to the interface in all \d+ checks/.test(output))
    return 'no "conforms" line';
  if (run.says !== undefined && !run.says.test(output))
    return `the output does not match ${run.says}`;
  return undefined;
}

/** Starts `gatewayCase`'s gateway in a process group of its own, keeping the end of its output. */
function startGateway(
  gatewayCase: GatewayCase,
  site: { port: number; upstreamPort: number; dir: string },
): { process: ChildProcess; output: () => string } {
  const { command, args, env } = gatewayCommand[gatewayCase.gateway]({
    ...site,
    ...(gatewayCase.setting === undefined ? {} : { setting: gatewayCase.setting }),
  });
  const child = spawn(command, args, {
    env: { ...process.env, PATH: path, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  gateways.add(child);
  let said = '';
  const keep = (chunk: Buffer) => {
    said = (said + chunk.toString()).slice(-keptOutputChars);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => keep(Buffer.from(error.message)));
  return { process: child, output: () => said };
}

/** Runs one case's run: a fake, the gateway in front of it, the harness through the gateway. */
async function runOne(gatewayCase: GatewayCase, run: GatewayRun): Promise<Outcome> {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  const dir = mkdtempSync(join(tmpdir(), `petstore-gateway-${gatewayCase.gateway}-`));
  // nginx's and Apache's workers run as nobody when started as root: they must reach the folder.
  chmodSync(dir, 0o755);
  folders.add(dir);
  let gateway: ChildProcess | undefined;
  let fake: ChildProcess | undefined;
  try {
    const upstreamPort = await freePort();
    fake = (await startFakeProcess(['--port', String(upstreamPort), '--no-staging', '--quiet']))
      .child;
    // A port picked free may be taken before the gateway binds it (8 engineers share a
    // machine): a gateway that does not start gets one more try on another port.
    let baseUrl = '';
    for (let attempt = 1; baseUrl === ''; attempt++) {
      const port = await freePort();
      const child = startGateway(gatewayCase, { port, upstreamPort, dir });
      gateway = child.process;
      try {
        await waitForGateway(`http://127.0.0.1:${port}/v1`, child.process, child.output);
        baseUrl = `http://127.0.0.1:${port}/v1`;
      } catch (error) {
        await stopGateway(child.process);
        gateway = undefined;
        if (attempt === 2)
          return {
            gatewayCase,
            run,
            code: 'did not start',
            ok: 'not run',
            seconds: seconds(),
            detail: (error as Error).message,
          };
      }
    }
    // The stand-in's edges, once a case: the stand-ins in npm test are this gateway as measured.
    const edges = run === gatewayCase.runs[0] ? await checkEdges(baseUrl, gatewayCase.standIn) : [];
    const killAfterMs = run.flags.includes('--rate-limits')
      ? runBoundMs.rateLimits
      : runBoundMs.default;
    const result = await runCli(
      ['--base-url', baseUrl, '--seed=17', ...run.flags],
      { PETSTORE_API_KEY: freeKey },
      {
        killAfterMs,
        onSpawn: (child) => {
          harnessRuns.add(child);
          child.once('exit', () => harnessRuns.delete(child));
        },
      },
    );
    const verdict = judge(result, run);
    const finding = findingOf(result.stdout);
    const wrong =
      edges.length > 0
        ? `the stand-in differs from the gateway: ${edges.join('; ')}${verdict === undefined ? '' : `; ${verdict}`}`
        : verdict;
    return {
      gatewayCase,
      run,
      code: result.code,
      ok: wrong === undefined,
      seconds: seconds(),
      ...(finding === undefined ? {} : { finding }),
      ...(wrong === undefined
        ? {}
        : { detail: `${wrong}\n${result.stdout.slice(-6_000)}\n${result.stderr.slice(-2_000)}` }),
    };
  } finally {
    if (gateway !== undefined) await stopGateway(gateway);
    if (fake !== undefined && fake.exitCode === null && fake.signalCode === null) {
      const exited = new Promise((resolve) => fake?.once('exit', resolve));
      fake.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
    folders.delete(dir);
  }
}

/** Runs `jobs` with at most `concurrency` at a time, in order of start. */
async function pool<T>(jobs: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < jobs.length; index = next++) {
      const job = jobs[index];
      if (job !== undefined) results[index] = await job();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** The summary as a Markdown table, as docs/harness/gateways.md keeps it. */
function summary(outcomes: readonly Outcome[]): string {
  const rows = outcomes.map(({ gatewayCase, run, code, ok, seconds }) => {
    const flags = run.flags.length === 0 ? 'default' : run.flags.join(' ');
    const setting =
      gatewayCase.setting === undefined ? 'stock limits' : `\`${gatewayCase.setting.join(' ')}\``;
    const result = ok === 'not run' ? 'not run' : ok ? 'as expected' : 'WRONG';
    return `| ${gatewayCase.gateway} | ${setting} | ${flags} | ${run.code} | ${code} | ${result} | ${seconds} s |`;
  });
  return [
    '| gateway | configuration | run | expected exit | exit | result | took |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

async function main(): Promise<number> {
  const deadline = setTimeout(() => {
    console.error(`test:gateways: still running after ${deadlineMs / 60_000} min; giving up`);
    killEverything();
    void stopFakeProcesses();
    process.exit(1);
  }, deadlineMs);
  deadline.unref();
  const names = [...new Set(gatewayCases.map((entry) => entry.gateway))];
  const missing = installMissing(names);
  console.log(`test:gateways: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`);
  for (const name of names) console.log(`  ${name}: ${missing.get(name) ?? versionOf(name)}`);
  // The runs that wait a whole window first, so the short ones fill the gaps.
  const jobs = gatewayCases
    .flatMap((gatewayCase) => gatewayCase.runs.map((run) => ({ gatewayCase, run })))
    .sort((a, b) => Number(b.run.flags.length > 0) - Number(a.run.flags.length > 0));
  const outcomes = await pool(
    jobs.map(({ gatewayCase, run }) => async (): Promise<Outcome> => {
      const why = missing.get(gatewayCase.gateway);
      const outcome =
        why === undefined
          ? await runOne(gatewayCase, run)
          : { gatewayCase, run, code: 'not installed', ok: 'not run' as const, seconds: 0 };
      const flags = run.flags.length === 0 ? 'default run' : run.flags.join(' ');
      console.log(
        `  ${outcome.ok === true ? 'ok  ' : outcome.ok === 'not run' ? 'skip' : 'FAIL'}  ${caseTitle(gatewayCase)}, ${flags}: exit ${outcome.code} (${outcome.seconds} s)`,
      );
      if (outcome.detail !== undefined) console.log(outcome.detail.replace(/^/gm, '        '));
      return outcome;
    }),
  );
  await stopFakeProcesses();
  const ordered = gatewayCases.flatMap((gatewayCase) =>
    gatewayCase.runs.map((run) =>
      outcomes.find((outcome) => outcome.gatewayCase === gatewayCase && outcome.run === run),
    ),
  );
  const shown = ordered.filter((outcome) => outcome !== undefined);
  console.log(`\n${summary(shown)}\n`);
  for (const { gatewayCase, finding } of shown)
    if (finding !== undefined) console.log(`- ${caseTitle(gatewayCase)}: ${finding}`);
  const wrong = outcomes.filter((outcome) => outcome.ok === false).length;
  const notRun = outcomes.filter((outcome) => outcome.ok === 'not run').length;
  console.log(
    `test:gateways: ${outcomes.length - wrong - notRun} of ${outcomes.length} runs as the interface decides, ${wrong} not, ${notRun} not run`,
  );
  return wrong > 0 ? 1 : notRun > 0 ? 2 : 0;
}

process.exitCode = await main();
