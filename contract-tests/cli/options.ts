/** Parses the command line and the environment into run options, or throws ContractUsageError. */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { describeParseError } from '../../mock/cli/unknown-flag.ts';
import { checkIds } from '../checks/registry.ts';
import type { PlanName } from '../contract/interface-facts.ts';
import { defaultMaxBodyBytes } from '../http/send.ts';
import { randomSeed } from '../runner/seeds.ts';
import { normaliseBaseUrl } from '../targets/url-target.ts';
import { apiKeyFrom, integer, parsePlan, secondApiKeyFrom, writesFrom } from './flag-values.ts';
import { ContractUsageError } from './usage-error.ts';

/** Which server to check. */
type TargetChoice =
  | {
      readonly kind: 'url';
      readonly baseUrl: string;
      readonly apiKey: string;
      /** `PETSTORE_API_KEY_2`, when set. */
      readonly secondApiKey?: string;
    }
  | { readonly kind: 'fake' }
  | { readonly kind: 'prism-mock' };

/** Everything the CLI was asked to do. */
export interface CliOptions {
  readonly help: boolean;
  readonly version: boolean;
  readonly target: TargetChoice;
  readonly viaPrism: boolean;
  /** `true` / `false` when forced, `undefined` for the default (writes on loopback only). */
  readonly writes: boolean | undefined;
  readonly rateLimits: boolean;
  readonly plan: PlanName | undefined;
  /** `--plan2`: the plan of the second key (`PETSTORE_API_KEY_2`; with `--fake`, its demo key). */
  readonly plan2: PlanName | undefined;
  /** `--budget`; undefined: decided from the key's window (see runner/run-budget.ts). */
  readonly budget: number | undefined;
  readonly timeoutMs: number;
  readonly maxWaitMs: number;
  /** `--max-duration`: the run's bound in ms; past it the run ends incomplete (exit 2). */
  readonly maxDurationMs: number;
  readonly seed: number;
  readonly runs: number | undefined;
  readonly only: readonly string[] | undefined;
  readonly skip: readonly string[] | undefined;
  readonly junit: string | undefined;
  /** `--log <file>`: every request and answer as JSON lines, the key redacted. */
  readonly log: string | undefined;
  readonly maxBodyBytes: number;
  readonly strict: boolean;
  /** The flags that select the target and mode, for replay lines. */
  readonly replayFlags: readonly string[];
}

