/**
 * The injected-failure step of the pipeline: answers QA asked for instead of the operation's,
 * either stubbed whole through the control surface (stubbed-answers.ts: any status, body and
 * headers, a delay or a dropped connection, for one key, client or query), forced ("the next 3
 * listPets are 503", forced-responses.ts) or drawn by seeded chaos (chaos.ts), which may also
 * hold any answer back. Each is marked (the answer's `injected` field, and `drop` for a dropped
 * connection), refusals are written by the one refusal helper, and none counts against the
 * key's quota. Latency counts on the fake's clock (`hold`).
 */

import type { ControllableClock } from '../../../base/clock/clock.ts';
import { ConfigError } from '../../../base/config-error.ts';
import { isCount, isJsonObject, stringifyJson } from '../../../base/contract/lossless-json.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import { type Answer, errorAnswer } from '../../../base/messages/answer.ts';
import { errorTemplates } from '../../../base/messages/errors.ts';
import { type KeyUsage, peekRateLimit } from '../../../base/quota/rate-limit.ts';
import type { PolicyCommandLine } from '../../../pipeline/config/policy-command-line.ts';
import { ControlInputError } from '../../../pipeline/control-input-error.ts';
import { type Context, createSlot, type Policy } from '../../../pipeline/pipeline.ts';
import { SessionStateError } from '../../../pipeline/session.ts';
import { callerSlot, callerUsage, invalidTokenChallenge } from '../../policies/auth.ts';
import type { ClientIds } from '../../policies/client-ids.ts';
import { rateLimitSlot } from '../../policies/rate-limit-headers-step.ts';
import type { Refuse } from '../../policies/refusal.ts';
import { routeSlot } from '../../routes/route.ts';
import {
  createForcedResponses,
  type ForceableStatus,
  type ForcedRule,
  forceableStatuses,
} from '../forced-answers/forced-responses.ts';
import { rulesBroken } from '../forced-answers/stub-breaks.ts';
import {
  checkStub,
  createStubbedAnswers,
  type StubAnswer,
  type StubInput,
  type StubRule,
} from '../forced-answers/stubbed-answers.ts';
import { type ChaosDecision, createChaos } from './chaos.ts';
import { type ChaosSettings, checkChaosSettings } from './chaos-settings.ts';
import {
  type Force,
  type InjectedFailureControl,
  injectedFailureRoutes,
} from './injected-failure-control.ts';

/**
 * The answer a stub gave this request, for the step that adds and removes its headers once every
 * other step has written its own (stub-headers-step.ts).
 */
export const stubSlot = createSlot<StubAnswer>('the stubbed answer');

/** The most draws a saved chaos stream may have made (two a request): replaying them is quick. */
const maxDraws = 100_000_000;

// Captured at load: `vi.useFakeTimers()` and the like replace the global later, and a timer they
// own would never fire unless the test advanced it.
const realSetTimeout = globalThis.setTimeout;

/**
 * Holds an answer back `ms` on the fake's clock: a real wait while it ticks; while it is frozen no
 * timer runs at all, the clock is moved forward and the answer leaves at once.
 */
async function hold(clock: ControllableClock, ms: number): Promise<void> {
  if (ms <= 0) return;
  if (clock.frozen) {
    // At the end of the clock's range the answer simply leaves without moving it.
    if (clock.now() + ms <= Date.UTC(9999, 11, 31, 23, 59, 59, 999)) clock.advance(ms);
    return;
  }
  await new Promise((resolve) => realSetTimeout(resolve, ms));
}

/** The injected failures' own options, which join createFake's through the registration. */
export interface InjectedFailureOptions {
  /** Seeded chaos to start with (and to reset to): see the README's QA section. Default: none. */
  readonly chaos?: ChaosSettings;
}

/** What the step is built from: the fake's clock, the refusal writer and who sent a request. */
interface InjectedFailureParts {
  readonly clock: ControllableClock;
  readonly refuse: Refuse;
  readonly clientIds: ClientIds;
  /**
   * Runs a choice that spends a stub, a forced answer or a chaos draw so that every process
   * sharing the fake's state sees it spent, once (a shared fake's); absent, the choice runs here.
   */
  readonly spend: (<T>(choose: () => T) => Promise<T>) | undefined;
}

/** What the step chose for a request: a stub, a forced answer, chaos's draw, or nothing. */
type Choice =
  | { readonly kind: 'stub'; readonly stub: StubRule }
  | { readonly kind: 'forced'; readonly rule: ForcedRule }
  | { readonly kind: 'chaos'; readonly decision: ChaosDecision }
  | undefined;

function controlFail(problem: string): never {
  throw new ControlInputError(problem);
}

/**
 * A stub's answer: its status and body as given, no quota spent (the caller's window as it
 * stands), marked `stubbed` with the rules it breaks; its headers are applied on the way out.
 */
