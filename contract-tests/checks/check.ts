/**
 * What a check is: a stable id, the rule it enforces in words, where the interface states it,
 * what it needs from the target and the flags, and how many requests it may send. Checks are
 * written once and run against every target.
 */
import type { PlanName } from '../contract/interface-facts.ts';
import type { Exchange } from '../http/exchange.ts';
import type { CheckContext, SharedProbe } from './check-context.ts';

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
  | 'plan'
  /** `PETSTORE_API_KEY_2`: a second key to compare windows with. */
  | 'secondKey';

/** Fields every check and observer has. */
interface CheckInfo {
  /** Stable id, `<area>.<rule>`, e.g. `listPets.defaultLimit`. */
  readonly id: string;
  /** The rule in words, e.g. `returns at most 20 pets when limit is omitted`. */
  readonly title: string;
  /** Where the interface states the rule: a section of openapi/interface.md. */
  readonly source: string;
  readonly needs?: readonly Need[];
  /** An advisory check only warns (fails with `--strict`): the interface implies it loosely. */
  readonly advisory?: boolean;
}

/**
 * Upper bound of an active check's requests: `fixed + perRun × max(runs, examples)`. A property
 * tries its `examples` (its edge classes) first, so at least that many runs happen whatever the
 * budget: a one-run pass is never a lucky draw.
 */
export interface CheckCost {
  readonly fixed: number;
  readonly perRun: number;
  /** Property runs that are pinned examples (default 0: no property, or no pinned examples). */
  readonly examples?: number;
  /**
   * Its requests carry no valid key, so they draw on no key's window (interface, Limits: the
   * limit applies to the caller; rateLimit.othersNotCounted checks it): a Free key's minute
   * counts them apart.
   */
  readonly withoutKey?: true;
}

/** Requests a check may send at `runs` property runs. */
export function costAt(cost: CheckCost, runs: number): number {
  return cost.fixed + cost.perRun * Math.max(runs, cost.examples ?? 0);
}

/** Order of the phases of a run: every conformance check before the rate-limit exhaustion. */
export const priorities = {
  /**
   * First, right after the preflight: their requests carry no valid key, so the next answer to
   * the key shows whether they drew from its window (rateLimit.othersNotCounted).
   */
  auth: 5,
  listPets: 10,
  /**
   * The other auth checks fill gaps of their own between the conformance checks' answers to the
   * key: a window that turns over inside one gap (a minute ending mid-run, a sliding counter's
   * next sub-window) hides that gap only, and rateLimit.othersNotCounted judges the others.
   */
  authAfterListing: 15,
  getPet: 20,
  authAfterGet: 25,
  createPet: 30,
  model: 40,
  concurrency: 60,
  /** Spends what the key's window still holds: always last. */
  rateLimitRun: 100,
} as const;

/** A check that sends its own requests. */
export interface ActiveCheck extends CheckInfo {
  readonly kind: 'active';
  /** Lower runs first; checks of equal priority keep their registry order. */
  readonly priority: number;
  readonly cost: CheckCost;
  /**
   * Its cost in a run that does not write, when it sends more there: a check covers what a
   * writing check would otherwise have covered (the plan picks it in `selectChecks`).
   */
  readonly readOnlyCost?: CheckCost;
  /** Shared probes it reads (sent once per run, planned once: not part of `cost`). */
  readonly shares?: readonly SharedProbe[];
  /** Ids of checks whose outcome it reads (run first, and selected with it by `--only`). */
  readonly follows?: readonly string[];
  /**
   * What it judges, when one exchange can show its rule: `run` holds the exchanges it sends to
   * it, and the proxy every exchange it forwards, so passive and active runs hold one rule.
   */
  readonly judges?: ExchangeJudge;
  run(context: CheckContext): Promise<void>;
}

/**
 * The judging half of an active check (schemathesis `checks.py`: a check is a function of the
 * exchange): one exchange at a time, or keeping what earlier exchanges showed (per key on a proxy).
 * @example { appliesTo: (exchange) => exchange.spec.operationId === 'listPets', judge, unseen: 'no listing was seen' }
 */
type ExchangeJudge = (
  | {
      /** Whether this exchange can show the rule (the request asked what the rule speaks of). */
      readonly appliesTo: (exchange: Exchange) => boolean;
      /** A violation message, or undefined when the exchange obeys the rule. */
      readonly judge: (exchange: Exchange) => string | undefined;
    }
  | {
      /** Fresh state: a run, or one key's traffic on a proxy. */
      readonly start: () => ExchangeObserver;
    }
) & {
  /** Why no exchange showed the rule, when none did (the proxy reports it not exercised). */
  readonly unseen: string;
};

/** A judge of one exchange at a time: what `expectJudged` holds an active check's exchanges to. */
export type StatelessJudge = Extract<ExchangeJudge, { appliesTo: unknown }>;
/** A judge that compares exchanges with earlier ones (a pet read back with how it was listed). */
export type StatefulJudge = Extract<ExchangeJudge, { start: unknown }>;

