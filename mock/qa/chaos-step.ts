/**
 * The chaos step of the pipeline: applies what the fake's chaos (chaos.ts) decides for a request.
 *
 * Latency counts on the fake's clock: while the clock ticks in real time the answer is held back
 * with a timer captured when this module loaded (so test frameworks' fake timers cannot stall
 * it); while the clock is frozen, no timer runs at all: the frozen clock is moved forward by the
 * latency and the answer leaves at once.
 */
import { type Answer, errorAnswer } from '../core/answer.ts';
import type { ControllableClock } from '../core/clock.ts';
import { type ErrorCode, errorTemplates } from '../core/errors.ts';
import { callerOf, type Exchange, type Step } from '../pipeline.ts';
import { peekRateLimit } from '../policies/rate-limit.ts';
import { refuse } from '../policies/refusal.ts';
import { markChaos } from './answer-marks.ts';
import type { ChaosDecision } from './chaos.ts';
import type { ChaosStatus } from './chaos-settings.ts';

const codes: Record<ChaosStatus, ErrorCode> = {
  '429': 'rate_limited',
  '500': 'internal_error',
  '502': 'bad_gateway',
  '503': 'service_unavailable',
  '504': 'gateway_timeout',
};

// Captured at load: `vi.useFakeTimers()` and the like replace the global later, and a timer they
// own would never fire unless the test advanced it.
const realSetTimeout = globalThis.setTimeout;

/** Holds an answer back `ms` on the fake's clock: a real wait, or a frozen clock moved forward. */
async function hold(clock: ControllableClock, ms: number): Promise<void> {
  if (ms <= 0) return;
  if (clock.frozen) {
    // At the end of the clock's range the answer simply leaves without moving it.
    if (clock.now() + ms <= Date.UTC(9999, 11, 31, 23, 59, 59, 999)) clock.advance(ms);
    return;
  }
  await new Promise((resolve) => realSetTimeout(resolve, ms));
}

function chaosAnswer(exchange: Exchange, decision: ChaosDecision, seed: number): Answer {
  if (decision.outcome === 'pass') throw new Error('petstore-fake: no chaos answer for "pass"');
  const { now } = exchange;
  const { usage, limits } = callerOf(exchange);
  const peek = peekRateLimit(usage, limits, now);
  if (decision.outcome === 'drop') {
    exchange.rateLimit = peek;
    // No error code: nothing downstream (a profile's code renaming) may copy the answer and so
    // lose its mark; the doors never send it anyway.
    const { errorCode: _unsent, ...dropped } = errorAnswer(
      'service_unavailable',
      `Connection dropped (chaos, seed ${seed}).`,
    );
    return markChaos(dropped, true);
  }
  const code = codes[decision.outcome];
  const retries = decision.outcome === '429' || decision.outcome === '503';
  const message = errorTemplates[code].message.replace(' (forced).', '.');
  return markChaos(
    refuse(exchange, code, {
      rateLimit: decision.outcome === '429' ? { ...peek, remaining: 0 } : peek,
      message: `${message} (chaos, seed ${seed})`,
      ...(retries ? { retryAtMs: now + decision.retryAfterSeconds * 1000, minWaitSeconds: 0 } : {}),
    }),
  );
}

/**
 * The pipeline step, after forced responses and before the ban: draws the request's fate from
 * its stream. A chaos error answers instead of the operation and, like a forced one, does not
 * count against the key's quota; latency holds back whatever answer the request gets.
 */
export const chaosStep: Step = (exchange, next) => {
  const { operationId } = exchange.route;
  const { chaos } = exchange.state.qa;
  const settings = chaos.settings();
  // Without chaos the step adds no promise of its own to the request.
  if (operationId === undefined || settings === null) return next();
  const decision = chaos.decide(operationId, callerOf(exchange).key.id);
  if (decision === undefined) return next();
  return spoil(exchange, next, decision, settings.seed);
};

/** Answers a request chaos picked: its chaos answer or the real one, then the latency. */
async function spoil(
  exchange: Exchange,
  next: () => Promise<Answer>,
  decision: ChaosDecision,
  seed: number,
): Promise<Answer> {
  // next() runs synchronously up to the rate limit's decision: the latency comes after it.
  const answer = decision.outcome === 'pass' ? await next() : chaosAnswer(exchange, decision, seed);
  await hold(exchange.state.clock, decision.latencyMs);
  return answer;
}
