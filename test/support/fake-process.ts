/**
 * For tests (and the soak) that run the fake as a user does: a child process on a real port,
 * waited for until its banner is out, and stopped for sure afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

const cli = new URL('../../mock/doors/cli/cli.ts', import.meta.url).pathname;
const running: ChildProcess[] = [];

/** A fake in a child process, and everything it has printed so far. */
export interface FakeProcess {
  readonly child: ChildProcess;
  output(): string;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/**
 * Collects a started fake's output and resolves with it once the banner is out, or throws with
 * what it printed when it exits or stays silent for `timeoutMs`.
 */
export async function waitForBanner(
  child: ChildProcess,
  timeoutMs = 15_000,
): Promise<() => string> {
  let text = '';
  child.stdout?.on('data', (chunk) => (text += chunk));
  child.stderr?.on('data', (chunk) => (text += chunk));
  // The banner's own line: a warning printed earlier also mentions "demo keys".
  for (let waited = 0; !text.includes('demo keys (send as'); waited += 50) {
    if (waited > timeoutMs || child.exitCode !== null)
      throw new Error(`the fake did not start:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return () => text;
}

/** Starts `node mock/doors/cli/cli.ts <args>` and resolves once it prints its demo keys. */
export async function startFakeProcess(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<FakeProcess> {
  const child = spawn(process.execPath, [cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  running.push(child);
  return { child, output: await waitForBanner(child) };
}

/** Kills every fake process still running and waits for them to exit (call in afterEach). */
export async function stopFakeProcesses(): Promise<void> {
  const exits = running.splice(0).map(async (child) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  });
  await Promise.all(exits);
}

/** Path of the CLI, for tests that spawn it themselves (e.g. with spawnSync). */
export const cliPath = cli;
