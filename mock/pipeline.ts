/**
 * The request pipeline: an ordered list of steps in front of an operation. Each step may answer
 * (a refusal it owns: the 401 with its challenge, the ban, the 429) or hand the exchange on with
 * `next()`, and may look at what came back. Adding a policy means adding a step to the list in
 * behaviour.ts; no step knows about another except through the exchange it reads and writes.
 */
import type { OperationId } from './contract/types.ts';
import type { Answer } from './core/answer.ts';
import type { FakeRequest } from './core/fake-request.ts';
import type { FakeState } from './core/fake-state.ts';
import type { KeyEntry, Limits } from './policies/plans.ts';
import type { KeyUsage, RateLimitHeaders } from './policies/rate-limit.ts';

/** The authenticated caller: its key, its usage record and the limits that apply to it. */
export interface Caller {
  readonly key: KeyEntry;
  readonly usage: KeyUsage;
  readonly limits: Limits;
}

/** One request on its way through the pipeline, and what the steps learned about it so far. */
export interface Exchange {
  readonly request: FakeRequest;
  readonly url: URL;
  /** Path parameters of the route (`petId`), still percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly route: Route;
  readonly state: FakeState;
  /** The fake's clock when the request arrived: every step sees the same time. */
  readonly now: number;
  /** Set by authentication. */
  caller: Caller | undefined;
  /** The key id the request log shows: `-` without a key, `unknown` for a key that matched none. */
  keyId: string;
  /** The X-RateLimit-* values the answer carries; unset means the anonymous ones. */
  rateLimit: RateLimitHeaders | undefined;
  /** Set by the rate-limit step when it refused: the epoch ms the client was told to wait for. */
  refusedUntil: number | undefined;
}

/** An operation: answers a request every step let through. */
export type Operation = (exchange: Exchange) => Answer | Promise<Answer>;

/** A step: answers itself, or calls `next()` for the rest of the pipeline's answer. */
export type Step = (exchange: Exchange, next: () => Promise<Answer>) => Answer | Promise<Answer>;

/** How a route is served: its operation, its id (if it is one of the interface's) and extra headers. */
export interface Route {
  readonly operation: Operation;
  readonly operationId?: OperationId;
  /** Headers added to every answer of the route, errors included (e.g. deprecation). */
  readonly headers?: (url: URL, state: FakeState) => Record<string, string>;
}

/** The caller a step after authentication works for; a step placed before it is a wiring bug. */
export function callerOf(exchange: Exchange): Caller {
  if (exchange.caller === undefined)
    throw new Error('petstore-fake: a step that needs the caller runs before authentication');
  return exchange.caller;
}

/** Runs `steps` in order in front of the route's operation. */
export function runPipeline(steps: readonly Step[], exchange: Exchange): Promise<Answer> {
  const run = (index: number): Promise<Answer> => {
    const step = steps[index];
    if (step === undefined) return Promise.resolve(exchange.route.operation(exchange));
    return Promise.resolve(step(exchange, () => run(index + 1)));
  };
  return run(0);
}
