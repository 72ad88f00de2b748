/**
 * Checks that judge every exchange of the run rather than sending their own requests: the
 * promises the interface makes about all responses (Error bodies, JSON, X-RateLimit-* headers,
 * Retry-After on 429) and about the absence of server faults.
 */
import { getPetSunsetDay, planLimits, rateLimitHeaders } from '../contract/interface-facts.ts';
import { checkError } from '../contract/schemas.ts';
import { answeredBeforeSent, type Exchange, type ReceivedResponse } from '../http/exchange.ts';
import { parseRetryAfter } from '../http/retry-after.ts';
import { type ExchangeObserver, observerCheck } from './check.ts';

/** An exchange with an HTTP answer from the target itself (not Prism's own rejection). */
function targetResponse(exchange: Exchange): ReceivedResponse | undefined {
  const response = exchange.response;
  return response === undefined || response.fromPrism ? undefined : response;
}

/** An observer over the target's responses; `judge` returns a violation or undefined. */
function eachResponse(
  judge: (response: ReceivedResponse, exchange: Exchange) => string | undefined,
  relevant: (response: ReceivedResponse, exchange: Exchange) => boolean = () => true,
  unseen?: string,
): () => ExchangeObserver {
  return () => {
    let seen = 0;
    return {
      observe(exchange) {
        const response = targetResponse(exchange);
        if (response === undefined || !relevant(response, exchange)) return undefined;
        seen += 1;
        return judge(response, exchange);
      },
      unseenReason: () => (seen === 0 ? unseen : undefined),
    };
  };
}

const isJsonType = (value: string | null) =>
  value !== null && /^application\/json\s*(;|$)/i.test(value);

/** Every error response has a JSON Error body. */
export const errorsBodyShape = observerCheck({
  id: 'errors.bodyShape',
  title: 'every error response has a JSON body shaped as Error {code, message, status}',
  source: 'Errors, "Every error response has a JSON body shaped as Error"',
  start: eachResponse(
    (response) => {
      if (response.json === undefined) return `a ${response.status} answer whose body is not JSON`;
      return checkError(response.json);
    },
    (response) => response.status >= 400,
    'no error response was seen',
  ),
});

/** Error.status equals the HTTP status. */
export const errorsStatusMatches = observerCheck({
  id: 'errors.statusMatches',
  title: "an Error body's status equals the response's HTTP status",
  source: 'Error.status, "The HTTP status code of the response"',
  needs: ['semantics'],
  start: eachResponse(
    (response) => {
      const status = (response.json as { status?: unknown } | undefined)?.status;
      return status === response.status
        ? undefined
        : `HTTP ${response.status} carries an Error with status ${JSON.stringify(status)}`;
    },
    (response) => response.status >= 400 && checkError(response.json) === undefined,
    'no error response was seen',
  ),
});

/** Bodies are JSON, labelled application/json. */
export const responsesJson = observerCheck({
  id: 'responses.json',
  title: 'every response body is JSON sent as application/json',
  source: 'What the service does, "Request and response bodies are JSON (application/json)"',
  start: eachResponse(
    (response) => {
      const type = response.headers.get('Content-Type');
      if (!isJsonType(type))
        return `a ${response.status} answer with Content-Type ${JSON.stringify(type)}`;
      if (response.json === undefined && response.text !== 'null')
        return `a ${response.status} answer whose body is not JSON`;
      return undefined;
    },
    (response) => response.text !== '',
  ),
});

/** X-RateLimit-* on every response. */
export const headersRateLimitPresent = observerCheck({
  id: 'headers.rateLimitOnEveryResponse',
  title: 'every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
  source: 'Limits, "Rate limit headers (present on every response)"',
  start: eachResponse((response) => {
    const missing = rateLimitHeaders.filter((name) => response.headers.get(name) === null);
    return missing.length === 0
      ? undefined
      : `a ${response.status} answer without ${missing.join(', ')}`;
  }),
});

