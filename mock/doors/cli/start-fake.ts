/**
 * The fake's HTTP door started from code, in the calling process: what `npx petstore-fake`
 * serves, for a test runner's global set-up (Jest, Vitest, Playwright, node:test) that needs a
 * real port and must not leave a child process behind. It listens on a free port unless told
 * one, answers as that origin, and `close()` lets requests in flight finish, writes the exit
 * files and frees the ports.
 */
import { createServer } from 'node:net';
import { ConfigError } from '../../base/config-error.ts';
import { type CreateFakeOptions, createFake, type FakeControl } from '../../core/fake.ts';
import { outputPathProblem } from '../cli-shared/output-path.ts';
import type { RemoteControl } from '../connect/connect-fake.ts';
import {
  type DoorPlace,
  type ExitFileName,
  type ListeningFake,
  openListeningFake,
} from './fake-doors.ts';
import { createStateFile } from './state-file.ts';

/** Options of `startFake`: createFake's, where the door listens, and what it keeps and writes. */
export interface StartFakeOptions extends Omit<CreateFakeOptions, 'origin' | 'stagingOrigin'> {
  /** Address to listen on (default 127.0.0.1, this machine only). */
  readonly host?: string;
  /** The production port; 0, the default, picks a free one. */
  readonly port?: number;
  /** A staging origin on a port of its own (0: a free one); default none. */
  readonly stagingPort?: number | false;
  /** Keep the fake's state in this file across restarts, as `--state-file` does. */
  readonly stateFile?: string;
  /** Files written by `close()`, as the flags of the same names: `{ 'pact-out': 'pacts/app.json' }`. */
  readonly exitFiles?: Readonly<Partial<Record<ExitFileName, string>>>;
  /**
   * A replica of the fleet in this Redis (`redis://` or `rediss://`, a database number), as
   * `--redis` is: every fake started with the same URL and `redisPrefix` is one Pet Store
   * (docs/replicas.md). Default none: the fake's state is its own, in memory.
   */
  readonly redis?: string;
  /** The fleet's name in Redis, so several fleets share one (default `petstore`). */
  readonly redisPrefix?: string;
}

/** A fake listening on a real port of this process. */
export type StartedFake = ListeningFake<FakeControl>;

/** A port nothing listens on right now, on `host`. */
async function freePort(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Where a door on `host` listens: on `port`, or on a free one when it is 0. */
async function placeOf(host: string, port: number): Promise<DoorPlace> {
  const listening = port === 0 ? await freePort(host) : port;
  // An IPv6 address in brackets.
  return {
    port: listening,
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${listening}`,
  };
}

/** What startFake was given for a replica. */
export type ReplicaStartOptions = StartFakeOptions & { readonly redis: string };

/**
 * A replica listening on a real port of this process, as startFake gives it: its control
 * surface is the fleet's, over HTTP, so each function returns a promise (as connectFake's do),
 * and its close leaves Redis too.
 */
export type StartedReplica = ListeningFake<RemoteControl>;

/**
 * Starts the fake's HTTP door in this process.
 * @example const fake = await startFake(); process.env.PETSTORE_URL = fake.url; await fake.close();
 */
export async function startFake(options: ReplicaStartOptions): Promise<StartedReplica>;
export async function startFake(options?: StartFakeOptions): Promise<StartedFake>;
export async function startFake(
  options: StartFakeOptions = {},
): Promise<StartedFake | StartedReplica> {
  const { host = '127.0.0.1', port = 0, stagingPort = false, stateFile, exitFiles = {} } = options;
  // Checked before the fake starts, as the flags are: a typo fails now, not when the suite ends.
  for (const [name, path] of [
    ['stateFile', stateFile],
    ...Object.entries(exitFiles).map(([file, at]) => [`exitFiles['${file}']`, at]),
  ] as const) {
    const problem = path === undefined ? undefined : outputPathProblem(path);
    if (problem !== undefined)
      throw new ConfigError(
        name,
        `cannot write ${path}: ${problem}; pick a path in a folder that exists and is writable`,
      );
  }
  const production = await placeOf(host, port);
  const staging = stagingPort === false ? undefined : await placeOf(host, stagingPort);
  const places = { host, production, staging };
  // Loaded only for a replica: the msw doors, which export startFake, never load a Redis client.
  const { redis } = options;
  if (redis !== undefined)
    return (await import('./start-replica.ts')).startReplica({ ...options, redis }, places);
  const fake = await createFake({
    ...options,
    origin: production.origin,
    stagingOrigin: staging?.origin ?? false,
    ...(stateFile === undefined ? {} : { persistence: createStateFile(stateFile, {}) }),
  });
  return openListeningFake(fake, places, () => fake.control, exitFiles);
}
