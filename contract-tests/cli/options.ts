/** Parses the command line and the environment into run options, or throws ContractUsageError. */
import { type FlagSpecs, parseFlags, parseInteger } from '../../mock/internal/entry.ts';
import { ContractUsageError } from '../base/usage-error.ts';
import { checkIds } from '../checks/registry.ts';
import type { SuiteChoices } from '../checks/suite-choices.ts';
import { defaultMaxBodyBytes } from '../http/send.ts';
import type { ClientSettings } from '../runner/run-client.ts';
import { randomSeed } from '../runner/seeds.ts';
import { normaliseBaseUrl } from '../targets/url-target.ts';
import { apiKeyFrom, parsePlan, secondApiKeyFrom, writesFrom } from './flag-values.ts';

/** Which server to check. */
type TargetChoice =
  | {
      readonly kind: 'url';
      readonly baseUrl: string;
      readonly apiKey: string;
      /** `PETSTORE_API_KEY_2`, when set. */
      readonly secondApiKey: string | undefined;
    }
  | { readonly kind: 'fake' }
  | { readonly kind: 'prism-mock' };

/** Everything the CLI was asked to do. */
export interface CliOptions {
  readonly help: boolean;
  readonly version: boolean;
  readonly target: TargetChoice;
  readonly viaPrism: boolean;
  /** The run's client, as the flags set it (`--seed`, `--budget`, `--timeout`, the waits...). */
  readonly client: ClientSettings & { readonly seed: number };
  /** What the run checks, as the flags set it (`--rate-limits`, `--plan`, `--only`...). */
  readonly suite: SuiteChoices;
  readonly junit: string | undefined;
  /** `--coverage <file>`: the interface coverage of the run (docs/harness/run.md). */
  readonly coverage: string | undefined;
  /** `--log <file>`: every request and answer as JSON lines, the key redacted. */
  readonly log: string | undefined;
  readonly strict: boolean;
  /** The flags that select the target and mode, for replay lines. */
  readonly replayFlags: readonly string[];
}

/** `--max-duration`'s default, in seconds: a Free key's minute, one long wait and room to spare. */
const defaultMaxDurationS = 300;

/**
 * Every flag the CLI takes, with its help (cli/usage.ts prints it). A flag is declared here and
 * parsed in parseCliOptions, into the run's client settings or its suite choices, which main
 * hands on whole. This order is the one unknown flags are matched in (did you mean); the help
 * lists them as targetFlags and optionFlags below say.
 */
export const cliFlags = {
  'base-url': {
    type: 'string',
    value: '<url>',
    help: "the server's base address, ending in /v1",
  },
  fake: {
    type: 'boolean',
    help: "the project's fake, started here on a free port (demo keys)",
  },
  'prism-mock': {
    type: 'boolean',
    help: '`prism mock` of openapi/petstore.yaml (stateless checks only)',
  },
  'via-prism': {
    type: 'boolean',
    help: 'pass exchanges through `prism proxy`: its validator judges every answer',
  },
  'allow-writes': {
    type: 'boolean',
    help: 'create pets on a non-loopback server (names start with contract-<run id>-)',
  },
  'read-only': { type: 'boolean', help: 'never create pets, even on a loopback server' },
  'rate-limits': {
    type: 'boolean',
    help: [
      "after every other check, spend what the key's window still holds",
      '(X-RateLimit-Remaining), one refused request, one after Retry-After',
    ],
  },
  plan: {
    type: 'string',
    value: '<name>',
    help: "the key's plan (free, pro, business): X-RateLimit-Limit must match it",
  },
  plan2: {
    type: 'string',
    value: '<name>',
    help: [
      'the plan of the second key, PETSTORE_API_KEY_2 (set, it checks that',
      'the two keys have independent windows; with --fake: that demo key)',
    ],
  },
  budget: {
    type: 'string',
    value: '<n>',
    help: [
      'most requests to send, retries included; too small for what was',
      "asked exits 2 naming the number needed. Default: 60 (a Free key's",
      "minute), 100 runs per property on loopback when the key's window",
      'holds them, + X-RateLimit-Limit + 2 with --rate-limits',
    ],
  },
  timeout: {
    type: 'string',
    default: '10000',
    value: '<ms>',
    help: 'per-request timeout, body included (default 10000)',
  },
  'max-wait': {
    type: 'string',
    default: '90',
    value: '<s>',
    help: 'longest wait for Retry-After or X-RateLimit-Reset (default 90)',
  },
  'max-duration': {
    type: 'string',
    default: String(defaultMaxDurationS),
    value: '<s>',
    help: [
      `the run's bound (default ${defaultMaxDurationS}): past it, no request and no wait;`,
      'the checks left could not run (exit 2, naming the wait)',
    ],
  },
  seed: {
    type: 'string',
    value: '<n>',
    help: 'replay a run (printed at the start and with every failure)',
  },
  runs: {
    type: 'string',
    value: '<n>',
    help: [
      'property runs per property check (default: as the budget allows,',
      "at most 100; each property's edge cases always run)",
    ],
  },
  only: {
    type: 'string',
    value: '<ids>',
    help: [
      'run only these checks: comma-separated ids or prefixes ending in "."',
      '(e.g. listPets.); the every-response checks always run',
    ],
  },
  skip: {
    type: 'string',
    value: '<ids>',
    help: 'never run these checks (same syntax), e.g. a deviation you accept',
  },
  junit: { type: 'string', value: '<file>', help: 'also write a JUnit XML report' },
  coverage: {
    type: 'string',
    value: '<file>',
    help: [
      'write what the run exercised of the interface, and what it skipped',
      'and why (.md, .xml JUnit, .ctrf.json CTRF, else JSON)',
    ],
  },
  strict: { type: 'boolean', help: 'advisory checks fail the run too' },
  help: { type: 'boolean', short: 'h', help: 'this text' },
  version: { type: 'boolean', help: "the harness's version" },
  log: {
    type: 'string',
    value: '<file>',
    help: 'write every request and answer as JSON lines (key redacted)',
  },
  'max-body-bytes': {
    type: 'string',
    default: String(defaultMaxBodyBytes),
    value: '<n>',
    help: `most bytes read of an answer (default ${defaultMaxBodyBytes}); more: no verdict`,
  },
} as const satisfies FlagSpecs;

