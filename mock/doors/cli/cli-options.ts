/**
 * `npm start`'s command line: its own flags and the policies' (core/assembly.ts), the help they
 * make, and the options createFake is given, read from the flags, the files they name and
 * PETSTORE_CONTROL_TOKEN. Reading them starts nothing; cli.ts starts the fake with them.
 */
import { readFileSync } from 'node:fs';
import type { ConfigError } from '../../base/config-error.ts';
import { parseJson } from '../../base/contract/lossless-json.ts';
import type { Pet } from '../../base/contract/types.ts';
import { parseKeysFile } from '../../base/quota/plans.ts';
import { policyCommandLines, policyExitFiles } from '../../core/api-pipeline.ts';
import type { CreateFakeOptions } from '../../core/fake.ts';
import {
  defaults,
  type ExchangeRecord,
  minControlTokenLength,
} from '../../pipeline/config/config.ts';
import { type ListOrder, listOrders } from '../../pipeline/config/list-order.ts';
import type { FakeProfile } from '../../pipeline/config/profile.ts';
import { redisTarget, redisUrlVariable } from '../../replicas/redis-url.ts';
import {
  type FlagSpecs,
  flagHelp,
  helpEntry,
  parseFlags,
  parseInteger,
  UsageError,
} from '../cli-shared/command-line.ts';
import { invokedAs } from '../cli-shared/invoked-as.ts';
import { outputPathProblem } from '../cli-shared/output-path.ts';
import { formatExchange } from './request-log-line.ts';
import { createStateFile } from './state-file.ts';

/** Whether a bind address only accepts connections from this machine. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The host as URL parsing spells it: `127.1`, `0x7f000001` and `2130706433` are 127.0.0.1, `0` is
 * 0.0.0.0. The fake's origin is compared with request URLs in that spelling, so a host that
 * parsing rewrites is bound and printed rewritten, never as typed; one that does not parse stops
 * the start.
 */
function canonicalHost(host: string): string {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  try {
    const { hostname } = new URL(`http://${bracketed}/`);
    return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  } catch {
    throw new UsageError(`--host must be an IP address or a host name, got "${host}"`);
  }
}

/** The variable the control token is read from: a token on the command line would be seen in `ps`. */
export const tokenVariable = 'PETSTORE_CONTROL_TOKEN';

/** How the user invoked the fake: the bin when installed, `npm start --` in this repository. */
const command = invokedAs(process.argv[1], 'petstore-fake', 'npm start --');
/** The harness's command beside it (the same package ships both). */
const contractCommand = command === 'petstore-fake' ? 'petstore-contract' : 'npm run contract --';

/** The flags `npm start` takes for itself; the policies bring theirs (`policyCommandLines`). */
const ownFlags = {
  host: { type: 'string', value: '<addr>', help: `address to bind (default ${defaults.host})` },
  port: { type: 'string', value: '<n>', help: `production port (default ${defaults.port})` },
  'staging-port': {
    type: 'string',
    value: '<n>',
    help: 'staging port (default port + 1); --no-staging to serve none',
  },
  // Explained on --staging-port's line.
  'no-staging': { type: 'boolean', default: false },
  seed: {
    type: 'string',
    value: '<file|empty>',
    help: 'pets to start with (default fixtures/pets.json)',
  },
  keys: { type: 'string', value: '<file>', help: 'plans and keys (default fixtures/keys.json)' },
  'list-order': {
    type: 'string',
    value: '<order>',
    help: `GET /pets order: ${listOrders.join(' | ')} (default ${defaults.listOrder})`,
  },
  'retry-after': {
    type: 'string',
    value: '<format>',
    help: `seconds | http-date (default ${defaults.retryAfterFormat})`,
  },
  enterprise: {
    type: 'string',
    value: '<m>/<d>',
    help: "Enterprise limits per minute/day (default: the keys file's plan)",
  },
  'state-file': {
    type: 'string',
    value: '<path>',
    help: 'keep pets across restarts in this file (default: memory only)',
  },
  redis: {
    type: 'string',
    value: '<url>',
    help: [
      'a replica of the fleet in this Redis (redis:// or rediss://; with a',
      'password, give it in PETSTORE_REDIS_URL): see docs/replicas.md',
    ],
  },
  'redis-prefix': {
    type: 'string',
    value: '<name>',
    help: "the fleet's name in that Redis (default petstore)",
  },
  fsync: {
    type: 'boolean',
    default: false,
    help: 'flush the state file to disk on every write (survives power loss)',
  },
  'max-pets': {
    type: 'string',
    value: '<n>',
    help: `most pets the store holds (default ${defaults.maxPets})`,
  },
  'allowed-hosts': {
    type: 'string',
    value: '<names>',
    help: [
      'comma-separated extra Host names to answer (default: only the bound',
      'address, localhost, 127.0.0.1 and [::1]); .example.test admits subdomains',
    ],
  },
  profile: {
    type: 'string',
    value: '<file>',
    help: [
      'answer as a real server does where the interface is silent: a profile',
      `written by \`${contractCommand} calibrate\` (flags given beside it win)`,
    ],
  },
} as const satisfies FlagSpecs;

