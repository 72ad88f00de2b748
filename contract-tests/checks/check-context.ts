/** What a running check gets: the client, its seed and runs, the run prefix, shared probes. */
import type { ContractClient, SendOptions } from '../http/client.ts';
import type { Exchange, RequestSpec } from '../http/exchange.ts';
import type { Target } from '../targets/target.ts';

/** The context of one check. */
export interface CheckContext {
  readonly target: Target;
  readonly client: ContractClient;
  /** Property runs this check may use. */
  readonly runs: number;
  /** This check's seed (derived from the run's `--seed` and the check id). */
  readonly seed: number;
  /** Names of created pets start with it, e.g. `contract-m3x9k2-`. */
  readonly runPrefix: string;
  /** Whether this run may create pets. */
  readonly writes: boolean;
  /** Sends a request, counted against this check's allowance. */
  send(spec: RequestSpec, options?: SendOptions): Promise<Exchange>;
  /** `GET /pets?limit=100` with the key, sent once per run and shared. */
  listing(): Promise<Exchange>;
  /** `GET /pets` (no query) with the key, sent once per run and shared. */
  defaultListing(): Promise<Exchange>;
  /** Values checks of one run hand to each other (e.g. the 429 the rate-limit checks provoke). */
  readonly shared: Map<string, unknown>;
}
