/**
 * The fake's behaviour core: one function from a request to an answer, which every door calls.
 * The HTTP door and `fake.fetch` call it directly; the msw handlers (browser and Node doors) are
 * a thin adapter over it. It sends the request down one of three pipelines of the same step
 * type (the interface's under `/v1`, its CORS preflight, the control surface) or answers it
 * itself when it is none of them. Which steps run, in which order, is written here and nowhere
 * else.
 */
import type { FakeControl } from '../control/control.ts';
import { controlPipeline } from '../control/control-handlers.ts';
import { type Answer, errorAnswer } from '../messages/answer.ts';
import type { FakeRequest } from '../messages/fake-request.ts';
import { authenticateStep } from '../policies/auth.ts';
import { banStep } from '../policies/ban-step.ts';
import { answerPreflight, corsStep } from '../policies/cors.ts';
import { errorCodesStep } from '../policies/error-codes-step.ts';
import { hostStep } from '../policies/host-check.ts';
import { internalErrorStep } from '../policies/internal-error-step.ts';
import { anonymousRateLimit, rateLimitHeaderRecord } from '../policies/rate-limit.ts';
import { rateLimitHeadersStep } from '../policies/rate-limit-headers-step.ts';
import { rateLimitPolicy } from '../policies/rate-limit-step.ts';
import { createRefuse } from '../policies/refusal.ts';
import { createRequestLog, pathStart, type RequestLog } from '../policies/request-log.ts';
import { clientReportPolicy, createClientIds } from '../qa/client-report-step.ts';
import { injectedFailurePolicy } from '../qa/injected-failure-step.ts';
import {
  answerRoute,
  createRouteTable,
  routeHeadersStep,
  routingStep,
} from '../routes/route-table.ts';
import type { FakeState } from './fake-state.ts';
import { createContext, type Handler, type Policy, runPipeline, type Step } from './pipeline.ts';

/** Longest request target (path and query) answered; longer ones get 414 `uri_too_long`. */
export const maxUrlLength = 8192;

/** The interface's pipeline of one fake: its steps, and what a control reset puts back. */
export interface ApiPipeline {
  readonly steps: readonly Step[];
  readonly log: RequestLog;
  /** Puts every policy's own state back as the fake started (a control reset). */
  reset(): void;
}

/**
 * The steps every `/v1` request runs through, in order: the first ones see the answer last
 * (they log it and write the headers every answer carries), the last ones decide first. A new
 * policy is a new entry here: a step, or a policy (a step with a reset) made by a factory that
 * takes the slice of the fake it needs.
 */
export function createApiPipeline(state: FakeState): ApiPipeline {
  const { config, clock, keys, plans, qa } = state;
  const refuse = createRefuse(config.retryAfterFormat);
  const clientIds = createClientIds(keys, config.controlAccess);
  const log = createRequestLog({ onExchange: config.onExchange, keys, clientIds });
  const routes = createRouteTable({ store: state.store, clock, config });
  const entries: readonly (Step | Policy)[] = [
    log.step('api'),
    routingStep(routes, config.basePath),
    corsStep,
    routeHeadersStep,
    rateLimitHeadersStep(plans),
    errorCodesStep(config.errorCodes),
    internalErrorStep('handler'),
    hostStep(config.allowedHosts),
    authenticateStep({ keys, plans, ledger: state.usage }),
    clientReportPolicy({ reporter: qa.clients, clock, clientIds }),
    injectedFailurePolicy({
      forced: state.forced,
      chaos: qa.chaos,
      initialChaos: qa.initialChaos,
      clock,
      refuse,
    }),
    banStep({ policy: config.ban, refuse }),
    rateLimitPolicy({ ledger: state.usage, refuse }),
  ];
  const policies = entries.filter((entry): entry is Policy => typeof entry !== 'function');
  return {
    steps: entries.map((entry) => (typeof entry === 'function' ? entry : entry.step)),
    log,
    reset: () => {
      for (const policy of policies) policy.reset();
    },
  };
}

/** The behaviour of one fake, for the doors. */
export interface Behaviour {
  /** Answers one request; never throws (a bug in the fake answers 500 `internal_error`). */
  answer(request: FakeRequest): Promise<Answer>;
  /** Whether an absolute URL is the fake's: one of its origins, under `/v1` or the control prefix. */
  owns(url: string): boolean;
  /** The X-RateLimit-* headers for answers a door writes itself (parser refusals). */
  anonymousRateLimitHeaders(): Record<string, string>;
}

/** Whether `path` (with any query) is `prefix` itself or below it. */
function isUnder(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charCodeAt(prefix.length);
  // End of the path, '/', '?' or '#'.
  return Number.isNaN(next) || next === 47 || next === 63 || next === 35;
}

/** Creates the behaviour core over one fake's state, its interface pipeline and control surface. */
export function createBehaviour(
  state: FakeState,
  api: ApiPipeline,
  control: FakeControl,
): Behaviour {
  const { config, plans, clock } = state;
  const { log } = api;
  const anonymous = () => rateLimitHeaderRecord(anonymousRateLimit(plans, clock.now()));
  // Preflights carry no credentials, so they are answered before authentication.
  const preflightSteps: readonly Step[] = [
    log.step('api'),
    rateLimitHeadersStep(plans),
    hostStep(config.allowedHosts),
  ];
  const controlSurface = controlPipeline(control, config);
  const controlSteps: readonly Step[] = [log.step('control'), ...controlSurface.steps];

  /** Answers a request the fake gives before any pipeline, and logs it. */
  const refuseEarly = (
    request: FakeRequest,
    url: URL | undefined,
    answer: Answer,
    started: number,
  ) => {
    log.record(request, url, answer, started);
    return answer;
  };

  async function answer(request: FakeRequest): Promise<Answer> {
    const started = performance.now();
    const start = pathStart(request.url);
    if (request.url.length - start > maxUrlLength) {
      const message = `The request target must be at most ${maxUrlLength} characters; got ${request.url.length - start}.`;
      return refuseEarly(
        request,
        undefined,
        errorAnswer('uri_too_long', message, anonymous()),
        started,
      );
    }
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      const refused = errorAnswer(
        'bad_request',
        'The request URL could not be parsed.',
        anonymous(),
      );
      return refuseEarly(request, undefined, refused, started);
    }
    const path = url.pathname;
    const context = createContext(request, url, clock.now());
    if (isUnder(path, config.basePath)) {
      const [steps, handler]: [readonly Step[], Handler] =
        request.method === 'OPTIONS' ? [preflightSteps, answerPreflight] : [api.steps, answerRoute];
      return runPipeline(steps, handler, context);
    }
    if (path.startsWith(`${config.controlPrefix}/`))
      return runPipeline(controlSteps, controlSurface.handler, context);
    const message = `No endpoint at ${path.slice(0, 200)}; the API lives under ${config.basePath}.`;
    return refuseEarly(request, url, errorAnswer('route_not_found', message, anonymous()), started);
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