const policyFlags = policyCommandLines.flatMap((line) => line.flags ?? []);

/** Every flag `npm start` takes, with its help: its own, the policies', then the last few. */
const flagSpecs = {
  ...ownFlags,
  ...Object.fromEntries(
    policyFlags.map((flag) => [
      flag.name,
      flag.reads === 'off'
        ? { type: 'boolean', default: false, help: flag.help }
        : { type: 'string', value: flag.value, help: flag.help },
    ]),
  ),
  ...Object.fromEntries(
    policyExitFiles.map((file) => [
      file.name,
      { type: 'string', value: '<file>', help: file.help },
    ]),
  ),
  quiet: { type: 'boolean', default: false, help: 'no request log' },
  help: { type: 'boolean', default: false, help: 'this text' },
  version: { type: 'boolean', default: false, help: 'the package version' },
} as const satisfies FlagSpecs;

/** Where each flag's help starts. */
const helpColumn = 27;

/** `npm start -- --help`'s text: every flag, the fake's own and the policies'. */
export const usage = `Usage: ${command} [options]

${flagHelp(flagSpecs, helpColumn)}

Environment:
${helpEntry(
  tokenVariable,
  [
    `a secret of at least ${minControlTokenLength} characters; when set, every`,
    '/__control/ request must send it as X-Control-Token. Without it,',
    'binding beyond loopback disables /__control/.',
  ],
  helpColumn,
)}`;

/** A start that cannot go on (a busy port, an unusable path): one line, exit 2, no usage. */
export class StartupError extends Error {}

/** The flag or variable each createFake option comes from, to name it in errors. */
const optionSources: readonly (readonly [string, string])[] = [
  ['controlAccess.token', tokenVariable],
  ['stagingOrigin', '--staging-port'],
  ['origin', '--host/--port'],
  ['retryAfterFormat', '--retry-after'],
  ['enterpriseLimits', '--enterprise'],
  ['maxPets', '--max-pets'],
  ['allowedHosts', '--allowed-hosts'],
  ['seed', '--seed'],
  ['listOrder', '--list-order'],
  ...policyFlags.map((flag): [string, string] => [flag.option, `--${flag.name}`]),
];

/** A ConfigError in the CLI's words: the flag or variable the user set, not the option. */
export function describeConfigError(error: ConfigError, keysPath: string | undefined): string {
  if (keysPath !== undefined && error.option.startsWith(`${keysPath}:`))
    return `--keys ${error.option} ${error.problem}`;
  // A profile's fields are named inside the file: `--profile: choices.badQuery must be ...`.
  if (error.option.startsWith('profile.'))
    return `--profile: ${error.option.slice('profile.'.length)} ${error.problem}`;
  const source = optionSources.find(([option]) => error.option.startsWith(option));
  return `${source?.[1] ?? error.option} ${error.problem}`;
}

/** Any count the config then checks (which names the rule: `must be a positive integer`). */
const count = { min: 0, max: Number.MAX_SAFE_INTEGER };

