/**
 * How many requests a run may send and how many property runs that buys, decided after the
 * preflight from the flags and the key's window (X-RateLimit-Remaining / -Limit): every request
 * with the key draws from the same window, so the conformance checks come first and the
 * `--rate-limits` phase spends only what the window still holds, plus one refused request and one
 * after Retry-After. Requests without a valid key draw on no key's window.
 */

import { ContractUsageError } from '../base/usage-error.ts';
import type { ActiveCheck } from '../checks/check.ts';
import { costAt } from '../checks/check.ts';
import type { KnownQuota } from '../http/pacer.ts';
import { conformanceCost, type SizingRequest, sizeRuns, spendsWindow } from './plan.ts';

/**
 * A Free key's minute: the default budget, in requests with the key, wherever the key's window
 * does not allow more. Requests without a valid key come on top: they draw on no key's window.
 */
const defaultBudget = 60;

/** Most extra requests a failing property may spend on shrinking. */
export const shrinkHeadroom = 200;

/** What the decision needs. */
export interface BudgetRequest {
  readonly active: readonly ActiveCheck[];
  /** `--budget`, when given. */
  readonly budget?: number | undefined;
  /** `--runs`, when given. */
  readonly runs?: number | undefined;
  readonly maxRuns: number;
  /** Whether the target is on this machine (where 100 runs per property are the default). */
  readonly loopback: boolean;
  /** The key's window after the preflight. */
  readonly quota: KnownQuota;
  /** Requests already sent (the preflight). */
  readonly used: number;
  /** False when the target enforces no rate limits (Prism's mock): no headers, no window. */
  readonly rateLimited?: boolean;
}

/** The run's budget and sizing. */
export interface RunBudget {
  readonly limit: number;
  /** Where the limit comes from, as the user would say it: `--budget 60`, `the default budget (...)`. */
  readonly source: string;
  readonly runs: number;
  /** Requests the conformance checks may send (shared probes included, shrinking not). */
  readonly conformance: number;
}

/** What the `--rate-limits` phase needs after `conformance` more requests. */
function windowNeed(quota: KnownQuota): (conformance: number) => number {
  const { remaining, limit } = quota;
  return (conformance) => {
    if (remaining === undefined) return 2;
    // Within the window: what it still holds. Past it, the pacer waits for a new one.
    if (conformance <= remaining) return remaining - conformance + 2;
    return (limit ?? remaining) + 2;
  };
}

/** Requests without a valid key at `runs` runs: no key's window counts them. */
function withoutKeyAt(active: readonly ActiveCheck[], runs: number): number {
  return conformanceCost(active, runs) - conformanceCost(active, runs, 'withKey');
}

function tooSmall(budget: number, needed: number, rateLimits: boolean): never {
  throw new ContractUsageError(
    `--budget ${budget} is too small for the checks asked: they need at least ${needed} requests${rateLimits ? " (the conformance checks, then what the key's window still holds + 2 for --rate-limits)" : ''}; rerun with --budget ${needed}, or narrow the run with --only or --skip`,
  );
}

/**
 * Decides the budget and the property runs; throws ContractUsageError when an explicit
 * `--budget` cannot hold what was asked (a check is never dropped to make it fit).
 * @example decideBudget({ active, maxRuns: 100, loopback: false, quota: { remaining: 59, limit: 60 }, used: 1 })
 */
export function decideBudget(request: BudgetRequest): RunBudget {
  const { active, quota, used } = request;
  const rateLimits = active.some(spendsWindow);
  const sizing = (available: number, withWindow: boolean): SizingRequest => ({
    available,
    maxRuns: request.maxRuns,
    runs: request.runs,
    ...(withWindow ? { windowNeed: windowNeed(quota) } : {}),
  });

  if (request.budget !== undefined) {
    const sized = sizeRuns(active, sizing(request.budget - used, rateLimits));
    if (!sized.fits) tooSmall(request.budget, used + sized.needed, rateLimits);
    return {
      limit: request.budget,
      source: `--budget ${request.budget}`,
      runs: sized.runs,
      conformance: sized.conformance,
    };
  }

  // The second key's check comes on top of the Free minute: half its requests use the other key.
  const secondKeyRequests = active
    .filter((check) => (check.needs ?? []).includes('secondKey'))
    .reduce((sum, check) => sum + costAt(check.cost, 1), 0);
  // A key whose window holds the full plan on this machine: as many runs as asked (or 100).
  const fullRuns = request.runs ?? request.maxRuns;
  const full = conformanceCost(active, fullRuns);
  // No X-RateLimit-Remaining is no evidence of a roomy window: the run then fits a Free key's
  // minute (interface, "Limits": the headers are promised on every response).
  const roomy =
    request.loopback &&
    (quota.remaining === undefined
      ? request.rateLimited === false
      : quota.remaining >= conformanceCost(active, fullRuns, 'withKey') + (rateLimits ? 2 : 0));
  let sized: { runs: number; conformance: number };
  let why: string;
  let withoutKey = 0;
  if (roomy) {
    sized = { runs: fullRuns, conformance: full };
    why = `${fullRuns} run${fullRuns === 1 ? '' : 's'} per property: the key's window holds them`;
  } else {
    // The minute is the key's; the auth checks' requests at one run come on top (they carry no
    // valid key). More runs of theirs come out of the minute, so a server that wrongly counts
    // them against the key (rateLimit.othersNotCounted) meets at most those few extra.
    withoutKey = withoutKeyAt(active, 1);
    const defaultLimit = defaultBudget + secondKeyRequests + withoutKey;
    const fitted = sizeRuns(active, sizing(defaultLimit - used, false));
    if (!fitted.fits)
      throw new ContractUsageError(
        `the checks asked need at least ${used + fitted.needed} requests, more than the default budget of ${defaultLimit} (a Free key's minute${secondKeyRequests > 0 ? ` + ${secondKeyRequests} for PETSTORE_API_KEY_2` : ''}${withoutKey > 0 ? ` + ${withoutKey} without a valid key` : ''}): pass --budget ${used + fitted.needed}, or narrow the run with --only or --skip`,
      );
    sized = fitted;
    why =
      quota.remaining === undefined
        ? "a Free key's minute: the preflight's answer had no X-RateLimit-Remaining"
        : "a Free key's minute";
    if (withoutKey > 0) why += `, + ${withoutKey} without a valid key`;
  }
  let limit = used + sized.conformance;
  if (rateLimits) {
    // Room for the worst case: the window rolled during the run and must be spent whole.
    limit += (quota.limit ?? quota.remaining ?? 0) + 2;
    why += `, then X-RateLimit-Limit ${quota.limit ?? '?'} + 2 for --rate-limits`;
  } else if (roomy) {
    limit += Math.min(
      shrinkHeadroom,
      Math.max(0, (quota.remaining ?? Number.POSITIVE_INFINITY) - sized.conformance),
    );
  } else limit = Math.max(limit, defaultBudget + secondKeyRequests + withoutKey);
  return {
    limit,
    source: `the default budget (${why})`,
    runs: sized.runs,
    conformance: sized.conformance,
  };
}