/** What an observer may know about the run. */
export interface RunFacts {
  /** The key's plan, when `--plan` names it. */
  readonly plan?: PlanName;
  /** Whether the run may create pets. */
  readonly writes: boolean;
  /** Whether the run spends the window (and so provokes a 429): `--rate-limits`, its checks selected. */
  readonly rateLimitRun: boolean;
  /**
   * Whether `--only` or `--skip` narrowed the active checks: observers then see only the selected checks'
   * traffic, so one that saw nothing was not exercised, never "could not run" (a replay line
   * `--only <id> --seed=<n>` must reproduce its check's failure, not an unrelated incomplete).
   */
  readonly narrowed?: boolean;
  /** Whether the exchanges are others' traffic (the proxy), which no flag of ours can provoke. */
  readonly passive?: boolean;
}

/** What an observer that judged nothing means for the run. */
export interface WhenUnseen {
  readonly reason: string;
  /**
   * Whether the run's flags asked for exchanges this observer judges: then seeing none means
   * the check could not run (the run is incomplete); otherwise it was merely not exercised.
   */
  readonly expected?: (run: RunFacts) => boolean;
}

/** Fields of every observer. */
interface ObserverBase extends CheckInfo {
  readonly kind: 'observer';
  /** Default: nothing to judge is a pass (e.g. no fault is the rule's whole point). */
  readonly whenUnseen?: (run: RunFacts) => WhenUnseen;
}

/**
 * A stateless observer: judges each exchange it applies to on its own. The default shape.
 * @example observerCheck({ id, title, source, appliesTo: hasStatus(429), judge, whenUnseen })
 */
export interface StatelessObserver extends ObserverBase {
  /** Whether this exchange is one the rule speaks of. */
  readonly appliesTo: (exchange: Exchange) => boolean;
  /** A violation message, or undefined when the exchange obeys the rule. */
  readonly judge: (exchange: Exchange, run: RunFacts) => string | undefined;
}

/** An observer that compares exchanges with earlier ones, so it keeps per-run state. */
export interface StatefulObserver extends ObserverBase {
  start(run: RunFacts): ExchangeObserver;
}

/** A check that judges the exchanges every other check sends (headers, error bodies, faults...). */
export type ObserverCheck = StatelessObserver | StatefulObserver;

/** Per-run state of a stateful observer. */
export interface ExchangeObserver {
  /** Sees one exchange; returns a violation message, if this exchange breaks the rule. */
  observe(exchange: Exchange): string | undefined;
  /**
   * How many exchanges it judged so far: only those that could have shown a violation count, so
   * a check that saw nothing able to break its rule is "not exercised", never a pass.
   */
  judged(): number;
  /** What it inferred from what it judged, shown under its pass (e.g. how it read a window). */
  note?(): string | undefined;
  /**
   * Why what it saw could not have shown a violation, when it judged nothing although the run
   * gave it something to look at: the check is then "not exercised" with this reason.
   */
  unseen?(): string | undefined;
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
  /**
   * How many exchanges broke the rule, when more than one did (an observer judges every one):
   * the message and exchange are the first's.
   */
  readonly occurrences?: number;
  /**
   * Where the failure was seen, when another check sent the exchange (a rule's judge holds every
   * exchange of the run): that check's id, or `preflight`, the run's first request.
   */
  readonly seenIn?: string;
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
 * @example activeCheck({ id: 'listPets.defaultLimit', title: '...', source: '...', priority: priorities.listPets, cost: { fixed: 1, perRun: 0 }, run })
 */
export function activeCheck(definition: Omit<ActiveCheck, 'kind'>): ActiveCheck {
  return { kind: 'active', ...definition };
}

/** Defines a stateless observer. */
export function observerCheck(definition: Omit<StatelessObserver, 'kind'>): StatelessObserver {
  return { kind: 'observer', ...definition };
}

/** Defines an observer that keeps state across the exchanges of a run. */
export function statefulObserverCheck(
  definition: Omit<StatefulObserver, 'kind'>,
): StatefulObserver {
  return { kind: 'observer', ...definition };
}

/**
 * Thrown by a check that could not judge the server this run (no pet to read back, the window
 * reset while it was being spent...): not a verdict, so the run is incomplete (exit 2).
 */
export class CouldNotRun extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CouldNotRun';
  }
}

/** Stops the current check without a verdict; `reason` says what is missing and how to fix it. */
export function couldNotRun(reason: string): never {
  throw new CouldNotRun(reason);
}

/**
 * Thrown by a check whose requests could not have shown its violation on this server (no listing
 * could exceed 100: 37 pets match): no verdict, and no effect on the run's (not exercised).
 */
export class NotExercised extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NotExercised';
  }
}

/** Ends the current check as "not exercised"; `reason` says why nothing it saw could fail it. */
export function notExercised(reason: string): never {
  throw new NotExercised(reason);
}
