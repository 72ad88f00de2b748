/**
 * For tests that run the CLI as a user does: `node contract-tests/cli.ts` in a child process,
 * with only the environment the test gives it, killed if it outlives its time limit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { afterEach } from 'vitest';

const cliPath = new URL('../../contract-tests/cli.ts', import.meta.url).pathname;

/** How a CLI run ended, and everything it printed. */
export interface CliRun {
  /** The exit code, or `null` when it was killed. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time from spawn to exit, in ms. */
  readonly durationMs: number;
  /** When it exited, in epoch ms (to compare with times a test server recorded). */
  readonly endedAt: number;
  /** Whether it was still running after `killAfterMs` and was killed (a hang). */
  readonly killed: boolean;
  /** Its peak resident memory (VmHWM) in bytes, as last read while it ran; 0 where unknown. */
  readonly peakRssBytes: number;
}

/** Options of `runCli`. */
export interface RunCliOptions {
  /** Kills the CLI if it runs longer (default 60 s): a hang fails the test, not vitest. */
  readonly killAfterMs?: number;
  /** Called with the CLI's process once spawned (a script that must stop it on a signal). */
  readonly onSpawn?: (child: ChildProcess) => void;
}

/**
 * Runs the CLI with `args`; `PETSTORE_API_KEY` is set only if `env` sets it.
 * @example const run = await runCli(['--base-url', url], { PETSTORE_API_KEY: key });
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  options: RunCliOptions = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const { PETSTORE_API_KEY: _, ...inherited } = process.env;
    const child = spawn(process.execPath, [cliPath, ...args], { env: { ...inherited, ...env } });
    options.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    let killed = false;
    let peakRssBytes = 0;
    // Linux keeps the high-water mark in /proc until the process is reaped.
    const sampler = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kib = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
        peakRssBytes = Math.max(peakRssBytes, kib * 1024);
      } catch {
        // Gone already, or not Linux.
      }
    }, 50);
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, options.killAfterMs ?? 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      clearInterval(sampler);
      reject(error);
    });
    child.once('exit', () => clearInterval(sampler));
    child.once('close', (code) => {
      clearTimeout(timer);
      clearInterval(sampler);
      const durationMs = performance.now() - started;
      resolve({ code, stdout, stderr, durationMs, endedAt: Date.now(), killed, peakRssBytes });
    });
  });
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A proxy started by `startProxyProcess`, and what it has printed so far. */
export interface ProxyProcess {
  readonly child: ChildProcess;
  /** The port it listens on, read from its banner. */
  readonly port: number;
  output(): string;
}

/**
 * Starts `node contract-tests/cli.ts proxy <args>` and resolves once its banner names its port;
 * the caller kills it (or `stopChildren` in an afterEach does).
 */
export async function startProxyProcess(
  args: readonly string[],
  children: ChildProcess[],
  env: Record<string, string> = {},
): Promise<ProxyProcess> {
  let output = '';
  const child = spawn(process.execPath, [cliPath, 'proxy', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const banner = /proxy: http:\/\/[^ ]*?:(\d+)\/v1 -> /;
  for (let waited = 0; !banner.test(output); waited += 50) {
    if (waited > 20_000 || child.exitCode !== null) throw new Error(`no banner: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const port = Number(banner.exec(output)?.[1]);
  return { child, port, output: () => output };
}

/**
 * The check ids a report says are broken: each FAIL line's (a finding's lead) and each rule its
 * finding lists as broken by the same answer (report/console-report.ts `formatFinding`).
 */
export function brokenRulesIn(output: string): string[] {
  return [...output.matchAll(/^ {2}FAIL {2}(\S+)|^ {10}([\w.]+)(?: \(on \d+ answers\))?: /gm)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
}

/**
 * What a report says of broken rule `id`: the message under its FAIL line when it leads a
 * finding, else the message on its line in the finding that lists it; undefined when not broken.
 */
export function brokenRuleMessage(output: string, id: string): string | undefined {
  const escaped = id.replaceAll('.', '\\.');
  const lead = new RegExp(`^ {2}FAIL {2}${escaped} .*\\n {8}(.*)$`, 'm').exec(output);
  if (lead !== null) return lead[1];
  return new RegExp(`^ {10}${escaped}(?: \\(on \\d+ answers\\))?: (.*)$`, 'm').exec(output)?.[1];
}

/**
 * What a test file starts and must end after each test: `children` (killed with SIGKILL when
 * still running) and `closers` (servers, fakes), each emptied once it has run.
 * @example const { children, closers } = endedAfterEach();
 */
export function endedAfterEach(): {
  children: ChildProcess[];
  closers: (() => Promise<void>)[];
} {
  const children: ChildProcess[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const close of closers.splice(0)) await close();
  });
  return { children, closers };
}
