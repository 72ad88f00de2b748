/**
 * The fake's behaviour core: one function from a request to an answer, which every door calls.
 * The HTTP door and `fake.fetch` call it directly; the msw handlers (browser and Node doors) are
 * a thin adapter over it. It routes the request (control surface, CORS preflight, an operation
 * under `/v1`, or nothing), runs the operation behind the pipeline's steps, and makes sure every
 * answer, error or not, leaves with the X-RateLimit-* headers and one request-log record.
 */
import type { OperationId } from './contract/types.ts';
import type { FakeControl } from './control/control.ts';
import { answerControl } from './control/control-handlers.ts';
import { forcedStep } from './control/forced-step.ts';
import { type Answer, errorAnswer, withErrorCodes } from './core/answer.ts';
import type { FakeRequest } from './core/fake-request.ts';
import type { FakeState } from './core/fake-state.ts';
import { type Exchange, runPipeline, type Step } from './pipeline.ts';
import { authenticateStep } from './policies/auth.ts';
import { banStep } from './policies/ban-step.ts';
import { corsHeaders, preflightHeaders } from './policies/cors.ts';
import { hostProblem, hostStep } from './policies/host-check.ts';
import { redactUrl } from './policies/log-redaction.ts';
import {
  anonymousRateLimit,
  type RateLimitHeaders,
  rateLimitHeaderRecord,
} from './policies/rate-limit.ts';
import { rateLimitStep } from './policies/rate-limit-step.ts';
import { chaosStep } from './qa/chaos-step.ts';
import { clientIdOf, clientReportStep } from './qa/client-report-step.ts';
import { findRoute } from './routes/route-table.ts';

/**
 * The steps every `/v1` request runs through, in order. A new policy is a new entry here: a
 * function that answers its own refusal or calls `next()`.
 */
const steps: readonly Step[] = [
  hostStep,
  authenticateStep,
  clientReportStep,
  forcedStep,
  chaosStep,
  banStep,
  rateLimitStep,
];

/** Longest request target (path and query) answered; longer ones get 414 `uri_too_long`. */
export const maxUrlLength = 8192;

/** The behaviour of one fake, for the doors. */
export interface Behaviour {
  /** Answers one request; never throws (a bug in the fake answers 500 `internal_error`). */
  answer(request: FakeRequest): Promise<Answer>;
  /** Whether an absolute URL is the fake's: one of its origins, under `/v1` or the control prefix. */
  owns(url: string): boolean;
  /** The X-RateLimit-* headers for answers a door writes itself (parser refusals). */
  anonymousRateLimitHeaders(): Record<string, string>;
}

/** Where the path starts in an absolute URL string (after `scheme://authority`). */
function pathStart(url: string): number {
  const authority = url.indexOf('//');
  const slash = url.indexOf('/', authority === -1 ? 0 : authority + 2);
  return slash === -1 ? url.length : slash;
}

/** Whether `path` (with any query) is `prefix` itself or below it. */
function isUnder(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charCodeAt(prefix.length);
  // End of the path, '/', '?' or '#'.
  return Number.isNaN(next) || next === 47 || next === 63 || next === 35;
}

