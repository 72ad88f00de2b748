/**
 * The observers' side of a run: every exchange is shown to each observer as it happens; at the
 * end each observer's verdict is a pass, the first violation it saw (with how many exchanges broke
 * the rule), or a skip saying whether it
 * was merely not exercised or could not run although the flags asked for what it judges.
 */
import type { ExchangeObserver, ObserverCheck, RunFacts } from '../checks/check.ts';
import type { Exchange } from '../http/exchange.ts';
import type { CheckResult } from './results.ts';

/** Watches the exchanges of one run. */
export interface Observation {
  /** Shows one exchange to every observer. */
  see(exchange: Exchange): void;
  /** One result per observer, in the order they were given. */
  verdicts(): CheckResult[];
}

function begin(check: ObserverCheck, run: RunFacts): ExchangeObserver {
  if ('start' in check) return check.start(run);
  let judged = 0;
  return {
    observe(exchange) {
      if (!check.appliesTo(exchange)) return undefined;
      judged += 1;
      return check.judge(exchange, run);
    },
    judged: () => judged,
  };
}

/**
 * Starts the observers of a run.
 * @example const observation = observe(selection.observers, facts); client.onExchange = observation.see
 */
export function observe(observers: readonly ObserverCheck[], run: RunFacts): Observation {
  const watching = observers.map((check) => ({
    check,
    state: begin(check, run),
    violation: undefined as { message: string; exchange: Exchange } | undefined,
    /** Exchanges that broke the rule: the same fault on many answers is one finding, counted. */
    violations: 0,
  }));
  return {
    see(exchange) {
      for (const entry of watching) {
        const message = entry.state.observe(exchange);
        if (message === undefined) continue;
        entry.violations += 1;
        entry.violation ??= { message, exchange };
      }
    },
    verdicts() {
      return watching.map(({ check, state, violation, violations }): CheckResult => {
        const info = {
          id: check.id,
          kind: check.kind,
          title: check.title,
          source: check.source,
          requests: 0,
          durationMs: 0,
        };
        if (violation !== undefined)
          return {
            ...info,
            status: check.advisory ? 'warn' : 'fail',
            failure: violations > 1 ? { ...violation, occurrences: violations } : violation,
          };
        if (state.judged() > 0 || check.whenUnseen === undefined) {
          const note = state.note?.();
          return { ...info, status: 'pass', ...(note === undefined ? {} : { reason: note }) };
        }
        // It saw what it needed, but nothing there could have shown a violation: not exercised.
        const invisible = state.unseen?.();
        if (invisible !== undefined)
          return { ...info, status: 'skip', skip: 'not-exercised', reason: invisible };
        const unseen = check.whenUnseen(run);
        // Others' traffic (the proxy) was never asked for anything: what it did not show was
        // not exercised, never "could not run" (which makes a run incomplete, exit 2).
        const expected = run.passive !== true && (unseen.expected?.(run) ?? false);
        return {
          ...info,
          status: 'skip',
          skip: expected ? 'could-not-run' : 'not-exercised',
          reason: unseen.reason,
        };
      });
    },
  };
}