/** The headers hold integers, and Remaining never exceeds Limit. */
export const headersRateLimitValues = observerCheck({
  id: 'headers.rateLimitValues',
  title:
    'X-RateLimit-* are non-negative integers (Reset a Unix time in seconds) and Remaining <= Limit',
  source: 'Limits, rate limit headers: limit, requests remaining, Unix timestamp of the reset',
  start: eachResponse(
    (response) => {
      for (const name of rateLimitHeaders) {
        const value = response.headers.get(name);
        if (value !== null && !/^\d+$/.test(value.trim()))
          return `${name}: ${JSON.stringify(value)} is not a non-negative integer`;
      }
      const limit = Number(response.headers.get('X-RateLimit-Limit'));
      const remaining = Number(response.headers.get('X-RateLimit-Remaining'));
      if (remaining > limit)
        return `X-RateLimit-Remaining ${remaining} exceeds X-RateLimit-Limit ${limit}`;
      const reset = Number(response.headers.get('X-RateLimit-Reset'));
      // Unix seconds stay below 10^11 until the year 5138; a larger value is milliseconds.
      if (reset >= 1e11) return `X-RateLimit-Reset ${reset} is not a Unix time in seconds`;
      return undefined;
    },
    (response) => rateLimitHeaders.every((name) => response.headers.get(name) !== null),
    'no response carried the three headers',
  ),
});

/** Remaining goes down with every request the key spends. */
export const rateLimitRemainingDecreases = observerCheck({
  id: 'rateLimit.remainingDecreases',
  title: 'X-RateLimit-Remaining goes down with each request made with the key in the same window',
  source: 'Limits, X-RateLimit-Remaining "Requests remaining in the current window"',
  needs: ['rateLimits'],
  start: () => {
    let previous:
      | { limit: string; reset: string; remaining: number; exchange: Exchange }
      | undefined;
    let compared = 0;
    return {
      observe(exchange) {
        const response = targetResponse(exchange);
        if (response === undefined || !exchange.authenticated || response.status === 429) {
          previous = undefined;
          return undefined;
        }
        const limit = response.headers.get('X-RateLimit-Limit');
        const reset = response.headers.get('X-RateLimit-Reset');
        const remaining = Number(response.headers.get('X-RateLimit-Remaining') ?? Number.NaN);
        if (limit === null || reset === null || !Number.isInteger(remaining)) {
          previous = undefined;
          return undefined;
        }
        const before = previous;
        previous = { limit, reset, remaining, exchange };
        if (
          before === undefined ||
          before.limit !== limit ||
          before.reset !== reset ||
          // Answers to requests in flight together may arrive in any order (concurrent creates).
          !answeredBeforeSent(before.exchange, exchange)
        )
          return undefined;
        compared += 1;
        return remaining < before.remaining
          ? undefined
          : `X-RateLimit-Remaining stayed at ${remaining} (was ${before.remaining}) within the window ending ${reset}`;
      },
      unseenReason: () =>
        compared === 0 ? 'no two answers in the same window to compare' : undefined,
    };
  },
});

/** The key's X-RateLimit-Limit is one of its plan's limits. */
export const rateLimitPlanLimits = observerCheck({
  id: 'rateLimit.planLimits',
  title: "X-RateLimit-Limit on answers to the key is its plan's per-minute or per-day limit",
  source: 'Limits, "Rate limits by plan" and X-RateLimit-Limit "Limit applying to the caller"',
  needs: ['plan'],
  start: (run) => {
    const plan = run.plan === undefined ? undefined : planLimits[run.plan];
    let seen = 0;
    return {
      observe(exchange) {
        const value = targetResponse(exchange)?.headers.get('X-RateLimit-Limit');
        if (plan === undefined || !exchange.authenticated || value === null || value === undefined)
          return undefined;
        seen += 1;
        const allowed: number[] = [plan.perMinute, plan.perDay];
        return allowed.includes(Number(value))
          ? undefined
          : `X-RateLimit-Limit ${value} is neither ${plan.perMinute} (per minute) nor ${plan.perDay} (per day), the ${run.plan} plan's limits`;
      },
      unseenReason: () =>
        seen === 0 ? 'no answer to the key carried X-RateLimit-Limit' : undefined,
    };
  },
});

/** Retry-After on every 429. */
export const rateLimitRetryAfter = observerCheck({
  id: 'rateLimit.retryAfterOn429',
  title: 'every 429 carries Retry-After as delta-seconds or an HTTP-date',
  source: 'Errors, 429 row; Limits, rule 2 (the format is not shown: both RFC 9110 forms accepted)',
  start: eachResponse(
    (response) =>
      parseRetryAfter(response.headers.get('Retry-After'), Date.now()) === undefined
        ? `a 429 with Retry-After ${JSON.stringify(response.headers.get('Retry-After'))}`
        : undefined,
    (response) => response.status === 429,
    'no 429 was seen (run with --rate-limits to provoke one)',
  ),
});

