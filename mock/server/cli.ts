#!/usr/bin/env node
/**
 * `npm start`: serves the fake on real ports (production and staging origins), prints the base
 * URLs and demo keys, and logs one line per request with the key redacted to its public id.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import packageJson from '../../package.json' with { type: 'json' };
import { parseJson } from '../contract/lossless-json.ts';
import type { Pet } from '../contract/types.ts';
import type { ExchangeRecord } from '../core/config.ts';
import { createFake } from '../fake.ts';
import { parseKeysFile } from '../policies/plans.ts';
import { listenHttp } from './http-server.ts';
import { createStateFile } from './state-file.ts';

/** Whether a bind address only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

const usage = `Usage: npm start -- [options]

  --host <addr>            address to bind (default 127.0.0.1)
  --port <n>               production port (default 4010)
  --staging-port <n>       staging port (default port + 1); --no-staging to serve none
  --seed <file|empty>      pets to start with (default fixtures/pets.json)
  --keys <file>            plans and keys (default fixtures/keys.json)
  --retry-after <format>   seconds | http-date (default seconds)
  --ban-threshold <n>      requests during Retry-After that ban a key (default 5)
  --ban-seconds <n>        length of a ban (default 300)
  --enterprise <m>/<d>     Enterprise limits per minute/day (default 10000/10000000)
  --state-file <path>      keep pets across restarts in this file (default: memory only)
  --max-pets <n>           most pets the store holds (default 1000000)
  --quiet                  no request log

Environment:
  PETSTORE_CONTROL_TOKEN   require this token (X-Control-Token header) on /__control/;
                           without it, binding beyond loopback disables /__control/
  --help                   this text
  --version                the package version`;

class UsageError extends Error {}

function integer(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value))
    throw new UsageError(`${flag} must be a non-negative integer, got "${value}"`);
  return Number(value);
}

function readJsonFile(path: string, flag: string): unknown {
  try {
    return parseJson(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(error as Error).message}`);
  }
}

/** One request-log line: time, method, path, status, duration, key id (never the key). */
export function formatExchange(record: ExchangeRecord, at = new Date()): string {
  return `${at.toISOString()} ${record.method} ${record.url} ${record.status} ${record.durationMs.toFixed(1)}ms key=${record.keyId}`;
}

async function main(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string' },
      'staging-port': { type: 'string' },
      'no-staging': { type: 'boolean', default: false },
      seed: { type: 'string' },
      keys: { type: 'string' },
      'retry-after': { type: 'string' },
      'ban-threshold': { type: 'string' },
      'ban-seconds': { type: 'string' },
      enterprise: { type: 'string' },
      'state-file': { type: 'string' },
      'max-pets': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      version: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if (values.version) {
    console.log(packageJson.version);
    return;
  }
  const host = values.host;
  const port = integer(values.port, '--port', 4010);
  const stagingPort = integer(values['staging-port'], '--staging-port', port === 0 ? 0 : port + 1);
  const retryAfter = values['retry-after'] ?? 'seconds';
  if (retryAfter !== 'seconds' && retryAfter !== 'http-date')
    throw new UsageError(`--retry-after must be one of: seconds, http-date; got "${retryAfter}"`);
  let enterpriseLimits: { perMinute: number; perDay: number } | undefined;
  if (values.enterprise !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(values.enterprise);
    if (!match)
      throw new UsageError(
        `--enterprise must look like 10000/10000000 (per minute/per day), got "${values.enterprise}"`,
      );
    enterpriseLimits = { perMinute: Number(match[1]), perDay: Number(match[2]) };
  }
  const seed =
    values.seed === undefined
      ? undefined
      : values.seed === 'empty'
        ? 'empty'
        : (readJsonFile(values.seed, '--seed') as Pet[]);
  const keys =
    values.keys === undefined
      ? undefined
      : parseKeysFile(readJsonFile(values.keys, '--keys'), values.keys);

  const loopback = isLoopback(host);
  const controlToken = process.env.PETSTORE_CONTROL_TOKEN;
  const controlAccess = controlToken
    ? { token: controlToken }
    : loopback
      ? ('open' as const)
      : ('disabled' as const);
  if (!loopback) {
    console.warn(
      `petstore-fake: warning: listening on ${host}, reachable beyond this machine; the demo keys are public.${controlToken ? '' : ' The control surface is disabled: set PETSTORE_CONTROL_TOKEN to enable it.'}`,
    );
  }
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${hostForUrl}:${port}`;
  const stagingOrigin = values['no-staging'] ? false : `http://${hostForUrl}:${stagingPort}`;
  const fake = await createFake({
    origin,
    stagingOrigin,
    retryAfterFormat: retryAfter,
    controlAccess,
    maxPets: integer(values['max-pets'], '--max-pets', 1_000_000),
    ...(values['state-file'] === undefined
      ? {}
      : { persistence: createStateFile(values['state-file']) }),
    ban: {
      threshold: integer(values['ban-threshold'], '--ban-threshold', 5),
      durationSeconds: integer(values['ban-seconds'], '--ban-seconds', 300),
    },
    ...(enterpriseLimits ? { enterpriseLimits } : {}),
    ...(seed === undefined ? {} : { seed }),
    ...(keys === undefined ? {} : { keys }),
    ...(values.quiet
      ? {}
      : { onExchange: (record: ExchangeRecord) => console.log(formatExchange(record)) }),
  });
  const common = {
    host,
    errorHeaders: () => fake.anonymousRateLimitHeaders(),
    maxBodyBytes: fake.config.maxBodyBytes,
  };
  const doors = [await listenHttp(fake.handlers, { ...common, port, origin })];
  if (stagingOrigin !== false) {
    doors.push(
      await listenHttp(fake.handlers, { ...common, port: stagingPort, origin: stagingOrigin }),
    );
  }

  // Before the banner: a supervisor that sees the banner may signal at once.
  const shutdown = async (signal: string) => {
    console.log(`petstore-fake: ${signal}, finishing in-flight requests`);
    await Promise.all(doors.map((door) => door.close()));
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  // One write: a reader that sees the banner's first line must see the key list too.
  const keyLines = fake.control.keys().map((key) => {
    const secret = fake.initialKeys.find((entry) => entry.id === key.id)?.key ?? '?';
    return `    ${secret.padEnd(24)} ${key.plan.padEnd(10)} ${key.limits.perMinute}/min, ${key.limits.perDay}/day`;
  });
  console.log(`Pet Store fake ready
  production  ${origin}/v1
  staging     ${stagingOrigin === false ? '(off)' : `${stagingOrigin}/v1`}
  control     ${origin}${fake.config.controlPrefix}/state
  demo keys (send as "Authorization: Bearer <key>"):
${keyLines.join('\n')}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    (error instanceof Error && /^(petstore-fake:|Unknown option|Option)/.test(error.message))
  ) {
    console.error(`petstore-fake: ${error.message.replace(/^petstore-fake: /, '')}\n\n${usage}`);
    process.exit(2);
  }
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`petstore-fake: ${(error as Error).message}: pick another port with --port`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
