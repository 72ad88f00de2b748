/**
 * Reading flag values and the key, shared by every command of the CLI (the run, `proxy`,
 * `calibrate`), so each value is checked one way and refused with one message. Integers are
 * read by parseInteger (mock/doors/cli-shared/command-line.ts), which the fake's CLI shares.
 */
import { outputPathProblem } from '../../mock/internal/entry.ts';
import { ContractUsageError } from '../base/usage-error.ts';
import { type PlanName, planLimits } from '../contract/interface-facts.ts';

/** `--timeout` of the subcommands (calibrate, verify-pact): its spec, with its help line. */
export const timeoutFlag = {
  type: 'string',
  default: '10000',
  value: '<ms>',
  help: 'per-request timeout (default 10000)',
} as const;

/** `--plan` (or `--plan2`): a plan whose limits the interface gives, or undefined when absent. */
export function parsePlan(value: string | undefined, flag = '--plan'): PlanName | undefined {
  if (value === undefined) return undefined;
  if (!Object.hasOwn(planLimits, value))
    throw new ContractUsageError(
      `${flag} must be one of: ${Object.keys(planLimits).join(', ')} (Enterprise limits are custom); got "${value}"`,
    );
  return value as PlanName;
}

/** The key to send, from `PETSTORE_API_KEY` only (never a flag); throws when it is unset. */
export function apiKeyFrom(env: NodeJS.ProcessEnv): string {
  const key = env.PETSTORE_API_KEY?.trim() ?? '';
  if (key === '')
    throw new ContractUsageError(
      'set PETSTORE_API_KEY to the API key to send (it is read from the environment only)',
    );
  return key;
}

/** The optional second key, from `PETSTORE_API_KEY_2` only; undefined when unset. */
export function secondApiKeyFrom(env: NodeJS.ProcessEnv): string | undefined {
  const key = env.PETSTORE_API_KEY_2?.trim() ?? '';
  return key === '' ? undefined : key;
}

/** `--allow-writes` / `--read-only`: forced on or off, or undefined for the default (loopback). */
export function writesFrom(values: {
  readonly 'allow-writes'?: unknown;
  readonly 'read-only'?: unknown;
}): boolean | undefined {
  if (values['allow-writes'] === true && values['read-only'] === true)
    throw new ContractUsageError('--allow-writes and --read-only contradict each other; pick one');
  return values['allow-writes'] === true ? true : values['read-only'] === true ? false : undefined;
}

/**
 * An output file flag (`--junit`, `--log`, `--out`), checked before the first request so a typo
 * fails at once instead of after the run has spent the key's window.
 */
export function checkOutputPath(flag: string, path: string | undefined): void {
  if (path === undefined) return;
  const problem = outputPathProblem(path);
  if (problem !== undefined)
    throw new ContractUsageError(
      `cannot write the ${flag} file ${path}: ${problem}; pick a path in a folder that exists and is writable`,
    );
}
