/**
 * What a run was asked to check, as its flags say it (`--runs`, `--rate-limits`, `--plan2`...),
 * before any default is applied. The CLI parses the flags into it, runSuite takes it whole and
 * every check sees it (CheckContext.choices), so a flag a check reads is declared here once.
 */
import type { PlanName } from '../contract/interface-facts.ts';

/** What a run checks, as its flags choose it; absent or undefined: the default. */
export interface SuiteChoices {
  /** Property runs (`--runs`); default as many as the budget allows, up to `maxRuns`. */
  readonly runs?: number | undefined;
  readonly maxRuns?: number;
  /** May create pets (default: only on loopback targets). */
  readonly writes?: boolean | undefined;
  /** Spend the key's window once on purpose (`--rate-limits`). */
  readonly rateLimits?: boolean;
  /** The key's plan (`--plan`), to check X-RateLimit-Limit against the plan table. */
  readonly plan?: PlanName | undefined;
  /** `--plan2`: the plan of the target's second key. */
  readonly plan2?: PlanName | undefined;
  readonly only?: readonly string[] | undefined;
  /** Checks never to run (`--skip`). */
  readonly skip?: readonly string[] | undefined;
  /** Prefix of created pets' names; default `contract-<time><random>-`. */
  readonly runPrefix?: string;
}
