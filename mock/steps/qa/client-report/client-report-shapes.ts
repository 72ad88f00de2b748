/**
 * The client compliance report's shapes: the event each answered request becomes (ClientEvent),
 * the report as `GET /__control/clients` and `fake.control.clients()` give it, and the tolerances
 * its rules are judged with.
 */
import { backoffRules } from './backoff-judgement.ts';
import type {
  backoffRule,
  banRule,
  RuleVerdict,
  resentCreatesRule,
  retryAfterRule,
} from './client-rules.ts';

/** How the rules are judged; documented in the README's QA section. */
export const complianceTolerance = {
  /** A request this much or less before Retry-After elapsed is not early (timer granularity). */
  earlyToleranceMs: 10,
  /** A wait from Retry-After up to this share longer (plus `dictatedSlackMs`) is what the server asked for. */
  dictatedShare: 0.25,
  /** ...plus this many ms (scheduling): not the client's own backoff, so not judged for growth. */
  dictatedSlackMs: 100,
  ...backoffRules,
} as const;

/** One answered request, as the report sees it. */
export interface ClientEvent {
  readonly keyId: string;
  readonly clientId: string;
  /** The connection it came on (`in-process` where the door has none). */
  readonly connection: string;
  /**
   * Its arrival and its answer in one sequence of both (an arrival is even, an answer odd): a
   * request arrived before another's answer when its arrivalSeq is the smaller.
   */
  readonly arrivalSeq: number;
  readonly answeredSeq: number;
  /** Whether it declared its client one copy of the app on every connection. */
  readonly oneCopy: boolean;
  readonly method: string;
  /** The request's path and query; redacted only when a report shows them. */
  readonly path: string;
  readonly query: string;
  /**
   * FNV-1a of a non-idempotent request's body (a resent create is the same body again), or
   * `too-large` past the body cap; `undefined` for an idempotent request.
   */
  readonly bodyHash: number | 'too-large' | undefined;
  /** Fake's clock (epoch ms) when the request arrived and when its answer left. */
  readonly arrivedAt: number;
  readonly answeredAt: number;
  /** Real time (`Date.now()`) at the same two moments. */
  readonly arrivedReal: number;
  readonly answeredReal: number;
  readonly status: number;
  readonly errorCode: string | undefined;
  /** The answer's Retry-After header, if any. */
  readonly retryAfter: string | undefined;
  /** Ms from the answer to its `X-RateLimit-Reset` (a wait some clients take when no Retry-After came). */
  readonly resetInMs: number | undefined;
  readonly chaos: boolean;
  /** A whole answer QA stubbed (`force` with an answer): the app met QA's answer, not the fake's. */
  readonly stubbed: boolean;
  readonly dropped: boolean;
  /** A rate-limit refusal, the only answer that counts towards a ban (not forced, not chaos). */
  readonly refused: boolean;
  /** The key's count towards a ban after this answer: 0 when an admitted request (or a ban's end) reset it. */
  readonly keyViolations: number;
  /** This answer started a ban of the key. */
  readonly banStarted: boolean;
  /**
   * The door says the request may be a copy of one it sent already (the browser door: a create
   * its tab saw twice, which Chromium dispatches again after its service worker restarted).
   */
  readonly possibleCopy?: boolean;
}

/** One wait between a failure and the client's retry of it. */
export interface RetryWait {
  /** Status of the failure waited after (0: dropped connection). */
  readonly afterStatus: number;
  /** The wait judged: the longer of the two clocks' readings. */
  readonly waitMs: number;
  /** The wait on real time and on the fake's clock (they differ when the clock is frozen or moved). */
  readonly realWaitMs: number;
  readonly fakeWaitMs: number;
  /** Which clock `waitMs` is from: `fake` when the fake's clock ran more than 10 ms ahead of real time (moved by a test). */
  readonly clock: 'real' | 'fake';
  /** What Retry-After asked for, in ms from the answer, or `null` when it sent none. */
  readonly retryAfterMs: number | null;
  /** Whether the wait is the client's own choice (judged for growth) rather than what Retry-After asked. */
  readonly own: boolean;
  /** Whether it came before Retry-After elapsed. */
  readonly early: boolean;
}

/** One recent request, for the live page and the per-client timeline. */
export interface RecentRequest {
  /** When it arrived, on the fake's clock and on real time. */
  readonly at: string;
  readonly realAt: string;
  readonly keyId: string;
  readonly clientId: string;
  /** The connection it came on (an opaque id; `in-process` for fake.fetch and msw in Node). */
  readonly connection: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly errorCode: string | null;
  readonly retryAfter: string | null;
  readonly chaos: boolean;
  readonly stubbed: boolean;
  readonly dropped: boolean;
  readonly latencyMs: number;
}

/** The report on one client of one key. */
export interface ClientSummary {
  readonly keyId: string;
  readonly clientId: string;
  readonly requests: number;
  /** Connections its requests came on, and whether it declared one copy per id. */
  readonly connections: number;
  readonly oneCopy: boolean;
  /** Failures answered, by status (`dropped` for dropped connections), and how many were chaos. */
  readonly failures: Readonly<Record<string, number>>;
  readonly chaosAnswers: number;
  /** Answers QA stubbed whole (`force` with an answer), which the app met instead of the fake's. */
  readonly stubbedAnswers: number;
  /** `fail` if a rule failed, else `inconclusive` if one was, else `pass` if one passed, else `not-applicable`. */
  readonly verdict: RuleVerdict;
  readonly rules: {
    readonly retryAfter: ReturnType<typeof retryAfterRule>;
    readonly backoff: ReturnType<typeof backoffRule<RetryWait>>;
    readonly ban: ReturnType<typeof banRule>;
    readonly resentCreates: ReturnType<typeof resentCreatesRule>;
  };
  /** One readable line per rule that failed; empty when none did. */
  readonly problems: readonly string[];
  /** One readable line per rule that is inconclusive. */
  readonly doubts: readonly string[];
  /** First and last request, on the fake's clock and on real time. */
  readonly firstSeen: { readonly fake: string; readonly real: string };
  readonly lastSeen: { readonly fake: string; readonly real: string };
  /** The client's latest requests (at most 10), newest first. */
  readonly recent: readonly RecentRequest[];
}

/** The whole report: `GET /__control/clients`, `fake.control.clients()`. */
export interface ClientReport {
  /** The fake's clock, and real time, when the report was made. */
  readonly now: string;
  readonly realNow: string;
  /** The fake's clock against real time; `offsetMs` is the fake's clock minus real time. */
  readonly clock: { readonly mode: 'real' | 'shifted' | 'frozen'; readonly offsetMs: number };
  /** The tolerances the rules were judged with (see the README's QA section). */
  readonly tolerance: typeof complianceTolerance;
  readonly clients: readonly ClientSummary[];
  /** The latest 25 requests of every client, newest first. */
  readonly recent: readonly RecentRequest[];
}
