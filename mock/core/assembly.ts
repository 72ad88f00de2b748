/**
 * The fake's behaviour core: one function from a request to an answer, which every door calls.
 * The HTTP door and `fake.fetch` call it directly; the msw handlers (browser and Node doors) are
 * a thin adapter over it. It sends the request down one of three pipelines of the same step
 * type (the interface's under `/v1`, its CORS preflight, the control surface) or answers it
 * itself when it is none of them. Which steps the interface's pipeline runs, in which order,
 * is api-pipeline.ts's; how a replica's answers are checked and retried, shared-answer.ts's.
 */

import { type Answer, errorAnswer } from '../base/messages/answer.ts';
import type { ErrorCode } from '../base/messages/errors.ts';
import { type BodyBytes, type FakeRequest, pathStart } from '../base/messages/fake-request.ts';
import { retryAfterValue } from '../base/quota/retry-after.ts';
import { controlPageAnswer } from '../control-ui/control-page.ts';
import type { ResolvedConfig } from '../pipeline/config/config.ts';
import type { FakeState } from '../pipeline/fake-state.ts';
import { createContext, type Handler, runPipeline, type Step } from '../pipeline/pipeline.ts';
import type { SharedState } from '../pipeline/shared-state.ts';
import type { ServedControl } from '../steps/control/control.ts';
import { controlPipeline } from '../steps/control/control-handlers.ts';
import { identifyStep } from '../steps/policies/auth.ts';
import { answerPreflight } from '../steps/policies/cors.ts';
import { hostStep } from '../steps/policies/host-step.ts';
import {
  callerRateLimitHeaders,
  rateLimitHeadersStep,
  unreadRateLimitHeaders,
} from '../steps/policies/rate-limit-headers-step.ts';
import { answerRoute } from '../steps/routes/route-table.ts';
import type { ApiPipeline, PolicyControls } from './api-pipeline.ts';
import {
  answerOnSharedState,
  confirmedStep,
  sharedControlHandler,
  unavailableRetryMs,
} from './shared-answer.ts';

/** Longest request target (path and query) answered; longer ones get 414 `uri_too_long`. */
export const maxUrlLength = 8192;

/** The control surface a behaviour serves: its own functions and what each policy adds. */
type ControlSurface = ServedControl & PolicyControls;

/** The behaviour of one fake, for the doors. */
export interface Behaviour {
  /** Answers one request; never throws (a bug in the fake answers 500 `internal_error`). */
  answer(request: FakeRequest): Promise<Answer>;
  /** Whether an absolute URL is the fake's: one of its origins, under `/v1` or the control prefix. */
  owns(url: string): boolean;
  /**
   * The X-RateLimit-* headers for answers a door writes itself (parser refusals, an oversized
   * body): the caller's window, nothing spent, when `authorization` (the request's
   * Authorization header, if any) names a valid key; else the anonymous limits.
   */
  rateLimitHeaders(
    authorization: string | null,
  ): Record<string, string> | Promise<Record<string, string>>;
  /**
   * Records an answer a door gave itself, before the core saw the request (the HTTP door's 413
   * for a body over the cap, its 400 for a missing Host): the request log and the journal show
   * it as refused early. `started` is `performance.now()` when the request arrived.
   */
  refusedByDoor(request: FakeRequest, answer: Answer, started: number, body: BodyBytes): void;
  /**
   * A new id for a connection a door opened (`http-1`, `http-2`...), counted per fake: the
   * client report tells a client's copies apart by their connections, so two doors of one fake
   * never hand out the same id.
   */
  connectionId(kind: string): string;
}

/** Whether `path` (with any query) is `prefix` itself or below it. */
function isUnder(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charCodeAt(prefix.length);
  // End of the path, '/', '?' or '#'.
  return Number.isNaN(next) || next === 47 || next === 63 || next === 35;
}

/**
 * Whether an absolute URL is a fake's with this configuration: one of its origins, under `/v1` or
 * the control prefix. A door that answers for a fake elsewhere (another tab) asks it without one.
 */
export function ownsUrl(
  config: Pick<ResolvedConfig, 'origins' | 'basePath' | 'controlPrefix'>,
  url: string,
): boolean {
  for (const origin of config.origins) {
    if (!url.startsWith(origin)) continue;
    const path = url.slice(origin.length);
    if (isUnder(path, config.basePath) || path.startsWith(`${config.controlPrefix}/`)) return true;
  }
  return false;
}

/**
 * Creates the behaviour core over one fake's state, its interface pipeline and control surface;
 * with `shared`, the state it shares with other processes (replicas), whose version every answer
 * is checked to be made on.
 */
