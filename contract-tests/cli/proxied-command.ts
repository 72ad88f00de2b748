/**
 * The command a proxy runs (`proxy --target <url> -- <command>`): started with PETSTORE_PROXY_URL
 * set and the terminal shared, its exit code kept as a shell reports it; stopped with the proxy
 * when the proxy is told to stop first.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { StopReason } from './stop-signals.ts';
import { toolName } from './usage-error.ts';

/** A command's exit as a code: its own, or 128 + the signal's number when a signal ended it. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal === null ? 0 : constants.signals[signal]);
}

/**
 * Runs `command` with PETSTORE_PROXY_URL set; resolves to its exit code, with `stoppedBy` when
 * the proxy was told to stop first (the command is then sent SIGTERM, and SIGKILL 3 s later).
 */
export async function runThroughProxy(
  command: readonly string[],
  proxyUrl: string,
  io: {
    readonly err: (line: string) => void;
    readonly env: NodeJS.ProcessEnv;
    readonly stopped: Promise<StopReason>;
  },
): Promise<{ code: number } | { stoppedBy: StopReason; code: number }> {
  const [file = '', ...args] = command;
  const child = spawn(file, args, {
    stdio: 'inherit',
    env: { ...io.env, PETSTORE_PROXY_URL: proxyUrl },
  });
  const exited = new Promise<number>((resolve) => {
    child.once('error', (error) => {
      io.err(
        `${toolName} proxy: cannot run ${file}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
      );
      // As a shell reports a command it cannot find or run.
      resolve((error as NodeJS.ErrnoException).code === 'ENOENT' ? 127 : 126);
    });
    child.once('exit', (code, signal) => resolve(exitCodeOf(code, signal)));
  });
  const first = await Promise.race([
    exited.then((code) => ({ code })),
    io.stopped.then((reason) => ({ stoppedBy: reason })),
  ]);
  if ('code' in first) return first;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  const code = await exited;
  clearTimeout(killer);
  return { stoppedBy: first.stoppedBy, code };
}
