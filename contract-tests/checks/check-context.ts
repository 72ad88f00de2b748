/** What a running check gets: the client, its seed and runs, the run prefix, shared probes. */

import type { ContractClient, SendOptions } from '../http/client.ts';
import type { Exchange, RequestSpec } from '../http/exchange.ts';
import type { Target } from '../http/target.ts';
import type { SuiteChoices } from './suite-choices.ts';

/** Requests several checks read, sent once per run by whichever check needs them first. */
export type SharedProbe =
  /** `GET /pets?limit=100` with the key. */
  | 'fullListing'
  /** `GET /pets/{id}` of the first pet of the full listing (needs `fullListing`). */
  | 'listedPet';

/** What the rate-limit checks hand each other within one run. */
export interface RateLimitRunState {
  /** The 429 `rateLimit.exceededGives429` provoked, for `rateLimit.servedAfterRetryAfter`. */
  refusal?: Exchange;
}

/** A listed pet read back by id: the listing, the pet's row in it, and the answer by id. */
export interface ListedPetProbe {
  readonly listing: Exchange;
  /** The listed row with exact integers. */
  readonly row: { readonly id: bigint } & Record<string, unknown>;
  readonly byId: Exchange;
}

/** The context of one check. */
export interface CheckContext {
  readonly target: Target;
  readonly client: ContractClient;
  /** Property runs this check may use (its pinned examples always run, whatever this says). */
  readonly runs: number;
  /** This check's seed (derived from the run's `--seed` and the check id). */
  readonly seed: number;
  /** Names of created pets start with it, e.g. `contract-m3x9k2-`. */
  readonly runPrefix: string;
  /** Whether this run may create pets. */
  readonly writes: boolean;
  /** Sends a request, counted against this check's allowance. */
  send(spec: RequestSpec, options?: SendOptions): Promise<Exchange>;
  /** `GET /pets` (no query) with the key: the run's preflight. */
  defaultListing(): Promise<Exchange>;
  /** The `fullListing` probe. */
  listing(): Promise<Exchange>;
  /** The `listedPet` probe; stops the check (could not run) when the listing is empty. */
  listedPet(): Promise<ListedPetProbe>;
  /** Says what the check inferred from what it saw, shown under its pass. */
  note(text: string): void;
  /** State of the `--rate-limits` phase. */
  readonly rateLimitRun: RateLimitRunState;
  /**
   * What the run was asked, as its flags say it (`--plan2`...), defaults not applied: `writes`
   * and `runs` above are what the run decided.
   */
  readonly choices: SuiteChoices;
}
