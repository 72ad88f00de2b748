/**
 * The contract harness's cost: its default run (`npm run contract -- --base-url <url>`, no other
 * flag) against a fake started as `npm start` starts it, counted from the fake's request log. Once with the
 * Enterprise demo key (limits do not bind: how long a run takes) and once with the Free demo key
 * against a fresh fake (limits bind: does the run stay within one Free minute, with no 429).
 * If contract-tests/cli.ts is missing or cannot run, the section says "not available" and why.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '../scripts/build-package.ts';
import { freePort, startServer } from './processes.ts';
import {
  createRequestLogCounter,
  type RequestCounts,
  readyCheckClient,
} from './request-log-counts.ts';
import { fakeDefaultSpec, projectRoot } from './servers.ts';

/**
 * The harness as a project that installed the package runs it (`npx petstore-contract`): the
 * bin `npm run build` writes, rebuilt from the current sources first. `npm run contract` runs
 * the TypeScript sources, and Node strips the types of every module at each start.
 */
const contractBin = fileURLToPath(new URL('../dist/bin/petstore-contract.js', import.meta.url));
const contractSource = fileURLToPath(new URL('../contract-tests/cli.ts', import.meta.url));

/** Longest a harness run may take before the bench stops it. */
const runTimeoutMs = 180_000;

/** One harness run. */
export interface HarnessRun {
  readonly key: 'enterprise' | 'free';
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly counts: RequestCounts;
  readonly rateLimited: number;
  /** The harness's last lines of output (its summary). */
  readonly summary: string;
}

/** What the section found. */
export type HarnessResult =
  | { readonly available: true; readonly runs: readonly HarnessRun[] }
  | { readonly available: false; readonly reason: string };

async function runOnce(key: HarnessRun['key']): Promise<HarnessRun> {
  const port = await freePort(true);
  const counter = createRequestLogCounter();
  const spec = fakeDefaultSpec(port);
  const fake = await startServer({
    ...spec,
    // Named, so the count leaves out the bench's own request.
    readyHeaders: { ...spec.readyHeaders, 'X-Client-Id': readyCheckClient },
    onLine: counter.line,
  });
  let run: Omit<HarnessRun, 'counts' | 'rateLimited'>;
  try {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [contractBin, '--base-url', `http://127.0.0.1:${port}/v1`],
      {
        cwd: projectRoot,
        env: { ...process.env, PETSTORE_API_KEY: `${key}-demo-key` },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const output: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, runTimeoutMs);
    const [exitCode] = (await once(child, 'exit')) as [number | null];
    clearTimeout(timer);
    const wallMs = performance.now() - started;
    const lines = output.join('').trimEnd().split('\n');
    run = { key, wallMs, exitCode, timedOut, summary: lines.slice(-3).join('\n') };
  } finally {
    await fake.stop();
  }
  // Counted once the fake has stopped and its output is read to the end.
  const counts = counter.counts();
  return { ...run, counts, rateLimited: counts.statuses['429'] ?? 0 };
}

/** Runs the harness section. */
export async function measureHarness(log: (line: string) => void): Promise<HarnessResult> {
  if (!existsSync(contractSource))
    return { available: false, reason: 'contract-tests/cli.ts does not exist yet' };
  await buildPackage();
  const runs: HarnessRun[] = [];
  for (const key of ['enterprise', 'free'] as const) {
    const run = await runOnce(key);
    log(
      `harness: default run, ${key} key: ${(run.wallMs / 1000).toFixed(1)} s, ${run.counts.requests} requests, ${run.rateLimited} × 429, exit ${run.exitCode}${run.timedOut ? ' (timed out)' : ''}`,
    );
    if (run.exitCode === 2 || (run.exitCode === null && !run.timedOut)) {
      return {
        available: false,
        reason: `the harness could not run (exit ${run.exitCode}): ${run.summary.replaceAll('\n', ' / ').slice(0, 400)}`,
      };
    }
    runs.push(run);
  }
  return { available: true, runs };
}