/** Where each flag's help starts in --help (cli/usage.ts). */
export const helpColumn = 23;

/** The flags that choose the target, listed first. */
export const targetFlags = [
  'base-url',
  'fake',
  'prism-mock',
] as const satisfies readonly (keyof typeof cliFlags)[];

/** Every other flag, in the order the help lists them. */
export const optionFlags = [
  'via-prism',
  'allow-writes',
  'read-only',
  'rate-limits',
  'plan',
  'plan2',
  'budget',
  'timeout',
  'max-body-bytes',
  'max-wait',
  'max-duration',
  'seed',
  'runs',
  'only',
  'skip',
  'junit',
  'coverage',
  'log',
  'strict',
  'version',
  'help',
] as const satisfies readonly (keyof typeof cliFlags)[];

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
  Object.entries(cliFlags)
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
  const { values } = parseFlags(
    joinNegativeValues(argv),
    cliFlags,
    (message) => new ContractUsageError(message),
  );
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
      secondApiKey,
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
  // Parsed in this order, so the first bad flag is the one reported.
  const budget = parseInteger('--budget', values.budget, { min: 1, max: 1_000_000 });
  if (budget !== undefined) replayFlags.push(`--budget ${budget}`);
  const runs = parseInteger('--runs', values.runs, { min: 1, max: 10_000 });
  if (runs !== undefined) replayFlags.push(`--runs ${runs}`);
  const plan = parsePlan(values.plan);
  const plan2 = parsePlan(values.plan2, '--plan2');
  const timeoutMs = parseInteger('--timeout', values.timeout, { min: 1, max: 600_000 });
  const maxWaitS = parseInteger('--max-wait', values['max-wait'], { min: 0, max: 86_400 });
  const maxDurationS = parseInteger('--max-duration', values['max-duration'], {
    min: 1,
    max: 86_400,
  });
  const seed =
    parseInteger('--seed', values.seed, { min: -(2 ** 31), max: 2 ** 31 - 1 }) ?? randomSeed();
  const only = parseIds(values.only, '--only');
  const skip = parseIds(values.skip, '--skip');
  const maxBodyBytes = parseInteger('--max-body-bytes', values['max-body-bytes'], {
    min: 1024,
    max: 1024 ** 3,
  });
  return {
    help,
    version,
    target,
    viaPrism: values['via-prism'] === true,
    client: {
      seed,
      budget,
      timeoutMs,
      maxWaitMs: maxWaitS * 1000,
      maxDurationMs: maxDurationS * 1000,
      maxBodyBytes,
    },
    suite: { writes, rateLimits: values['rate-limits'] === true, plan, plan2, runs, only, skip },
    junit: values.junit,
    coverage: values.coverage,
    log: values.log,
    strict: values.strict === true,
    replayFlags,
  };
}