/** Creates the behaviour core over one fake's state and control surface. */
export function createBehaviour(state: FakeState, control: FakeControl): Behaviour {
  const { config } = state;
  const anonymous = () => rateLimitHeaderRecord(anonymousRateLimit(state.plans, state.clock.now()));

  function log(
    request: FakeRequest,
    url: URL | undefined,
    answer: Answer,
    started: number,
    extra: {
      keyId: string;
      operationId?: OperationId;
      control?: true;
      controlAction?: string;
    },
  ): void {
    if (config.onExchange === undefined) return;
    const shownUrl =
      url === undefined
        ? request.url.slice(pathStart(request.url), pathStart(request.url) + 200)
        : extra.control
          ? // Control URLs carry no secrets (the token travels in a header); bounded for the log.
            url.pathname.slice(0, 200)
          : redactUrl(
              url,
              state.keys.map((key) => key.key),
            );
    config.onExchange({
      method: request.method,
      url: shownUrl,
      status: answer.status,
      keyId: extra.keyId,
      ...(extra.control ? {} : { clientId: clientIdOf(request, state) }),
      operationId: extra.operationId,
      durationMs: performance.now() - started,
      ...(extra.control ? { control: true } : {}),
      ...(answer.errorCode === undefined ? {} : { errorCode: answer.errorCode }),
      ...(extra.controlAction === undefined ? {} : { controlAction: extra.controlAction }),
    });
  }

  /** Adds the X-RateLimit-* and any extra headers to an answer. */
  function finish(
    answer: Answer,
    rateLimit: RateLimitHeaders,
    extra: Record<string, string> | undefined,
  ): Answer {
    const headers = answer.headers;
    headers['X-RateLimit-Limit'] = String(rateLimit.limit);
    headers['X-RateLimit-Remaining'] = String(rateLimit.remaining);
    headers['X-RateLimit-Reset'] = String(rateLimit.reset);
    if (extra !== undefined) Object.assign(headers, extra);
    return answer;
  }

  async function answerApi(request: FakeRequest, url: URL, started: number): Promise<Answer> {
    const now = state.clock.now();
    const origin = request.header('origin');
    if (request.method === 'OPTIONS') {
      // Preflights carry no credentials, so they are answered before authentication.
      const refused = hostProblem(request.header('host'), config.allowedHosts);
      const answer =
        refused === undefined
          ? { status: 204, headers: preflightHeaders(origin), body: undefined }
          : errorAnswer('host_not_allowed', refused);
      finish(answer, anonymousRateLimit(state.plans, now), undefined);
      log(request, url, answer, started, { keyId: '-' });
      return answer;
    }
    const { route, params } = findRoute(request.method, url.pathname.slice(config.basePath.length));
    const exchange: Exchange = {
      request,
      url,
      params,
      route,
      state,
      now,
      caller: undefined,
      keyId: '-',
      rateLimit: undefined,
      refusedUntil: undefined,
    };
    let answer: Answer;
    try {
      answer = await runPipeline(steps, exchange);
    } catch (error) {
      // A bug in the fake must surface as a logged 500, never as a hang or a crash of the server.
      console.error('petstore-fake: handler failed', error);
      answer = errorAnswer('internal_error');
      exchange.rateLimit = undefined;
    }
    answer = withErrorCodes(answer, config.errorCodes);
    const extra = route.headers?.(url, state);
    const cors = origin === null ? undefined : corsHeaders(origin);
    finish(
      answer,
      exchange.rateLimit ?? anonymousRateLimit(state.plans, now),
      cors === undefined ? extra : { ...extra, ...cors },
    );
    log(request, url, answer, started, {
      keyId: exchange.keyId,
      ...(route.operationId === undefined ? {} : { operationId: route.operationId }),
    });
    return answer;
  }

  async function answer(request: FakeRequest): Promise<Answer> {
    const started = performance.now();
    const start = pathStart(request.url);
    if (request.url.length - start > maxUrlLength) {
      const answer = errorAnswer(
        'uri_too_long',
        `The request target must be at most ${maxUrlLength} characters; got ${request.url.length - start}.`,
        anonymous(),
      );
      log(request, undefined, answer, started, { keyId: '-' });
      return answer;
    }
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      const answer = errorAnswer(
        'bad_request',
        'The request URL could not be parsed.',
        anonymous(),
      );
      log(request, undefined, answer, started, { keyId: '-' });
      return answer;
    }
    const path = url.pathname;
    if (isUnder(path, config.basePath)) return answerApi(request, url, started);
    if (path.startsWith(`${config.controlPrefix}/`)) {
      let outcome: Awaited<ReturnType<typeof answerControl>>;
      try {
        outcome = await answerControl(
          control,
          config,
          request,
          path.slice(config.controlPrefix.length),
        );
      } catch (error) {
        console.error('petstore-fake: control request failed', error);
        outcome = { answer: errorAnswer('internal_error') };
      }
      log(request, url, outcome.answer, started, {
        keyId: '-',
        control: true,
        ...(outcome.action === undefined ? {} : { controlAction: outcome.action }),
      });
      return outcome.answer;
    }
    const answer = errorAnswer(
      'route_not_found',
      `No endpoint at ${path.slice(0, 200)}; the API lives under ${config.basePath}.`,
      anonymous(),
    );
    log(request, url, answer, started, { keyId: '-' });
    return answer;
  }

  function owns(url: string): boolean {
    for (const origin of config.origins) {
      if (!url.startsWith(origin)) continue;
      const path = url.slice(origin.length);
      if (isUnder(path, config.basePath) || path.startsWith(`${config.controlPrefix}/`))
        return true;
    }
    return false;
  }

  return { answer, owns, anonymousRateLimitHeaders: anonymous };
}
