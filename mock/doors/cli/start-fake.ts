/**
 * The fake's HTTP door started from code, in the calling process: what `npx petstore-fake`
 * serves, for a test runner's global set-up (Jest, Vitest, Playwright, node:test) that needs a
 * real port and must not leave a child process behind. It listens on a free port unless told
 * one, answers as that origin, and `close()` lets requests in flight finish, writes the exit
 * files and frees the ports.
 */
import { createServer } from 'node:net';
import { ConfigError } from '../../base/config-error.ts';
import { policyExitFiles } from '../../core/assembly.ts';
import {
  type CreateFakeOptions,
  createFake,
  type FakeControl,
  type FakeWithCore,
} from '../../core/fake.ts';
import { outputPathProblem, writeOutputFile } from '../cli-shared/output-path.ts';
import { type HttpDoor, listenHttp } from '../http/http-server.ts';
import { createStateFile } from './state-file.ts';

/** The files a fake can write when it stops: the Pact file, interface coverage, the client report. */
type ExitFileName = 'pact-out' | 'coverage-report' | 'client-report';

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
}

/** A fake listening on a real port of this process. */
export interface StartedFake {
  /** The production base URL, e.g. `http://127.0.0.1:39113/v1`. */
  readonly url: string;
  /** The staging base URL, when a staging port was asked for. */
  readonly stagingUrl: string | undefined;
  /** The control surface's base URL (`GET <controlUrl>/state`). */
  readonly controlUrl: string;
  /** The control surface, in this process. */
  readonly control: FakeControl;
  /** Stops answering (requests in flight finish), writes the exit files, frees the ports. */
  close(): Promise<void>;
}

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

/** `http://host:port`, with an IPv6 address in brackets. */
function originOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** One HTTP door of a fake: the port it listens on and the origin it answers as. */
export interface DoorPlace {
  readonly port: number;
  readonly origin: string;
}

/**
 * Opens a fake's HTTP doors on `host`, one after the other (`npm start` and `startFake` alike).
 * When one cannot listen, those already open close, and what `failure` makes of the error (by
 * default the error itself) is thrown.
 */
export async function openDoors(
  fake: FakeWithCore,
  host: string,
  places: readonly DoorPlace[],
  failure: (error: unknown, index: number) => unknown = (error) => error,
): Promise<HttpDoor[]> {
  const doors: HttpDoor[] = [];
  for (const [index, { port, origin }] of places.entries()) {
    try {
      doors.push(
        await listenHttp(fake.behaviour, {
          host,
          port,
          origin,
          maxBodyBytes: fake.config.maxBodyBytes,
        }),
      );
    } catch (error) {
      await Promise.all(doors.map((door) => door.close()));
      throw failure(error, index);
    }
  }
  return doors;
}

/** One exit file as the fake stops: the policy's summary, and where it went or why not. */
export interface FinishedExitFile {
  /** The flag without its dashes, e.g. `pact-out`. */
  readonly name: string;
  /** What the policy says when the fake stops, with or without a path. */
  readonly summary: string | undefined;
  /** Where it was to be written, if anywhere. */
  readonly path?: string;
  /** The line saying it was written. */
  readonly done?: string;
  /** Why it could not be written. */
  readonly error?: Error;
}

/**
 * Finishes every policy's exit file, in the order the policies stand, and writes each that
 * `pathOf` gives a path, whole or not at all (a temporary file renamed over it: a kill mid-write
 * leaves the file as it was). Never throws: a file that could not be written says why.
 */
export function finishExitFiles(
  control: FakeControl,
  pathOf: (name: string) => string | undefined,
): FinishedExitFile[] {
  return policyExitFiles.map((file) => {
    const { summary, text, done } = file.finish(control);
    const path = pathOf(file.name);
    if (path === undefined) return { name: file.name, summary };
    try {
      writeOutputFile(path, text(path));
      return { name: file.name, summary, path, done: done(path) };
    } catch (error) {
      return { name: file.name, summary, path, error: error as Error };
    }
  });
}

/**
 * Starts the fake's HTTP door in this process.
 * @example const fake = await startFake(); process.env.PETSTORE_URL = fake.url; await fake.close();
 */
export async function startFake(options: StartFakeOptions = {}): Promise<StartedFake> {
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
  const ports = {
    production: port === 0 ? await freePort(host) : port,
    staging: stagingPort === false ? false : stagingPort === 0 ? await freePort(host) : stagingPort,
  } as const;
  const origin = originOf(host, ports.production);
  const stagingOrigin = ports.staging === false ? false : originOf(host, ports.staging);
  const fake = await createFake({
    ...options,
    origin,
    stagingOrigin,
    ...(stateFile === undefined ? {} : { persistence: createStateFile(stateFile, {}) }),
  });
  const doors = await openDoors(fake, host, [
    { port: ports.production, origin },
    ...(ports.staging === false || stagingOrigin === false
      ? []
      : [{ port: ports.staging, origin: stagingOrigin }]),
  ]);
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}${fake.config.basePath}`,
    stagingUrl: stagingOrigin === false ? undefined : `${stagingOrigin}${fake.config.basePath}`,
    controlUrl: `${origin}${fake.config.controlPrefix}`,
    control: fake.control,
    close() {
      closing ??= (async () => {
        await Promise.all(doors.map((door) => door.close()));
        const files = finishExitFiles(fake.control, (name) => exitFiles[name as ExitFileName]);
        const failed = files.find((file) => file.error !== undefined);
        if (failed?.error !== undefined) throw failed.error;
      })();
      return closing;
    },
  };
}
