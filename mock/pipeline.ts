/**
 * The request pipeline every operation runs through, top to bottom:
 * authenticate → forced response? → ban → rate limit → operation → headers.
 * Each step is a plain function from policies/; this file only composes them and guarantees
 * that every response, error or not, leaves with the X-RateLimit-* headers.
 */
import type { OperationId } from './contract/types.ts';
import { forcedCode } from './control/forced-responses.ts';
import { type ErrorCode, errorCodeOf, errorResponse, errorTemplates } from './core/errors.ts';
import type { FakeState } from './core/fake-state.ts';
import { authenticate } from './policies/auth.ts';
import { isBanned, recordAdmission, recordRefusal } from './policies/ban.ts';
import { corsHeaders } from './policies/cors.ts';
import { hostProblem } from './policies/host-check.ts';
import { redactUrl } from './policies/log-redaction.ts';
import { type KeyEntry, type Limits, limitsFor } from './policies/plans.ts';
import {
  admitRequest,
  emptyUsage,
  peekRateLimit,
  type RateLimitHeaders,
} from './policies/rate-limit.ts';

/** What an operation receives: the request, its parsed URL and path params, and the caller's key. */
export interface OperationContext {
  readonly request: Request;
  readonly url: URL;
  readonly params: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly key: KeyEntry;
  readonly state: FakeState;
}

/** An operation: answers an authenticated, admitted request. */
export type Operation = (context: OperationContext) => Response | Promise<Response>;

/** Extra headers a route adds to every response it sends, errors included (e.g. deprecation). */
type RouteHeaders = (url: URL, state: FakeState) => Record<string, string>;

/** How a route is served: its operation id (if it is one of the interface's) and extra headers. */
export interface RouteOptions {
  readonly operationId?: OperationId;
  readonly headers?: RouteHeaders;
}

/** The limits unauthenticated callers are shown: the Free plan's, never spent (see README). */
const anonymousUsage = emptyUsage();

function retryAfter(state: FakeState, retryAtMs: number, now: number): string {
  const seconds = Math.max(1, Math.ceil((retryAtMs - now) / 1000));
  if (state.config.retryAfterFormat === 'seconds') return String(seconds);
  return new Date(now + seconds * 1000).toUTCString();
}

function usageOf(state: FakeState, key: KeyEntry) {
  let usage = state.usage.get(key.id);
  if (usage === undefined) {
    usage = emptyUsage();
    state.usage.set(key.id, usage);
  }
  return usage;
}

interface Outcome {
  readonly response: Response;
  readonly rateLimit: RateLimitHeaders;
  readonly keyId: string;
}

async function decide(
  state: FakeState,
  route: RouteOptions,
  operation: Operation,
  request: Request,
  url: URL,
  params: OperationContext['params'],
): Promise<Outcome> {
  const now = state.clock.now();
  const hostRefused = hostProblem(request.headers.get('host'), state.config.allowedHosts);
  if (hostRefused !== undefined) {
    return {
      response: errorResponse('host_not_allowed', hostRefused),
      rateLimit: peekRateLimit(anonymousUsage, anonymousLimits(state), now),
      keyId: '-',
    };
  }
  const auth = authenticate(request.headers.get('authorization'), state.keys);
  if (!auth.ok) {
    const challenge = auth.reason === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"';
    return {
      response: errorResponse('unauthorized', unauthorizedMessage[auth.reason], {
        'WWW-Authenticate': challenge,
      }),
      rateLimit: peekRateLimit(anonymousUsage, anonymousLimits(state), now),
      keyId: auth.reason === 'missing' ? '-' : 'unknown',
    };
  }
  const key = auth.key;
  const limits = limitsFor(state.plans, key);
  const usage = usageOf(state, key);

  const forced = route.operationId === undefined ? undefined : state.forced.take(route.operationId);
  if (forced !== undefined) {
    const peek = peekRateLimit(usage, limits, now);
    const headers: Record<string, string> = {};
    if (forced.status === 429 || forced.status === 503)
      headers['Retry-After'] = String(Math.max(1, forced.retryAfterSeconds));
    if (forced.status === 401) headers['WWW-Authenticate'] = 'Bearer error="invalid_token"';
    const rateLimit = forced.status === 429 ? { ...peek, remaining: 0 } : peek;
    const code: ErrorCode = forcedCode(forced.status);
    return {
      response: errorResponse(
        code,
        `${errorTemplates[code].message} (forced by the control surface)`,
        headers,
      ),
      rateLimit,
      keyId: key.id,
    };
  }

  if (isBanned(usage, now)) {
    const peek = peekRateLimit(usage, limits, now);
    return {
      response: errorResponse('temporarily_banned', undefined, {
        'Retry-After': retryAfter(state, usage.bannedUntil, now),
      }),
      rateLimit: { limit: peek.limit, remaining: 0, reset: Math.ceil(usage.bannedUntil / 1000) },
      keyId: key.id,
    };
  }

  const admission = admitRequest(usage, limits, now);
  if (!admission.admitted) {
    const banned = recordRefusal(usage, admission.retryAtMs, now, state.config.ban);
    const retryAtMs = banned ? usage.bannedUntil : admission.retryAtMs;
    return {
      response: errorResponse(banned ? 'temporarily_banned' : 'rate_limited', undefined, {
        'Retry-After': retryAfter(state, retryAtMs, now),
      }),
      rateLimit: banned
        ? { ...admission.headers, reset: Math.ceil(retryAtMs / 1000) }
        : admission.headers,
      keyId: key.id,
    };
  }
  recordAdmission(usage);
  const response = await operation({ request, url, params, key, state });
  return { response, rateLimit: admission.headers, keyId: key.id };
}