async function stubbedAnswer(
  clock: ControllableClock,
  context: Context,
  rule: StubRule,
): Promise<Answer> {
  const { limits } = context.need(callerSlot);
  context.set(rateLimitSlot, peekRateLimit(await callerUsage(context), limits, context.now));
  context.set(stubSlot, rule.answer);
  const { answer: stub, breaks } = rule;
  const body = stub.rawBody ?? (stub.body === undefined ? undefined : stringifyJson(stub.body));
  const answer: Answer = {
    // A dropped connection's status is never sent; the log shows it as chaos's drop does.
    status: stub.status ?? 503,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body,
    injected: 'stubbed',
    breaks,
    ...(stub.drop === true ? { drop: true } : {}),
  };
  await hold(clock, stub.delayMs ?? 0);
  return answer;
}

/**
 * A forced or chaos error, written by the one refusal helper: a 429 shows no quota left, a 429
 * or 503 says when to retry in the fake's Retry-After format (`0` included; none when
 * `retryAfterSeconds` is null), a 401 carries a challenge.
 */
function refusedAnswer(
  refuse: Refuse,
  context: Context,
  usage: KeyUsage,
  status: ForceableStatus,
  retryAfterSeconds: number | null,
  message: (template: string) => string,
): Answer {
  const { limits } = context.need(callerSlot);
  const { now } = context;
  const peek = peekRateLimit(usage, limits, now);
  const code = forceableStatuses[status];
  const retries = (status === 429 || status === 503) && retryAfterSeconds !== null;
  return refuse(context, code, {
    rateLimit: status === 429 ? { ...peek, remaining: 0 } : peek,
    message: message(errorTemplates[code].message),
    ...(retries ? { retryAtMs: now + retryAfterSeconds * 1000, minWaitSeconds: 0 } : {}),
    ...(status === 401 ? { headers: { 'WWW-Authenticate': invalidTokenChallenge } } : {}),
  });
}

/** The answer chaos drew for a request: an error, or a dropped connection. */
function chaosAnswer(
  refuse: Refuse,
  context: Context,
  usage: KeyUsage,
  decision: ChaosDecision,
): Answer {
  const { outcome, seed } = decision;
  if (outcome === 'drop') {
    const { limits } = context.need(callerSlot);
    context.set(rateLimitSlot, peekRateLimit(usage, limits, context.now));
    // No error code, so nothing downstream renames it: the doors never send it anyway.
    const { errorCode: _unsent, ...dropped } = errorAnswer(
      'service_unavailable',
      `Connection dropped (chaos, seed ${seed}).`,
    );
    return { ...dropped, injected: 'chaos', drop: true };
  }
  const status = Number(outcome) as ForceableStatus;
  const answer = refusedAnswer(
    refuse,
    context,
    usage,
    status,
    decision.retryAfterSeconds,
    (template) => `${template.replace(' (forced).', '.')} (chaos, seed ${seed})`,
  );
  return { ...answer, injected: 'chaos' };
}

/** Saved stubs, checked as the control surface checks them (a session from another tab or file). */
function savedStubsOf(saved: unknown): StubRule[] {
  const fail = (problem: string): never => {
    throw new SessionStateError(`stub: ${problem}`);
  };
  if (!Array.isArray(saved) || saved.length > 100) fail('stubs must be a list of at most 100');
  return (saved as unknown[]).map((each) => {
    if (!isJsonObject(each)) return fail('is not an object');
    const { id, remaining, breaks: _judgedAgain, ...input } = each;
    if (typeof id !== 'string' || !/^stub-\d{1,9}$/.test(id))
      fail(`id must be stub-<n>, got ${String(id)}`);
    if (remaining !== null && (!isCount(remaining) || remaining < 1 || remaining > 1_000_000))
      fail('remaining must be an integer from 1 to 1000000, or null');
    const stub = checkStub(input, fail);
    return {
      ...stub,
      id: id as string,
      remaining: remaining as number | null,
      breaks: rulesBroken(stub.operationId, stub.answer),
    };
  });
}

/**
 * The pipeline step, after authentication and before the ban: a stub matching the request wins,
 * then a forced answer queued for the operation; else chaos draws the request's fate from its
 * stream, and its latency holds back whatever answer the request gets.
 */
