/**
 * For the tests of what replicas share through Redis: a `redis-server` of its own (Debian's
 * package), on a free port of 127.0.0.1 (never the machine's 6379) in a temporary folder, with
 * persistence off unless asked for, which a test can stop, kill -9 and start again on the same
 * port and folder, as Redis's own faults happen. Without `redis-server` on PATH it throws one
 * line naming the package: a test that needs Redis fails, it never skips.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './fake-process.ts';

/** How a test's Redis keeps its data. */
export interface RedisServerOptions {
  /**
   * The append-only file and its `appendfsync` (`always`: every write on disk before the reply;
   * `everysec`: up to a second lost to a kill -9; `no`: the kernel decides), or `false` for no
   * persistence at all: a restart starts empty.
   */
  readonly appendOnly?: false | 'always' | 'everysec' | 'no';
  /** The PATH searched for `redis-server`: the process's own unless given. */
  readonly searchPath?: string | undefined;
  /**
   * A password clients must give (`requirepass`; no quote or backslash in it), written to a
   * config file in its folder: on redis-server's command line it would show in every process
   * listing.
   */
  readonly password?: string | undefined;
}

/** A running (or stopped) redis-server of a test. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Its working folder, where an append-only file lives. */
  readonly folder: string;
  /** Everything it has logged since it last started. */
  output(): string;
  /** Stops it as an operator does (SIGTERM: Redis flushes its append-only file first). */
  stop(): Promise<void>;
  /** Kills it (SIGKILL), as an OOM killer or a power cut would: nothing is flushed. */
  kill(): Promise<void>;
  /** Starts it again, stopped or killed, on the same port and folder. */
  restart(): Promise<void>;
  /** Stops it and removes its folder (call in afterAll). */
  remove(): Promise<void>;
}

/** How long redis-server may take to accept connections. */
const startTimeoutMs = 10_000;
const runningKey = Symbol.for('petstore-fake: test redis-servers');
/**
 * The servers this process started, killed when it exits: a test file that ends without
 * stopping its server must not leave it running after vitest. One set and one exit hook a
 * process, however many test files import this module in one worker.
 */
const running: Set<ChildProcess> = (() => {
  const shared = globalThis as { [runningKey]?: Set<ChildProcess> };
  let servers = shared[runningKey];
  if (servers === undefined) {
    const started = new Set<ChildProcess>();
    process.once('exit', () => {
      for (const child of started) child.kill('SIGKILL');
    });
    servers = started;
    shared[runningKey] = started;
  }
  return servers;
})();

/** The path of `redis-server` on `searchPath`, or a one-line error naming the Debian package. */
function findRedisServer(searchPath: string): string {
  for (const dir of searchPath.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder: try the next.
    }
  }
  throw new Error(
    'redis-server: not found on PATH; the replica tests need it: install the Debian package redis-server (apt-get install -y redis-server)',
  );
}

async function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  await once(child, 'exit');
}

/**
 * Starts a redis-server of its own and resolves once it accepts connections.
 * @example const redis = await startRedisServer({ appendOnly: 'always' }); await redis.kill(); await redis.restart();
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const executable = findRedisServer(options.searchPath ?? process.env.PATH ?? '');
  const folder = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  const appendOnly = options.appendOnly ?? false;
  const config: string[] = [];
  if (options.password !== undefined) {
    const file = join(folder, 'redis.conf');
    writeFileSync(file, `requirepass "${options.password}"\n`, { mode: 0o600 });
    config.push(file);
  }
  let child: ChildProcess | undefined;
  let log = '';

  const launch = async (port: number): Promise<'ready' | 'port taken'> => {
    const args = [
      ...config,
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      folder,
      // No snapshots, ever: the only persistence a test gets is the append-only file it asks for.
      '--save',
      '',
      '--appendonly',
      appendOnly === false ? 'no' : 'yes',
      ...(appendOnly === false ? [] : ['--appendfsync', appendOnly]),
      '--daemonize',
      'no',
      '--logfile',
      '',
    ];
    const started = spawn(executable, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    running.add(started);
    log = '';
    const collect = (chunk: Buffer) => {
      // Only the tail is kept: a long test's Redis logs little, but never unboundedly.
      log = (log + chunk.toString('utf8')).slice(-8000);
    };
    started.stdout?.on('data', collect);
    started.stderr?.on('data', collect);
    for (let waited = 0; !log.includes('Ready to accept connections'); waited += 25) {
      if (started.exitCode !== null || started.signalCode !== null) {
        running.delete(started);
        if (log.includes('Address already in use')) return 'port taken';
        throw new Error(`redis-server: exited before it was ready:\n${log.slice(-1000)}`);
      }
      if (waited > startTimeoutMs) {
        await ended(started, 'SIGKILL');
        throw new Error(`redis-server: not ready in ${startTimeoutMs} ms:\n${log.slice(-1000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return 'ready';
  };

  // Another process may take the free port before redis-server binds it: then try another.
  let port = await freePort();
  for (let attempt = 1; (await launch(port)) === 'port taken'; attempt++) {
    if (attempt === 5) throw new Error(`redis-server: 5 free ports were taken before it bound one`);
    port = await freePort();
  }

  const current = () => child;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    folder,
    output: () => log,
    stop: async () => {
      const started = current();
      if (started !== undefined) await ended(started, 'SIGTERM');
    },
    kill: async () => {
      const started = current();
      if (started !== undefined) await ended(started, 'SIGKILL');
    },
    restart: async () => {
      const started = current();
      if (started !== undefined && started.exitCode === null && started.signalCode === null)
        throw new Error('redis-server: restart of a server still running; stop or kill it first');
      if ((await launch(port)) === 'port taken')
        throw new Error(`redis-server: port ${port} was taken while it was down`);
    },
    remove: async () => {
      const started = current();
      if (started !== undefined) await ended(started, 'SIGTERM');
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
