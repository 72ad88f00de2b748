/**
 * The command a proxy runs (`proxy --target <url> -- <command>`): started with PETSTORE_PROXY_URL
 * set and the terminal shared, its exit code kept as a shell reports it; stopped with the proxy
 * when the proxy is told to stop first. It runs in a process group of its own, and stopping it
 * stops the group: an `npm run e2e` that started a dev server and a browser does not leave them
 * running after the proxy has gone (a signal to the command alone reaches npm, not its children).
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { toolName } from '../base/usage-error.ts';
import type { StopReason } from './stop-signals.ts';

/** A command's exit as a code: its own, or 128 + the signal's number when a signal ended it. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal === null ? 0 : constants.signals[signal]);
}

/**
 * Runs `command` with PETSTORE_PROXY_URL set; resolves to its exit code, with `stoppedBy` when
 * the proxy was told to stop first (the command's group is then sent the proxy's SIGINT or
 * SIGTERM, and SIGKILL once 3 s have passed if anything of it is left).
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
    // Its own process group (setsid), whose id is its pid: the group can be signalled whole.
    detached: true,
  });
  /** Signals the command's whole group; false when nothing is left of it (ESRCH). */
  const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
    if (child.pid === undefined) return false;
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch {
      return false;
    }
  };
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
  // The signal the proxy got (SIGTERM for a parent gone), to the whole group; SIGKILL 3 s later.
  signalGroup(first.stoppedBy === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
  const deadline = Date.now() + 3_000;
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    exited,
    new Promise<number>((r) => {
      timer = setTimeout(r, 3_000, -1);
    }),
  ]);
  clearTimeout(timer);
  // What is left of the group (the command, or children that outlived it) gets the rest of
  // the 3 s to finish, then SIGKILL.
  while (signalGroup(0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  signalGroup('SIGKILL');
  return { stoppedBy: first.stoppedBy, code: code === -1 ? await exited : code };
}
