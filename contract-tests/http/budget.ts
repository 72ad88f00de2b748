/** The request budget (`--budget`): a hard cap on requests sent, retries included. */

/** Thrown when a request would exceed the budget; the runner reports the check as skipped. */
export class BudgetSpentError extends Error {
  constructor(limit: number) {
    super(`request budget spent (--budget ${limit})`);
    this.name = 'BudgetSpentError';
  }
}

/** Counts requests against a limit. */
export interface RequestBudget {
  readonly limit: number;
  /** Requests sent so far. */
  readonly used: number;
  /** Requests still allowed. */
  readonly left: number;
  /** Spends one request or throws BudgetSpentError. */
  take(): void;
}

/** Creates a budget of `limit` requests. */
export function createBudget(limit: number): RequestBudget {
  let used = 0;
  return {
    limit,
    get used() {
      return used;
    },
    get left() {
      return limit - used;
    },
    take() {
      if (used >= limit) throw new BudgetSpentError(limit);
      used += 1;
    },
  };
}
