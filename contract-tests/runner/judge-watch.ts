/**
 * The judges of a run's active checks, each held to every exchange of the run whichever check
 * sent it, as the proxy holds them to others' traffic: a listing that listPets.statusFilter sent
 * and that came back longer than its `limit` breaks listPets.limitRespected's rule, so it is that
 * rule's finding, seen in statusFilter's requests, and statusFilter judges only its own rule. A
 * check's own run already holds its own exchanges to its judge; this adds everyone else's, which
 * is why a judged check's verdict is final only once the whole run has been seen.
 */

import type { RunFacts } from '../checks/check.ts';
import { type JudgedCheck, judgeObserver } from '../checks/judge-observer.ts';
import type { Exchange } from '../http/exchange.ts';
import { observe } from './observation.ts';
import type { CheckResult } from './results.ts';

/** Who sent the exchanges before the first check: the run's preflight. */
const beforeAnyCheck = 'preflight';

/** Every exchange of one run, judged by the selected active checks' judges. */
export interface JudgeWatch {
  /** Judges one exchange, sent while the check `sender` ran (undefined: the preflight). */
  see(exchange: Exchange, sender: string | undefined): void;
  /**
   * The checks' results with what their judges saw on every exchange so far: a check's own
   * result, unless its judge failed on an exchange its own run did not fail on; then that
   * failure, naming the check that sent the exchange. Results of checks without a judge are
   * returned as they are.
   */
  settle(results: readonly CheckResult[]): CheckResult[];
}

/**
 * Starts judging every exchange with the judges of `checks`.
 * @example const watch = watchJudges(selection.active.filter(hasJudge), facts); watch.settle(own)
 */
export function watchJudges(checks: readonly JudgedCheck[], run: RunFacts): JudgeWatch {
  const observation = observe(checks.map(judgeObserver), run);
  const senders = new WeakMap<Exchange, string>();
  return {
    see(exchange, sender) {
      senders.set(exchange, sender ?? beforeAnyCheck);
      observation.see(exchange);
    },
    settle(results) {
      const verdicts = new Map(observation.verdicts().map((verdict) => [verdict.id, verdict]));
      return results.map((result) => {
        const failure = verdicts.get(result.id)?.failure;
        if (result.status === 'fail' || result.status === 'warn' || failure === undefined)
          return result;
        const sender = failure.exchange === undefined ? undefined : senders.get(failure.exchange);
        const { reason: _reason, skip: _skip, stoppedByRateLimit: _stopped, ...rest } = result;
        return {
          ...rest,
          status: verdicts.get(result.id)?.status ?? 'fail',
          failure:
            sender === undefined || sender === result.id ? failure : { ...failure, seenIn: sender },
        };
      });
    },
  };
}