export function injectedFailureStep(
  { clock, refuse, clientIds, spend }: InjectedFailureParts,
  options: InjectedFailureOptions,
): Policy<InjectedFailureControl> {
  const initialChaos =
    options.chaos === undefined
      ? null
      : checkChaosSettings(options.chaos, (problem) => {
          throw new ConfigError('chaos', problem.replace(/^chaos\.?\s*/, ''));
        });
  const forced = createForcedResponses();
  const stubs = createStubbedAnswers(controlFail);
  const chaos = createChaos(initialChaos);
  const reset = () => {
    forced.clear();
    stubs.clear();
    chaos.set(initialChaos);
  };
  const describe = () => ({ forced: forced.list(), stubs: stubs.list(), chaos: chaos.settings() });

  /** Answers a request chaos picked: its chaos answer or the real one, then the latency. */
  const spoil = async (context: Context, next: () => Promise<Answer>, decision: ChaosDecision) => {
    // next() runs synchronously up to the rate limit's decision: the latency comes after it.
    const answer =
      decision.outcome === 'pass'
        ? await next()
        : chaosAnswer(refuse, context, await callerUsage(context), decision);
    await hold(clock, decision.latencyMs);
    return answer;
  };

  const force = ((
    first: OperationId | StubInput,
    status?: number,
    count?: number,
    retryAfterSeconds?: number | null,
  ) => {
    if (typeof first !== 'object' || first === null)
      return forced.force(first, status as number, count as number, retryAfterSeconds);
    const stub = checkStub(first, controlFail);
    return stubs.add(stub, rulesBroken(stub.operationId, stub.answer));
  }) as Force;

  return {
    step(context, next) {
      const { operationId } = context.need(routeSlot).route;
      if (operationId === undefined) return next();
      // Without a rule or chaos the step adds no promise of its own to the request.
      if (stubs.size() === 0 && forced.size() === 0 && chaos.settings() === null) return next();
      const choose = (): Choice => {
        if (stubs.size() > 0) {
          const stub = stubs.take(operationId, {
            keyId: context.need(callerSlot).key.id,
            clientId: () => clientIds(context),
            query: context.url.searchParams,
          });
          if (stub !== undefined) return { kind: 'stub', stub };
        }
        const rule = forced.take(operationId);
        if (rule !== undefined) return { kind: 'forced', rule };
        if (chaos.settings() === null) return undefined;
        const decision = chaos.decide(operationId, context.need(callerSlot).key.id);
        return decision === undefined ? undefined : { kind: 'chaos', decision };
      };
      const act = (choice: Choice): Answer | Promise<Answer> => {
        if (choice === undefined) return next();
        if (choice.kind === 'stub') return stubbedAnswer(clock, context, choice.stub);
        if (choice.kind === 'chaos') return spoil(context, next, choice.decision);
        const { rule } = choice;
        const forcedAnswer = (usage: KeyUsage): Answer => ({
          ...refusedAnswer(
            refuse,
            context,
            usage,
            rule.status,
            rule.retryAfterSeconds,
            (template) => `${template} (forced by the control surface)`,
          ),
          injected: 'forced',
        });
        const usage = callerUsage(context);
        return usage instanceof Promise ? usage.then(forcedAnswer) : forcedAnswer(usage);
      };
      return spend === undefined ? act(choose()) : spend(choose).then(act);
    },
    reset,
    control: {
      force,
      forced: () => forced.list(),
      stubs: () => stubs.list(),
      clearForced: () => {
        forced.clear();
        stubs.clear();
      },
      chaos: () => chaos.settings(),
      setChaos(settings) {
        const checked = checkChaosSettings(settings, controlFail);
        chaos.set(checked);
        return checked;
      },
      clearChaos: () => chaos.set(null),
    },
    routes: injectedFailureRoutes,
    describe,
    state: {
      name: 'injectedFailures',
      save: () => ({ ...describe(), draws: chaos.draws() }),
      load(saved) {
        if (saved === undefined) return reset;
        // Read whole, with the control surface's own checks, before any of it applies.
        if (!isJsonObject(saved) || !isJsonObject(saved.forced) || !isJsonObject(saved.draws))
          throw new SessionStateError('is not {"forced": {...}, "chaos": ..., "draws": {...}}');
        const { forced: savedForced, chaos: savedChaos, draws, stubs: savedStubs = [] } = saved;
        const keptStubs = savedStubsOf(savedStubs);
        // A queue of their own until every rule passes.
        const rules = createForcedResponses();
        for (const [operationId, rule] of Object.entries(savedForced)) {
          const { status, remaining, retryAfterSeconds } = (isJsonObject(rule) ? rule : {}) as {
            status: number;
            remaining: number;
            retryAfterSeconds: number | null;
          };
          try {
            rules.force(operationId as OperationId, status, remaining, retryAfterSeconds);
          } catch (error) {
            if (error instanceof ControlInputError)
              throw new SessionStateError(`forced rule: ${error.message}`);
            throw error;
          }
        }
        const keptChaos =
          savedChaos === null
            ? null
            : checkChaosSettings(savedChaos, (problem) => {
                throw new SessionStateError(problem);
              });
        for (const count of Object.values(draws)) {
          if (!isCount(count) || count > maxDraws)
            throw new SessionStateError(`chaos draws must be whole numbers up to ${maxDraws}`);
        }
        const keptForced = rules.list();
        return () => {
          forced.replace(keptForced);
          stubs.replace(keptStubs);
          chaos.set(keptChaos, draws as Record<string, number>);
        };
      },
    },
  };
}

/** `npm start --chaos <json|file>`. */
injectedFailureStep.commandLine = {
  flags: [
    {
      name: 'chaos',
      value: '<json|file>',
      help: [
        'seeded chaos: shares of 429 and 5xx answers, dropped connections and',
        'latency, per operation and key (docs/qa.md: Chaos)',
      ],
      option: 'chaos',
      reads: 'json-or-file',
    },
  ],
} satisfies PolicyCommandLine;
