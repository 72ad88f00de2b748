/**
 * The observers of a proxy: every exchange of real traffic is judged by every observer check
 * that needs no request of its own, and by the judge of every active check whose rule one
 * exchange can show (the limit asked and the page given, a create and its 201, a request without
 * a key and its 401...), the same judge the active check holds its own exchanges to. Observers
 * that compare exchanges (Remaining going down, ids, read-backs) run once per key, so two
 * clients' traffic never looks like one broken window; the number of keys tracked is bounded,
 * and so is each observer's memory. A key forgotten to make
 * room leaves its worst verdict per check behind: a failure once seen is never forgotten, however
 * many keys come after it.
 */
import type { Check, ObserverCheck, RunFacts } from '../checks/check.ts';
import { hasJudge, judgeObserver } from '../checks/judge-observer.ts';
import { allChecks } from '../checks/registry.ts';
import type { PlanName } from '../contract/interface-facts.ts';
import type { Exchange } from '../http/exchange.ts';
import { type Observation, observe } from '../runner/observation.ts';
import type { CheckResult } from '../runner/results.ts';

/** Most distinct keys whose windows are followed at once; older ones are forgotten. */
const trackedKeys = 1_000;

/** The passive side of a proxy. */
export interface PassiveVerdicts {
  /** Judges one exchange; `keyId` tells the client's key apart (a hash, never the key). */
  see(exchange: Exchange, keyId: string | undefined): void;
  /** One result per observer check, merged over every key. */
  verdicts(): CheckResult[];
  /** Exchanges judged so far. */
  readonly judged: number;
}

/** What a proxy runs of a check: the observer itself, its judge, or nothing (it must send). */
function passiveOf(check: Check, plan: PlanName | undefined): ObserverCheck | undefined {
  const needs = check.needs ?? [];
  if (check.kind === 'active') return hasJudge(check) ? judgeObserver(check) : undefined;
  if (needs.includes('prism') || (needs.includes('plan') && plan === undefined)) return undefined;
  return check;
}

/**
 * The checks a proxy runs, in the registry's order: every observer but Prism's (the plan check
 * with `--plan`), and every active check's judge.
 */
export function passiveObservers(plan: PlanName | undefined): ObserverCheck[] {
  return allChecks.flatMap((check) => passiveOf(check, plan) ?? []);
}

const rank = { fail: 4, warn: 3, pass: 2, skip: 1 } as const;

/** Starts the observers of a proxy. */
export function createPassiveVerdicts(plan: PlanName | undefined): PassiveVerdicts {
  const checks = passiveObservers(plan);
  // The proxy asks for nothing, so nothing it did not see makes its verdict incomplete.
  const facts: RunFacts = {
    writes: false,
    rateLimitRun: false,
    passive: true,
    ...(plan === undefined ? {} : { plan }),
  };
  const anonymous = observe(checks, facts);
  const perKey = new Map<string, Observation>();
  /** The worst verdict per check of every key forgotten so far (one result per check). */
  let retired: CheckResult[] | undefined;
  let judged = 0;
  /** The observation of the key answered last. */
  let newest: Observation | undefined;
  const worst = (lists: readonly (readonly CheckResult[])[]): CheckResult[] =>
    checks.map((_check, index) => {
      const verdicts = lists.map((list) => list[index] as CheckResult);
      // The worst verdict wins: one key's failure is the server's failure.
      const verdict = verdicts.reduce((worse, next) =>
        rank[next.status] > rank[worse.status] ? next : worse,
      );
      if (verdict.failure === undefined) return verdict;
      // Counted over every key: the same fault on many answers is one finding with its count.
      const occurrences = verdicts
        .filter((other) => other.status === verdict.status)
        .reduce((sum, other) => sum + (other.failure?.occurrences ?? 1), 0);
      return occurrences > 1
        ? { ...verdict, failure: { ...verdict.failure, occurrences } }
        : verdict;
    });
  return {
    see(exchange, keyId) {
      judged += 1;
      if (keyId === undefined) {
        anonymous.see(exchange);
        // A request without a valid key draws from no key's window (rateLimit.othersNotCounted):
        // the key answered last sees it between its own answers, as a suite signed in with that
        // key sends it.
        newest?.see(exchange);
        return;
      }
      let observation = perKey.get(keyId);
      if (observation === undefined) {
        if (perKey.size >= trackedKeys) {
          const oldest = perKey.keys().next().value as string;
          const verdicts = (perKey.get(oldest) as Observation).verdicts();
          retired = worst(retired === undefined ? [verdicts] : [retired, verdicts]);
          perKey.delete(oldest);
        }
        observation = observe(checks, facts);
      } else perKey.delete(keyId);
      // Most recently used last: the map's first key is the one to forget.
      perKey.set(keyId, observation);
      newest = observation;
      observation.see(exchange);
    },
    verdicts() {
      const all = [anonymous, ...perKey.values()].map((observation) => observation.verdicts());
      return worst(retired === undefined ? all : [...all, retired]);
    },
    get judged() {
      return judged;
    },
  };
}
