/**
 * The doors and exit files of a fake started from code or the command line (`npm start`,
 * startFake and a replica's startFake alike): its HTTP doors opened one after the other, the
 * policies' files written as it stops, and what startFake gives back once it listens.
 */
import { type PolicyControls, policyExitFiles } from '../../core/api-pipeline.ts';
import type { Behaviour } from '../../core/assembly.ts';
import type { ResolvedConfig } from '../../pipeline/config/config.ts';
import { writeOutputFile } from '../cli-shared/output-path.ts';
import { type HttpDoor, listenHttp } from '../http/http-server.ts';

/** The files a fake can write when it stops: the Pact file, interface coverage, the client report. */
export type ExitFileName = 'pact-out' | 'coverage-report' | 'client-report';

/** One HTTP door of a fake: the port it listens on and the origin it answers as. */
export interface DoorPlace {
  readonly port: number;
  readonly origin: string;
}

/** Where startFake's doors listen, as it worked them out: production, and staging if asked for. */
export interface Places {
  readonly host: string;
  readonly production: DoorPlace;
  readonly staging: DoorPlace | undefined;
}

/** A fake listening on real ports of this process, as startFake gives it. */
export interface ListeningFake<Control> {
  /** The production base URL, e.g. `http://127.0.0.1:39113/v1`. */
  readonly url: string;
  /** The staging base URL, when a staging port was asked for. */
  readonly stagingUrl: string | undefined;
  /** The control surface's base URL (`GET <controlUrl>/state`). */
  readonly controlUrl: string;
  /** The control surface: the fake's, in this process; a replica's is the fleet's, through it. */
  readonly control: Control;
  /** Stops answering (requests in flight finish), writes the exit files, frees the ports. */
  close(): Promise<void>;
}

/**
 * Opens a fake's HTTP doors on `host`, one after the other (`npm start` and `startFake` alike).
 * When one cannot listen, those already open close, and what `failure` makes of the error (by
 * default the error itself) is thrown.
 */
export async function openDoors(
  fake: { readonly behaviour: Behaviour; readonly config: ResolvedConfig },
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
  control: PolicyControls,
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
 * Opens the doors of a fake startFake made at `places` and gives what it returns, with the control
 * surface `control` makes of the control URL. Its close lets requests in flight finish, runs
 * `beforeExitFiles` (a replica reads the fleet's record and leaves Redis), writes the exit files
 * and throws the first error of one; called again, it gives the same promise.
 */
export async function openListeningFake<Control>(
  fake: Parameters<typeof openDoors>[0] & { readonly control: PolicyControls },
  { host, production, staging }: Places,
  control: (controlUrl: string) => Control,
  exitFiles: Readonly<Partial<Record<ExitFileName, string>>>,
  beforeExitFiles?: () => Promise<unknown>,
): Promise<ListeningFake<Control>> {
  const doors = await openDoors(
    fake,
    host,
    staging === undefined ? [production] : [production, staging],
  );
  const { basePath, controlPrefix } = fake.config;
  const controlUrl = `${production.origin}${controlPrefix}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${production.origin}${basePath}`,
    stagingUrl: staging === undefined ? undefined : `${staging.origin}${basePath}`,
    controlUrl,
    control: control(controlUrl),
    close() {
      closing ??= (async () => {
        await Promise.all(doors.map((door) => door.close()));
        if (beforeExitFiles !== undefined) await beforeExitFiles();
        const files = finishExitFiles(fake.control, (name) => exitFiles[name as ExitFileName]);
        const failed = files.find((file) => file.error !== undefined);
        if (failed?.error !== undefined) throw failed.error;
      })();
      return closing;
    },
  };
}