export function createBehaviour(
  state: FakeState,
  api: ApiPipeline,
  control: ControlSurface,
  shared?: SharedState,
): Behaviour {
  const { config, clock } = state;
  const { log, exchanges } = api;
  const rateLimitHeaders = (authorization: string | null) => {
    const headers = callerRateLimitHeaders(state, authorization, clock.now());
    // A replica that cannot read the usage says so in the values, as its 503 does.
    return headers instanceof Promise
      ? headers.catch(() => {
          const now = clock.now();
          return unreadRateLimitHeaders(state, authorization, now, now + unavailableRetryMs);
        })
      : headers;
  };
  // A replica's answers are checked right inside the exchange's step, before it records them.
  const confirmed = shared === undefined ? [] : [confirmedStep(shared)];
  const [exchangeStep, ...interfaceSteps] = api.steps;
  const apiSteps: readonly Step[] =
    exchangeStep === undefined ? [] : [exchangeStep, ...confirmed, ...interfaceSteps];
  // Preflights carry no credentials, so they are answered before authentication.
  const preflightSteps: readonly Step[] = [
    exchanges.step('preflight'),
    ...confirmed,
    rateLimitHeadersStep(state),
    identifyStep(state.keys),
    hostStep(config.allowedHosts),
  ];
  const controlSurface = controlPipeline(control, api.routes, config, controlPageAnswer);
  // A replica runs each control call on a current copy, and shares what it changed.
  const controlHandler: Handler =
    shared === undefined
      ? controlSurface.handler
      : sharedControlHandler(shared, api, controlSurface.handler, config);
  const controlSteps: readonly Step[] = [log.controlStep, ...controlSurface.steps];

  /** Answers a request the fake gives before any pipeline, and records its exchange. */
  const refuseEarly = (
    request: FakeRequest,
    url: URL | undefined,
    code: ErrorCode,
    message: string | undefined,
    started: number,
    headers?: Record<string, string>,
  ): Answer | Promise<Answer> => {
    const answerWith = (with_: Record<string, string>) => {
      const answer = errorAnswer(code, message, with_);
      exchanges.record(request, url, answer, started);
      return answer;
    };
    if (headers !== undefined) return answerWith(headers);
    const caller = rateLimitHeaders(request.header('authorization'));
    return caller instanceof Promise ? caller.then(answerWith) : answerWith(caller);
  };

  /**
   * Answers through the pipeline the URL asks for, or refuses before any. Not `async`: an async
   * function returning the pipeline's promise wraps it in a promise of its own, which takes two
   * more microtask turns and a promise a request to adopt it.
   */
  function answer(request: FakeRequest): Promise<Answer> {
    if (shared !== undefined) return sharedAnswer(request, shared);
    try {
      const answered = pipelineAnswer(request);
      return answered instanceof Promise ? answered : Promise.resolve(answered);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A replica's answer, or 503 `store_unavailable` when the shared store cannot serve it. */
  function sharedAnswer(request: FakeRequest, shared: SharedState): Promise<Answer> {
    const started = performance.now();
    return answerOnSharedState(
      shared,
      () => pipelineAnswer(request),
      (problem) => {
        const now = clock.now();
        const retryAtMs = now + unavailableRetryMs;
        const headers = {
          ...unreadRateLimitHeaders(state, request.header('authorization'), now, retryAtMs),
          'Retry-After': retryAfterValue(config.retryAfterFormat, retryAtMs, now),
        };
        let url: URL | undefined;
        try {
          url = new URL(request.url);
        } catch {
          // Shown as its text, as the core's own early refusals of an unparsable target are.
        }
        return refuseEarly(request, url, 'store_unavailable', problem?.message, started, headers);
      },
    );
  }

  function pipelineAnswer(request: FakeRequest): Answer | Promise<Answer> {
    const started = performance.now();
    const start = pathStart(request.url);
    if (request.url.length - start > maxUrlLength) {
      const message = `The request target must be at most ${maxUrlLength} characters; got ${request.url.length - start}.`;
      return refuseEarly(request, undefined, 'uri_too_long', message, started);
    }
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return refuseEarly(
        request,
        undefined,
        'bad_request',
        'The request URL could not be parsed.',
        started,
      );
    }
    const path = url.pathname;
    const context = createContext(request, url, clock.now());
    if (isUnder(path, config.basePath)) {
      const [steps, handler]: [readonly Step[], Handler] =
        request.method === 'OPTIONS' ? [preflightSteps, answerPreflight] : [apiSteps, answerRoute];
      return runPipeline(steps, handler, context);
    }
    if (path.startsWith(`${config.controlPrefix}/`))
      return runPipeline(controlSteps, controlHandler, context);
    const message = `No endpoint at ${path.slice(0, 200)}; the API lives under ${config.basePath}.`;
    return refuseEarly(request, url, 'route_not_found', message, started);
  }

  let connectionsOpened = 0;
  return {
    answer,
    owns: (url) => ownsUrl(config, url),
    rateLimitHeaders,
    connectionId: (kind) => {
      connectionsOpened += 1;
      return `${kind}-${connectionsOpened}`;
    },
    refusedByDoor: (request, answer, started, body) => {
      let url: URL | undefined;
      try {
        url = new URL(request.url);
      } catch {
        // Shown as its text, as the core's own early refusals of an unparsable target are.
      }
      exchanges.record(request, url, answer, started, body);
    },
  };
}