/** A JSON file a flag names, read with `parse` (a profile's small numbers need no lossless parser). */
function readJsonFile(path: string, flag: string, parse: (text: string) => unknown = parseJson) {
  try {
    return parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(error as Error).message}`);
  }
}

/** A flag that takes inline JSON (starting with `{`) or the path of a JSON file. */
function readJsonOrFile(value: string, flag: string): unknown {
  if (!value.trimStart().startsWith('{')) return readJsonFile(value, flag);
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new UsageError(`${flag}: not valid JSON: ${(error as Error).message}`);
  }
}

/** The options the policies' flags set, each read as its policy says (createFake checks the values). */
function policyOptions(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const flag of policyFlags) {
    const text = values[flag.name];
    if (flag.reads === 'off' ? text !== true : typeof text !== 'string') continue;
    const name = `--${flag.name}`;
    const value =
      typeof text !== 'string'
        ? false
        : flag.reads === 'count'
          ? parseInteger(name, text, count)
          : flag.reads === 'json-or-file'
            ? readJsonOrFile(text, name)
            : text;
    // `ban.threshold` and `ban.durationSeconds` meet in one `ban` object.
    const path = flag.option.split('.');
    const last = path.pop() as string;
    let at = root;
    for (const part of path) {
      at[part] ??= {};
      at = at[part] as Record<string, unknown>;
    }
    at[last] = value;
  }
  return root;
}

/**
 * An output path (`--client-report`, `--state-file`), checked before the fake listens, so a typo
 * fails now rather than at exit or at the first create.
 */
function checkWritable(path: string | undefined, flag: string): void {
  if (path === undefined) return;
  const problem = outputPathProblem(path);
  if (problem !== undefined)
    throw new StartupError(
      `${flag}: cannot write ${path}: ${problem}; pick a path in a folder that exists and is writable`,
    );
}

/**
 * What the command line asks for: `'help'`, `'version'`, or the options createFake and the doors
 * are started with; throws a UsageError (exit 2 with the usage) or a StartupError (one line).
 */
export function optionsFromFlags(argv: readonly string[]) {
  const { values } = parseFlags(argv, flagSpecs, (message) => new UsageError(message));
  if (values.help) return 'help' as const;
  if (values.version) return 'version' as const;
  const host = canonicalHost(values.host ?? defaults.host);
  const ports = { min: 0, max: 65_535 };
  const productionPort = parseInteger('--port', values.port, ports) ?? defaults.port;
  const stagingPort =
    parseInteger('--staging-port', values['staging-port'], ports) ??
    (productionPort === 0 ? 0 : productionPort + 1);
  let enterpriseLimits: { perMinute: number; perDay: number } | undefined;
  if (values.enterprise !== undefined) {
    const match = /^(\d{1,15})\/(\d{1,15})$/.exec(values.enterprise);
    if (!match)
      throw new UsageError(
        `--enterprise must look like 10000/10000000 (per minute/per day), got "${values.enterprise}"`,
      );
    enterpriseLimits = { perMinute: Number(match[1]), perDay: Number(match[2]) };
  }
  if (values.fsync && values['state-file'] === undefined)
    throw new UsageError('--fsync needs --state-file');
  // The password rule and the URL's form (a ConfigError naming where it came from).
  const redis = redisTarget(values.redis, process.env[redisUrlVariable]);
  if (redis !== undefined && values['state-file'] !== undefined)
    throw new UsageError(
      `--state-file cannot be given with ${values.redis === undefined ? redisUrlVariable : '--redis'}: the fleet keeps its state in Redis (docs/replicas.md)`,
    );
  if (redis === undefined && values['redis-prefix'] !== undefined)
    throw new UsageError(`--redis-prefix needs --redis or ${redisUrlVariable}`);
  // Before the store reads the file: a directory or a missing folder is one line, not a stack.
  checkWritable(values['state-file'], '--state-file');
  const exitPaths = new Map<string, string>();
  for (const file of policyExitFiles) {
    const path = (values as Record<string, unknown>)[file.name];
    if (typeof path !== 'string') continue;
    checkWritable(path, `--${file.name}`);
    exitPaths.set(file.name, path);
  }
  const loopback = isLoopback(host);
  const controlToken = process.env[tokenVariable];
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${hostForUrl}:${productionPort}`;
  const maxPets = parseInteger('--max-pets', values['max-pets'], count);
  const options: CreateFakeOptions = {
    // The policies' options, which createFake checks (a ConfigError names the flag: optionSources).
    ...(policyOptions(values) as CreateFakeOptions),
    origin,
    stagingOrigin: values['no-staging'] ? false : `http://${hostForUrl}:${stagingPort}`,
    controlAccess: controlToken ? { token: controlToken } : loopback ? 'open' : 'disabled',
    ...(values['retry-after'] === undefined
      ? {}
      : { retryAfterFormat: values['retry-after'] as 'seconds' }),
    // Checked by createFake, which lists the orders (ConfigError listOrder, named as the flag).
    ...(values['list-order'] === undefined ? {} : { listOrder: values['list-order'] as ListOrder }),
    ...(maxPets === undefined ? {} : { maxPets }),
    ...(values['state-file'] === undefined
      ? {}
      : { persistence: createStateFile(values['state-file'], { fsync: values.fsync }) }),
    ...(enterpriseLimits ? { enterpriseLimits } : {}),
    // Checked by createFake, which names the field that is wrong (ConfigError profile.<field>).
    ...(values.profile === undefined
      ? {}
      : { profile: readJsonFile(values.profile, '--profile', JSON.parse) as FakeProfile }),
    ...(values['allowed-hosts'] === undefined
      ? {}
      : { allowedHosts: values['allowed-hosts'].split(',').filter((name) => name !== '') }),
    ...(values.seed === undefined
      ? {}
      : {
          seed: values.seed === 'empty' ? 'empty' : (readJsonFile(values.seed, '--seed') as Pet[]),
        }),
    ...(values.keys === undefined
      ? {}
      : { keys: parseKeysFile(readJsonFile(values.keys, '--keys'), values.keys) }),
    ...(values.quiet
      ? {}
      : { onExchange: (record: ExchangeRecord) => console.log(formatExchange(record)) }),
  };
  return {
    options,
    redis: redis === undefined ? undefined : { target: redis, prefix: values['redis-prefix'] },
    host,
    productionPort,
    stagingPort,
    loopback,
    controlToken,
    exitPaths,
  };
}

/** The path `--keys` names, if any, read before the flags are checked (for an error's words). */
export function keysPathOf(argv: readonly string[]): string | undefined {
  const index = argv.indexOf('--keys');
  return index === -1 ? argv.find((arg) => arg.startsWith('--keys='))?.slice(7) : argv[index + 1];
}