/** Every flag the CLI takes. */
const optionSpecs = {
  'base-url': { type: 'string' },
  fake: { type: 'boolean' },
  'prism-mock': { type: 'boolean' },
  'via-prism': { type: 'boolean' },
  'allow-writes': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'rate-limits': { type: 'boolean' },
  plan: { type: 'string' },
  plan2: { type: 'string' },
  budget: { type: 'string' },
  timeout: { type: 'string' },
  'max-wait': { type: 'string' },
  'max-duration': { type: 'string' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  only: { type: 'string' },
  skip: { type: 'string' },
  junit: { type: 'string' },
  strict: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  log: { type: 'string' },
  'max-body-bytes': { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

/** `--max-duration`'s default, in seconds: a Free key's minute, one long wait and room to spare. */
const defaultMaxDurationS = 300;

const keyFlags = /^--?(api-?key|key|token|bearer|auth(orization)?)(=|$)/i;

function parseIds(value: string | undefined, flag: string): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  for (const item of items) {
    const known = item.endsWith('.')
      ? checkIds.some((id) => id.startsWith(item))
      : checkIds.includes(item);
    if (!known)
      throw new ContractUsageError(
        `${flag}: unknown check "${item}"; known: ${checkIds.join(', ')}`,
      );
  }
  return items;
}

const valueFlags = new Set(
  Object.entries(optionSpecs)
    .filter(([, spec]) => spec.type === 'string')
    .map(([name]) => `--${name}`),
);

/**
 * Joins `--seed -5` into `--seed=-5`: a value that starts with a dash would otherwise read as an
 * option ("argument is ambiguous"), and seeds are negative as often as not.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    const next = argv[index + 1];
    if (valueFlags.has(arg) && next !== undefined && /^-\d+$/.test(next)) {
      joined.push(`${arg}=${next}`);
      index++;
    } else joined.push(arg);
  }
  return joined;
}

/** Parses argv (without node and script) and the environment. */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions {
  const keyFlag = argv.find((arg) => keyFlags.test(arg));
  if (keyFlag !== undefined)
    throw new ContractUsageError(
      `the API key is never a flag (it would end up in shell history and CI logs): drop ${keyFlag.split('=')[0]} and set PETSTORE_API_KEY instead`,
    );
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(joinNegativeValues(argv)).values;
  } catch (error) {
    throw new ContractUsageError(describeParseError(error, Object.keys(optionSpecs)));
  }
  const help = values.help === true;
  const version = values.version === true;
  const chosen = [
    values['base-url'] !== undefined,
    values.fake === true,
    values['prism-mock'] === true,
  ].filter(Boolean).length;
  if (!help && !version && chosen !== 1)
    throw new ContractUsageError(
      'choose exactly one target: --base-url <url>, --fake or --prism-mock',
    );
  const writes = writesFrom(values);
  if (values['prism-mock'] && values['via-prism'])
    throw new ContractUsageError('--via-prism needs a real target; --prism-mock already is Prism');

  let target: TargetChoice = { kind: 'fake' };
  const replayFlags: string[] = [];
  if (values['base-url'] !== undefined) {
    const baseUrl = normaliseBaseUrl(values['base-url']);
    const apiKey = help || version ? '' : apiKeyFrom(env);
    const secondApiKey = help || version ? undefined : secondApiKeyFrom(env);
    target = {
      kind: 'url',
      baseUrl,
      apiKey,
      ...(secondApiKey === undefined ? {} : { secondApiKey }),
    };
    replayFlags.push(`--base-url ${baseUrl}`);
  } else if (values['prism-mock']) {
    target = { kind: 'prism-mock' };
    replayFlags.push('--prism-mock');
  } else replayFlags.push('--fake');
  for (const flag of ['via-prism', 'allow-writes', 'read-only', 'rate-limits', 'strict'] as const) {
    if (values[flag]) replayFlags.push(`--${flag}`);
  }
  if (values.skip !== undefined) replayFlags.push(`--skip ${values.skip}`);
  if (values.plan !== undefined) replayFlags.push(`--plan ${values.plan}`);
  if (values.plan2 !== undefined) replayFlags.push(`--plan2 ${values.plan2}`);
  const budget =
    values.budget === undefined ? undefined : integer(values.budget, '--budget', 0, 1, 1_000_000);
  if (budget !== undefined) replayFlags.push(`--budget ${budget}`);
  const runs = values.runs === undefined ? undefined : integer(values.runs, '--runs', 1, 1, 10_000);
  if (runs !== undefined) replayFlags.push(`--runs ${runs}`);
  return {
    help,
    version,
    target,
    viaPrism: values['via-prism'] === true,
    writes,
    rateLimits: values['rate-limits'] === true,
    plan: parsePlan(values.plan),
    plan2: parsePlan(values.plan2, '--plan2'),
    budget,
    timeoutMs: integer(values.timeout, '--timeout', 10_000, 1, 600_000),
    maxWaitMs: integer(values['max-wait'], '--max-wait', 90, 0, 86_400) * 1000,
    maxDurationMs:
      integer(values['max-duration'], '--max-duration', defaultMaxDurationS, 1, 86_400) * 1000,
    seed: integer(values.seed, '--seed', randomSeed(), -(2 ** 31), 2 ** 31 - 1),
    runs,
    only: parseIds(values.only, '--only'),
    skip: parseIds(values.skip, '--skip'),
    junit: values.junit,
    log: values.log,
    maxBodyBytes: integer(
      values['max-body-bytes'],
      '--max-body-bytes',
      defaultMaxBodyBytes,
      1024,
      1024 ** 3,
    ),
    strict: values.strict === true,
    replayFlags,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: optionSpecs,
  });
}
