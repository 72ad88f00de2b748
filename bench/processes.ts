/**
 * The servers under test run as child processes, so the load generator never shares their
 * event loop. This file starts them, waits for their first 200, stops them, and reads their
 * CPU time and resident memory from /proc (Linux; elsewhere those figures are "n/a").
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Failure of the bench itself (a server that never came up, a port in use...). */
export class BenchError extends Error {
  constructor(message: string) {
    super(`bench: ${message}`);
    this.name = 'BenchError';
  }
}

/** How to start one server and how to tell that it is ready. */
export interface ServerSpec {
  /** Name in messages, e.g. `fake` or `prism (silent)`. */
  readonly name: string;
  /** The script to run with this Node, or with `command` (the bench never goes through a shell). */
  readonly script: string;
  /** The program to run instead of this Node, e.g. `java`: `nodeFlags`, `script`, `args` follow it. */
  readonly command?: string;
  readonly args: readonly string[];
  /** A URL answered with 200 once the server is ready. */
  readonly readyUrl: string;
  readonly readyHeaders?: Record<string, string>;
  /** Give up after this long. Default 60 s. */
  readonly readyTimeoutMs?: number;
  readonly cwd?: string;
  /** Flags placed before the script (Node's, or the command's: `-jar` for java). */
  readonly nodeFlags?: readonly string[];
  /** Extra environment variables. */
  readonly env?: Record<string, string>;
  /** Called with every whole line the server prints on its standard output. */
  readonly onLine?: (line: string) => void;
}

/** A running server. */
export interface RunningServer {
  readonly name: string;
  readonly pid: number;
  /** Spawn to first 200, in ms. */
  readonly readyMs: number;
  /** The last lines it printed, for error messages. */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after 3 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (and, with `pair`, the port after it is free too). */
export async function freePort(pair = false): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await listenOnce(0);
    if (!pair || (await isFree(port + 1))) return port;
  }
  throw new BenchError('could not find a free port pair on 127.0.0.1');
}

async function listenOnce(port: number): Promise<number> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return address.port;
}

async function isFree(port: number): Promise<boolean> {
  try {
    await listenOnce(port);
    return true;
  } catch {
    return false;
  }
}

/** Polls `url` until it answers 200; returns false when `deadline` (ms since epoch) passes. */
export async function waitFor200(
  url: string,
  headers: Record<string, string>,
  deadline: number,
  exited: () => boolean,
): Promise<boolean> {
  while (Date.now() < deadline && !exited()) {
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await sleep(5);
  }
  return false;
}

/** Starts a server and resolves once it answers 200 at `readyUrl`. */
export async function startServer(spec: ServerSpec): Promise<RunningServer> {
  const started = performance.now();
  const child: ChildProcess = spawn(
    spec.command ?? process.execPath,
    [...(spec.nodeFlags ?? []), spec.script, ...spec.args],
    { cwd: spec.cwd, env: { ...process.env, ...spec.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    // Draining the pipes is part of the cost of a server that logs, as a terminal would be.
    lines.push(...chunk.toString('utf8').split('\n'));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const { onLine } = spec;
  if (onLine !== undefined) {
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) onLine(line);
    });
  }
  let exited = false;
  // 'close' rather than 'exit': the server's output has been read to its end too.
  const exit = once(child, 'close').then(() => {
    exited = true;
  });
  const deadline = Date.now() + (spec.readyTimeoutMs ?? 60_000);
  const ready = await waitFor200(spec.readyUrl, spec.readyHeaders ?? {}, deadline, () => exited);
  const readyMs = performance.now() - started;
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exit;
    clearTimeout(killer);
  };
  if (!ready) {
    const why = exited ? 'before it exited' : 'in time';
    await stop();
    throw new BenchError(
      `${spec.name} did not answer 200 at ${spec.readyUrl} ${why}; its last output:\n${lines.join('\n')}`,
    );
  }
  if (child.pid === undefined) throw new BenchError(`${spec.name} has no pid`);
  return { name: spec.name, pid: child.pid, readyMs, output: () => lines.join('\n'), stop };
}

/** CPU time (user + system) a process has used so far, in microseconds; undefined off Linux. */
export function cpuMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), in clock ticks of 1/100 s on Linux.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process in bytes; undefined off Linux. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