const unauthorizedMessage = {
  missing: 'Missing API key: send "Authorization: Bearer <API_KEY>".',
  malformed: 'Malformed Authorization header: expected "Bearer <API_KEY>".',
  unknown: 'Invalid API key.',
} as const;

/** The Free plan's limits (README); a keys file without one shows its smallest plan's instead. */
function anonymousLimits(state: FakeState): Limits {
  const plans = Object.values(state.plans);
  return state.plans.free ?? plans.reduce((a, b) => (b.perMinute < a.perMinute ? b : a));
}

/** The three X-RateLimit-* headers as a record. */
function rateLimitHeaderRecord(rateLimit: RateLimitHeaders): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(rateLimit.limit),
    'X-RateLimit-Remaining': String(rateLimit.remaining),
    'X-RateLimit-Reset': String(rateLimit.reset),
  };
}

/** The X-RateLimit-* headers an unauthenticated caller sees, for answers written outside the handlers. */
export function anonymousRateLimitHeaders(state: FakeState): Record<string, string> {
  return rateLimitHeaderRecord(
    peekRateLimit(anonymousUsage, anonymousLimits(state), state.clock.now()),
  );
}

/** Applies the X-RateLimit-*, route and CORS headers to a response. */
function finish(
  response: Response,
  rateLimit: RateLimitHeaders,
  extra: Record<string, string>,
): Response {
  const headers = { ...rateLimitHeaderRecord(rateLimit), ...extra };
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** Wraps an operation in the pipeline, giving the resolver msw's `http.*` handlers take. */
export function withPolicies(state: FakeState, route: RouteOptions, operation: Operation) {
  return async ({
    request,
    params,
  }: {
    request: Request;
    params: OperationContext['params'];
  }): Promise<Response> => {
    const started = performance.now();
    const url = new URL(request.url);
    let outcome: Outcome;
    try {
      outcome = await decide(state, route, operation, request, url, params);
    } catch (error) {
      // A bug in the fake must surface as a logged 500, never as a hang or a crash of the server.
      console.error('petstore-fake: handler failed', error);
      outcome = {
        response: errorResponse('internal_error'),
        rateLimit: peekRateLimit(anonymousUsage, anonymousLimits(state), state.clock.now()),
        keyId: '?',
      };
    }
    const extra = { ...route.headers?.(url, state), ...corsHeaders(request.headers.get('origin')) };
    const response = finish(outcome.response, outcome.rateLimit, extra);
    if (state.config.onExchange !== undefined) {
      const errorCode = errorCodeOf(outcome.response);
      state.config.onExchange({
        method: request.method,
        url: redactUrl(
          url,
          state.keys.map((key) => key.key),
        ),
        status: response.status,
        keyId: outcome.keyId,
        operationId: route.operationId,
        durationMs: performance.now() - started,
        ...(errorCode === undefined ? {} : { errorCode }),
      });
    }
    return response;
  };
}