/** No 5xx. */
export const serverNo5xx = observerCheck({
  id: 'server.no5xx',
  title: 'no request gets a 5xx server error',
  source: 'Errors table (no 5xx is part of the interface)',
  start: eachResponse((response) =>
    response.status >= 500
      ? `server error ${response.status}: ${response.text.slice(0, 200)}`
      : undefined,
  ),
});

/** No timeouts, resets or refused connections. */
export const serverNoFaults = observerCheck({
  id: 'server.noFaults',
  title: 'every request gets an HTTP answer (no timeout, reset or refused connection)',
  source: 'What the service does (an HTTP/JSON interface)',
  start: () => ({
    observe: (exchange) => (exchange.fault === undefined ? undefined : exchange.fault.message),
    unseenReason: () => undefined,
  }),
});

/** Created ids are new. */
export const createPetUniqueIds = observerCheck({
  id: 'createPet.uniqueIds',
  title: 'every created pet gets an id no other pet seen in the run has',
  source: 'Pet.id, "Unique identifier assigned by the service on creation"',
  needs: ['writes', 'semantics'],
  start: () => {
    const seen = new Set<bigint>();
    let created = 0;
    const remember = (value: unknown) => {
      const id = (value as { id?: unknown } | null)?.id;
      if (typeof id === 'bigint') seen.add(id);
    };
    return {
      observe(exchange) {
        const response = targetResponse(exchange);
        if (response === undefined || response.status >= 300) return undefined;
        if (exchange.spec.operationId !== 'createPet' || response.status !== 201) {
          if (Array.isArray(response.exact)) for (const pet of response.exact) remember(pet);
          else if (exchange.spec.operationId === 'getPet') remember(response.exact);
          return undefined;
        }
        created += 1;
        const id = (response.exact as { id?: unknown } | null)?.id;
        if (typeof id !== 'bigint') return undefined;
        if (seen.has(id)) return `POST /pets assigned id ${id}, which another pet already has`;
        seen.add(id);
        return undefined;
      },
      unseenReason: () => (created === 0 ? 'no pet was created' : undefined),
    };
  },
});

function sunsetProblem(value: string): string | undefined {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return `Sunset ${JSON.stringify(value)} is not an HTTP-date`;
  const { year, month, day } = getPetSunsetDay;
  if (at.getUTCFullYear() !== year || at.getUTCMonth() + 1 !== month || at.getUTCDate() !== day)
    return `Sunset ${value} is not 5 December 2030, the removal date the interface gives`;
  return undefined;
}

/** A Sunset header, when sent, names the removal date. */
export const getPetSunsetDate = observerCheck({
  id: 'getPet.sunsetDate',
  title: 'a Sunset header on GET /pets/{petId}, when sent, names 5 December 2030',
  source: 'GET /pets/{petId}, rule 1; Versioning, "removal on 5 December 2030"',
  start: eachResponse(
    (response) => sunsetProblem(response.headers.get('Sunset') ?? ''),
    (response, exchange) =>
      exchange.spec.operationId === 'getPet' && response.headers.get('Sunset') !== null,
    'no Sunset header was sent (the interface requires none, so there is nothing to compare)',
  ),
});

/** Advisory: the deprecation is announced on the wire. */
export const getPetDeprecationSignalled = observerCheck({
  id: 'getPet.deprecationHeader',
  title:
    'GET /pets/{petId} answers carry a Deprecation header (advisory: the interface names no header)',
  source: 'GET /pets/{petId} - DEPRECATED; Versioning',
  advisory: true,
  start: eachResponse(
    (response) =>
      response.headers.get('Deprecation') === null
        ? `a ${response.status} answer without Deprecation`
        : undefined,
    (_response, exchange) => exchange.spec.operationId === 'getPet',
    'no GET /pets/{petId} answer was seen',
  ),
});

/** Prism found nothing to object to. */
export const prismExchangesValid = observerCheck({
  id: 'prism.exchangesValid',
  title: "Prism's validator accepts every exchange that passed through it",
  source: 'openapi/petstore.yaml (validated by prism proxy --errors)',
  needs: ['prism'],
  start: () => ({
    observe(exchange) {
      const response = exchange.response;
      if (response === undefined || response.prismViolations.length === 0) return undefined;
      return `Prism: ${response.prismViolations.join('; ')}`;
    },
    unseenReason: () => undefined,
  }),
});
