/**
 * The client report's verdict per rule: each rule is a function of the numbers kept for one
 * client, with the reason in words (the README's QA section is the definition).
 */
import { duration } from './backoff-judgement.ts';

/**
 * A rule's verdict: `pass` with evidence only; `inconclusive` when evidence is too thin or
 * ambiguous (the rule's `reason` says why and what would decide); `not-applicable` when the
 * client never met the situation the rule is about.
 */
export type RuleVerdict = 'pass' | 'fail' | 'inconclusive' | 'not-applicable';

/** The numbers the rules read, which a client's record (client-record.ts) counts as its requests are answered. */
export class RuleNumbers {
  withRetryAfter = 0;
  judgedRequests = 0;
  early = 0;
  maxEarlyMs = 0;
  /** Requests early only against a Retry-After given on another socket, which then came back on time. */
  ambiguousEarly = 0;
  retries = 0;
  ownWaits = 0;
  /** Judged chains: a record's closed ones (a report adds the open ones to a copy). */
  readonly chains = { pass: 0, fail: 0, inconclusive: 0 };
  firstFailure: string | undefined;
  firstDoubt: string | undefined;
  tooFew: string | undefined;
  refusals = 0;
  /** Its own refused requests that came before a Retry-After it was given elapsed. */
  violations = 0;
  bans = 0;
  /** Non-idempotent requests whose try failed with an unknown outcome (5xx, dropped, timed out). */
  unknownOutcomes = 0;
  /** Of their retries, the ones resent, by what the earlier try met. */
  readonly resent: Record<string, number> = {};
  /** The resent requests named (method and path), at most 5. */
  readonly resentRequests: string[] = [];
}

/**
 * Each rule's name where its verdict is quoted (the report's problems and doubts, and
 * expectClientCompliance's errors), in the report's order.
 */
export const ruleLabels = {
  retryAfter: 'Retry-After',
  backoff: 'backoff',
  ban: 'ban',
  resentCreates: 'resent create',
} as const;

/** What decides two copies under one id, for a reason that cannot settle it. */
const whatDecides =
  'give each copy its own X-Client-Id, or declare one copy per id (X-Client-Copies: 1, or the clientReport.copiesPerId setting) to judge them as early retries';

/** A rule's verdicts: each with its reason and the numbers it was judged on. */
function ruling<Numbers>(numbers: Numbers) {
  return <Verdict extends RuleVerdict>(verdict: Verdict, reason: string) => ({
    verdict,
    reason,
    ...numbers,
  });
}

/** The Retry-After rule. */
export function retryAfterRule(c: Readonly<RuleNumbers>) {
  const ruled = ruling({
    answersWithRetryAfter: c.withRetryAfter,
    judgedRequests: c.judgedRequests,
    earlyRequests: c.early,
    maxEarlyMs: c.maxEarlyMs,
    ambiguousEarly: c.ambiguousEarly,
  });
  if (c.withRetryAfter === 0) return ruled('not-applicable', 'no answer carried Retry-After');
  if (c.early > 0)
    return ruled(
      'fail',
      `${c.early} request(s) came before Retry-After elapsed (the earliest ${duration(c.maxEarlyMs)} early)${c.ambiguousEarly > 0 ? `; ${c.ambiguousEarly} more came on another socket while a Retry-After given on one ran (this client on a second socket, or another copy)` : ''}`,
    );
  if (c.ambiguousEarly > 0)
    return ruled(
      'inconclusive',
      `${c.ambiguousEarly} request(s) came on one socket while a Retry-After given to this id on another still ran: a second copy of the app, or this one on a second socket (a Node process spreads its requests over several); ${whatDecides}`,
    );
  if (c.judgedRequests === 0)
    return ruled(
      'inconclusive',
      'the client never sent a request after a Retry-After (it gave up): nothing to judge; a retry after it would decide',
    );
  return ruled('pass', `${c.judgedRequests} request(s) after a Retry-After, none early`);
}

/** The backoff rule. */
export function backoffRule<Wait>(c: Readonly<RuleNumbers>, waits: readonly Wait[]) {
  const { chains } = c;
  const ruled = ruling({ retries: c.retries, ownWaits: c.ownWaits, chains: { ...chains }, waits });
  if (chains.fail > 0) return ruled('fail', c.firstFailure ?? '');
  if (chains.pass > 0)
    return ruled('pass', `${chains.pass} chain(s) of retries backed off exponentially`);
  if (chains.inconclusive > 0) return ruled('inconclusive', c.firstDoubt ?? '');
  if (c.ownWaits > 0) return ruled('inconclusive', c.tooFew ?? '');
  return ruled(
    'not-applicable',
    c.retries === 0
      ? 'the client never retried'
      : 'every wait was what Retry-After asked for: the client chose none (force 503 without Retry-After, or Retry-After: 0, to see its own backoff)',
  );
}

/** The ban rule: a ban counts only against a client whose own requests came early. */
export function banRule(c: Readonly<RuleNumbers>) {
  const ruled = ruling({ refusals: c.refusals, violations: c.violations, bans: c.bans });
  if (c.bans > 0)
    return ruled(
      'fail',
      `earned ${c.bans} temporary ban(s) by retrying too early (${c.violations} of its request(s) refused before a Retry-After it was given elapsed)`,
    );
  if (c.refusals === 0)
    return ruled(
      'not-applicable',
      'no rate-limit refusal (forced and chaos answers never lead to a ban)',
    );
  return ruled(
    'pass',
    `${c.refusals} rate-limit refusal(s), none of its requests early: no ban is its doing`,
  );
}

/** The resent-create observation: a non-idempotent request sent again after an unknown outcome. */
export function resentCreatesRule(c: Readonly<RuleNumbers>) {
  const resent = Object.values(c.resent).reduce((a, b) => a + b, 0);
  const ruled = ruling({
    unknownOutcomes: c.unknownOutcomes,
    resent,
    possibleDuplicates: resent,
    after: { ...c.resent },
    requests: [...c.resentRequests],
  });
  if (resent > 0) {
    const causes = Object.entries(c.resent)
      .map(([cause, n]) =>
        cause === 'redispatch'
          ? `${n} dispatched again by the browser`
          : `${n} after ${cause === 'timeout' ? 'a timeout' : cause === 'dropped' ? 'a dropped connection' : `a ${cause}`}`,
      )
      .join(', ');
    return ruled(
      'fail',
      `resent ${c.resentRequests.join(', ')} ${resent} time(s) (${causes}) whose outcome it could not know: up to ${resent} duplicate(s) on a server that acted before failing`,
    );
  }
  if (c.unknownOutcomes === 0)
    return ruled('not-applicable', 'no create (POST) met a 5xx, a dropped connection or a timeout');
  return ruled(
    'pass',
    `${c.unknownOutcomes} create(s) met an unknown outcome; none was sent again`,
  );
}

/** The client's verdict: `fail` if a rule failed, else `inconclusive`, else `pass`, else `not-applicable`. */
export function overall(verdicts: readonly RuleVerdict[]): RuleVerdict {
  for (const v of ['fail', 'inconclusive', 'pass'] as const) if (verdicts.includes(v)) return v;
  return 'not-applicable';
}
