/** A single-fault variant of the fake: what it breaks, and the check that must catch it. */
import type { RequestHandler } from 'msw';
import type { PlanName } from '../../../contract-tests/contract/interface-facts.ts';
import type { CreateFakeOptions, FakeWithCore } from '../../../mock/internal/entry.ts';

/** One mutant. */
export interface Mutant {
  /** Short kebab-case name, e.g. `default-limit-25`. */
  readonly name: string;
  /** The one rule it breaks, in words. */
  readonly fault: string;
  /** The check id that must fail on it. */
  readonly expect: string;
  /** Needs a `--rate-limits` run (with a small window) to show. */
  readonly rateLimits?: boolean;
  /** Only shows as a warning: the check is advisory (fails with --strict). */
  readonly advisory?: boolean;
  /** Run with this key and `--plan` (default: the Enterprise demo key, no plan). */
  readonly runAs?: { readonly apiKey: string; readonly plan: PlanName };
  /** A second key and its plan (`PETSTORE_API_KEY_2`, `--plan2`), for faults only two keys show. */
  readonly secondKey?: { readonly apiKey: string; readonly plan: PlanName };
  /** Run through `prism proxy` (`--via-prism`): the fake over HTTP behind Prism. */
  readonly viaPrism?: boolean;
  /** Fake options the fault needs (e.g. a key with a small window). */
  readonly fake?: CreateFakeOptions;
  /** Builds the handler list: the fault in front of the real fake. */
  wrap(fake: FakeWithCore): RequestHandler[];
}

/** Defines a mutant (identity, for type inference). */
export function mutant(definition: Mutant): Mutant {
  return definition;
}
