#!/usr/bin/env node
import packageJson from '../../../package.json' with { type: 'json' };
import { ConfigError } from '../../base/config-error.ts';
import { createFake, type FakeControl, type FakeWithCore } from '../../core/fake.ts';
import { StorageError } from '../../pipeline/storage-error.ts';
import { UsageError } from '../cli-shared/command-line.ts';
import { listenProblem } from '../http/listen-problem.ts';
import {
  describeConfigError,
  keysPathOf,
  optionsFromFlags,
  StartupError,
  tokenVariable,
  usage,
} from './cli-options.ts';
import { finishExitFiles, openDoors } from './fake-doors.ts';
import { createReplicaFake, defaultRedisPrefix } from './start-replica.ts';
import { StateFileError } from './state-file.ts';

async function main(argv: readonly string[]): Promise<void> {
  const flags = optionsFromFlags(argv);
  if (flags === 'help') {
    console.log(usage);
    return;
  }
  if (flags === 'version') {
    console.log(packageJson.version);
    return;
  }
  const { options, host, redis } = flags;
  const replica =
    redis === undefined ? undefined : await createReplicaFake(options, redis.target, redis.prefix);
  const fake = replica?.fake ?? (await createFake(options));
  if (!flags.loopback) {
    console.warn(
      `petstore-fake: warning: listening on ${host}, reachable beyond this machine; the demo keys are public. Only Host names ${fake.config.allowedHosts.join(', ')} are answered (add yours with --allowed-hosts).${flags.controlToken ? '' : ` The control surface is disabled: set ${tokenVariable} to enable it.`}`,
    );
  }
  const origin = fake.config.origins[0] as string;
  const stagingOrigin =
    options.stagingOrigin === false ? false : (fake.config.origins[1] ?? origin);
  const places = [{ port: flags.productionPort, origin, flag: '--port', hint: '' }];
  if (stagingOrigin !== false)
    places.push({
      port: flags.stagingPort,
      origin: stagingOrigin,
      // Without --staging-port the staging port is --port + 1: name the flag that moves it.
      flag: '--staging-port',
      hint: ' (the staging port is --port + 1 unless set; --no-staging serves none)',
    });
  // A busy port or a foreign address is a StartupError naming the flag.
  const doors = await openDoors(fake, host, places, (error, index) => {
    const place = places[index];
    const problem = place && listenProblem(error, { flag: place.flag, port: place.port, host });
    return problem === undefined ? error : new StartupError(`${problem}${place?.hint ?? ''}`);
  });

  // Before the banner: a supervisor that sees the banner may signal at once.
  /** Writes the exit files once and exits: 0, or 1 when one could not be written. */
  const finish = () => {
    // Each policy's exit file, in the order the policies stand in the pipeline.
    const files = finishExitFiles(fake.control, (name) => flags.exitPaths.get(name));
    for (const file of files) {
      if (file.summary !== undefined) console.log(file.summary);
      if (file.done !== undefined) console.log(`petstore-fake: ${file.done}`);
      if (file.error !== undefined)
        console.error(
          `petstore-fake: --${file.name}: cannot write ${file.path}: ${file.error.message}`,
        );
    }
    process.exit(files.every((file) => file.error === undefined) ? 0 : 1);
  };
  let draining = false;
  const shutdown = async (signal: string) => {
    // A second signal while in-flight requests finish (Ctrl-C pressed twice): write now.
    if (draining) {
      console.log(`petstore-fake: ${signal} again, writing the exit files now`);
      finish();
      return;
    }
    draining = true;
    console.log(`petstore-fake: ${signal}, finishing in-flight requests`);
    await Promise.all(doors.map((door) => door.close()));
    if (replica !== undefined) {
      // The exit files hold the fleet's record: what every replica answered, read last.
      await replica.fake.catchUp().catch((error: unknown) => {
        console.error(`petstore-fake: the fleet's exchanges could not be read: ${String(error)}`);
      });
      replica.leave();
    }
    finish();
  };
  // SIGHUP too: a closed terminal ends the fake as Ctrl-C does, files written.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    process.on(signal, () => void shutdown(signal));

  const fleet =
    redis === undefined
      ? undefined
      : `replica of the fleet "${redis.prefix ?? defaultRedisPrefix}" in ${redis.target.shown}`;
  console.log(banner(fake, await fake.control.keys(), origin, stagingOrigin, fleet));
}

/**
 * What `npm start` prints once it listens, in one write: a reader that sees its first line sees
 * the key list too.
 */
function banner(
  fake: Pick<FakeWithCore, 'config' | 'initialKeys'>,
  keys: ReturnType<FakeControl['keys']>,
  origin: string,
  stagingOrigin: string | false,
  fleet: string | undefined,
): string {
  const keyLines = keys.map((key) => {
    const secret = fake.initialKeys.find((entry) => entry.id === key.id)?.key ?? '?';
    return `    ${secret.padEnd(24)} ${key.plan.padEnd(10)} ${key.limits.perMinute}/min, ${key.limits.perDay}/day`;
  });
  return `Pet Store fake ready
  production  ${origin}/v1
  staging     ${stagingOrigin === false ? '(off)' : `${stagingOrigin}/v1`}
  control     ${origin}${fake.config.controlPrefix}/state
  qa page     ${origin}${fake.config.controlPrefix}/${fleet === undefined ? '' : `\n  state       ${fleet}`}
  demo keys (send as "Authorization: Bearer <key>"):
${keyLines.join('\n')}`;
}

/**
 * Runs `petstore-fake` with `argv` (the process's arguments by default): the installed bin
 * (bin.ts) calls it once the Node.js version is checked, `node mock/doors/cli/cli.ts` runs it as
 * the main module, and importing this file starts nothing.
 */
export function run(argv: readonly string[] = process.argv.slice(2)): void {
  main(argv).catch((error: unknown) => {
    // parseFlags throws a UsageError for every command line parseArgs refuses.
    if (error instanceof UsageError || error instanceof ConfigError) {
      const message =
        error instanceof ConfigError
          ? describeConfigError(error, keysPathOf(argv))
          : (error as Error).message;
      console.error(`petstore-fake: ${message}\n\n${usage}`);
      process.exit(2);
    }
    // A start that cannot go on: one line, exit 2; anything else is a fault of the fake's.
    const line =
      error instanceof StorageError
        ? `petstore-fake: --state-file: ${error.message}: ${String((error.cause as Error)?.message ?? '')}`
        : error instanceof StateFileError
          ? error.message
          : error instanceof StartupError
            ? `petstore-fake: ${error.message}`
            : undefined;
    console.error(line ?? error);
    process.exit(line === undefined ? 1 : 2);
  });
}

if (import.meta.main) run();
