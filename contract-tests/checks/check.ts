/**
 * What a check is: a stable id, the rule it enforces in words, where the interface states it,
 * what it needs from the target, and how many requests it may send. Checks are written once
 * and run against every target.
 */
import type { PlanName } from '../contract/interface-facts.ts';
import type { Exchange } from '../http/exchange.ts';
import type { CheckContext } from './check-context.ts';

/** What a check needs beyond read access to a conforming server. */
export type Need =
  /** Creating pets: on by default for loopback targets, `--allow-writes` elsewhere. */
  | 'writes'
  /** A server that behaves as the interface says, not only in shape (see Capabilities). */
  | 'semantics'
  /** A server that enforces rate limits. */
  | 'rateLimits'
  /** `--rate-limits`: exhausting the quota once, deliberately. */
  | 'rateLimitRun'
  /** `--via-prism`. */
  | 'prism'
  /** `--plan`: the key's plan is known. */
  | 'plan';

/** Fields every check and observer has. */
export interface CheckInfo {
  /** Stable id, `<area>.<rule>`, e.g. `listPets.defaultLimit`. */
  readonly id: string;
  /** The rule in words, e.g. `returns at most 20 pets when limit is omitted`. */
  readonly title: string;
  /** Where petstore-interface.md states the rule. */
  readonly source: string;
  readonly needs?: readonly Need[];
  /** An advisory check only warns (fails with `--strict`): the interface implies it loosely. */
  readonly advisory?: boolean;
}

/** A check that sends its own requests. */
export interface ActiveCheck extends CheckInfo {
  readonly kind: 'active';
  /** Upper bound of requests: `fixed + perRun × runs`. */
  readonly cost: { readonly fixed: number; readonly perRun: number };
  run(context: CheckContext): Promise<void>;
}

/** A check that judges every exchange of the run (headers, error bodies, faults...). */
export interface ObserverCheck extends CheckInfo {
  readonly kind: 'observer';
  /** Creates the per-run state that sees each exchange. */
  start(run: RunFacts): ExchangeObserver;
}

/** What an observer may know about the run. */
export interface RunFacts {
  /** The key's plan, when `--plan` names it. */
  readonly plan?: PlanName;
}

/** Per-run state of an observer check. */
export interface ExchangeObserver {
  /** Sees one exchange; returns a violation message, if this exchange breaks the rule. */
  observe(exchange: Exchange): string | undefined;
  /** When no violation was found: a skip reason if nothing relevant was seen, else undefined. */
  unseenReason(): string | undefined;
}

/** Any check. */
export type Check = ActiveCheck | ObserverCheck;

/** What a failing check reports. */
export interface FailureDetails {
  readonly message: string;
  /** The exchange that showed the failure, for the curl line. */
  readonly exchange?: Exchange;
  /** The shrunk input, as fast-check prints it. */
  readonly counterexample?: string;
  /** fast-check's seed and path for this check's property. */
  readonly propertySeed?: number;
  readonly path?: string;
  /** Extra lines, e.g. the model's command sequence. */
  readonly notes?: readonly string[];
}

/** Thrown by a check when the server breaks its rule. */
export class CheckFailure extends Error {
  readonly details: FailureDetails;
  constructor(details: FailureDetails) {
    super(details.message);
    this.name = 'CheckFailure';
    this.details = details;
  }
}

/** Fails the current check. */
export function fail(message: string, exchange?: Exchange): never {
  throw new CheckFailure(exchange === undefined ? { message } : { message, exchange });
}

/**
 * Defines an active check.
 * @example activeCheck({ id: 'listPets.defaultLimit', title: '...', source: '...', cost: { fixed: 1, perRun: 0 }, run })
 */
export function activeCheck(definition: Omit<ActiveCheck, 'kind'>): ActiveCheck {
  return { kind: 'active', ...definition };
}

/** Defines an observer check. */
export function observerCheck(definition: Omit<ObserverCheck, 'kind'>): ObserverCheck {
  return { kind: 'observer', ...definition };
}

/** Thrown by a check that cannot judge this target (e.g. nothing to read back). */
export class SkipCheck extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SkipCheck';
  }
}

/** Skips the current check with a reason. */
export function skip(reason: string): never {
  throw new SkipCheck(reason);
}
