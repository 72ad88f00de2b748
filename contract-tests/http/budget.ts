/** The request budget: a hard cap on requests sent, retries included. */

/** Thrown when a request would exceed the budget; the check that sent it could not run. */
export class BudgetSpentError extends Error {
  constructor(budget: Pick<RequestBudget, 'limit' | 'source'>) {
    super(`the request budget ran out: ${budget.limit} requests sent (${budget.source})`);
    this.name = 'BudgetSpentError';
  }
}

/** Counts requests against a limit. */
export interface RequestBudget {
  readonly limit: number;
  /** Where the limit comes from, as the user would say it: `--budget 60`, `the default budget (...)`. */
  readonly source: string;
  /** Requests sent so far. */
  readonly used: number;
  /** Requests still allowed. */
  readonly left: number;
  /** Spends one request or throws BudgetSpentError. */
  take(): void;
  /** Sets the limit once the run is planned (a default budget follows from the key's window). */
  resize(limit: number, source: string): void;
}

/** Creates a budget of `limit` requests. */
export function createBudget(limit: number, source = `--budget ${limit}`): RequestBudget {
  let used = 0;
  let current = { limit, source };
  const budget: RequestBudget = {
    get limit() {
      return current.limit;
    },
    get source() {
      return current.source;
    },
    get used() {
      return used;
    },
    get left() {
      return current.limit - used;
    },
    take() {
      if (used >= current.limit) throw new BudgetSpentError(budget);
      used += 1;
    },
    resize(next, nextSource) {
      current = { limit: next, source: nextSource };
    },
  };
  return budget;
}
