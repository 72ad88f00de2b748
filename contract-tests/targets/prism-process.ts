/**
 * Starts Prism (`prism mock` or `prism proxy`) on the project's OpenAPI document, on a free
 * loopback port, and stops it again. Prism serves the document's paths without the `/v1` of
 * `servers[].url`, so callers map `/v1/pets` to `/pets`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ContractUsageError } from '../base/usage-error.ts';
import { openapiPath } from '../contract/schemas.ts';

/** A running Prism. */
export interface PrismProcess {
  /** Where Prism listens, e.g. `http://127.0.0.1:43121` (no `/v1`). */
  readonly origin: string;
  stop(): Promise<void>;
}

function prismEntry(): string {
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve('@stoplight/prism-cli/package.json');
    return manifest.replace(/package\.json$/, 'dist/index.js');
  } catch {
    // Said to a package user, whose `npm install` would not add it: Prism is this repository's
    // devDependency, never the package's.
    throw new ContractUsageError(
      'Prism is not installed: npm install --save-dev @stoplight/prism-cli (then run the same command again)',
    );
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

function waitForStart(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      reject(
        new ContractUsageError(
          `Prism did not start within ${timeoutMs / 1000} s:\n${output.slice(-800)}`,
        ),
      );
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Prism is listening on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new ContractUsageError(`Prism exited (${code}) before it started:\n${output.slice(-800)}`),
      );
    });
  });
}

/**
 * Starts Prism with `args` after the command (`['mock']` or `['proxy', upstream]`).
 * @example const prism = await startPrism(['proxy', 'http://127.0.0.1:4010/v1', '--errors']);
 */
export async function startPrism(
  command: 'mock' | 'proxy',
  extraArgs: readonly string[],
  timeoutMs = 60_000,
): Promise<PrismProcess> {
  const port = await freePort();
  const document = fileURLToPath(openapiPath);
  const args = [
    prismEntry(),
    command,
    document,
    ...extraArgs,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await waitForStart(child, timeoutMs);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  // Keep draining Prism's log so a full pipe never blocks it.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
