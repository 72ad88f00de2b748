/**
 * Checks that judge every exchange of the run rather than sending their own requests: the
 * promises the interface makes about all responses (Error bodies, JSON, X-RateLimit-* headers,
 * Retry-After on 429) and about the absence of server faults.
 */
import { getPetSunsetDay, planLimits, rateLimitHeaders } from '../contract/interface-facts.ts';
import { checkError } from '../contract/schemas.ts';
import { answeredBeforeSent, type Exchange, type ReceivedResponse } from '../http/exchange.ts';
import { answerViolations, roundedByPrism } from '../http/prism-violations.ts';
import { parseRetryAfter } from '../http/retry-after.ts';
import { observerCheck, type RunFacts, statefulObserverCheck, type WhenUnseen } from './check.ts';
import { samePet } from './same-pet.ts';

/** Whether an exchange got an answer from the target, optionally one that `also` accepts. */
function answered(
  also: (response: ReceivedResponse, exchange: Exchange) => boolean = () => true,
): (exchange: Exchange) => boolean {
  return (exchange) => {
    const response = exchange.response;
    return response !== undefined && also(response, exchange);
  };
}

/** The target's answer of an exchange an observer's `appliesTo` accepted. */
function answerOf(exchange: Exchange): ReceivedResponse {
  const response = exchange.response;
  if (response === undefined) throw new Error('petstore-contract: judged an unanswered exchange');
  return response;
}

/** Nothing seen, and nothing in the run's flags promised there would be. */
const notExercised =
  (reason: string): ((run: RunFacts) => WhenUnseen) =>
  () => ({ reason });

const isJsonType = (value: string | null) =>
  value !== null && /^application\/json\s*(;|$)/i.test(value);

/** Every error response has a JSON Error body. */
export const errorsBodyShape = observerCheck({
  id: 'errors.bodyShape',
  title: 'every error response has a JSON body shaped as Error {code, message, status}',
  source: 'Errors, "Every error response has a JSON body shaped as Error"',
  appliesTo: answered((response) => response.status >= 400),
  judge(exchange) {
    const response = answerOf(exchange);
    if (response.json === undefined) return `a ${response.status} answer whose body is not JSON`;
    return checkError(response.json);
  },
  whenUnseen: notExercised('no error response was seen'),
});

/** Error.status equals the HTTP status. */
export const errorsStatusMatches = observerCheck({
  id: 'errors.statusMatches',
  title: "an Error body's status equals the response's HTTP status",
  source: 'Error.status, "The HTTP status code of the response"',
  needs: ['semantics'],
  appliesTo: answered(
    (response) => response.status >= 400 && checkError(response.json) === undefined,
  ),
  judge(exchange) {
    const response = answerOf(exchange);
    const status = (response.json as { status?: unknown }).status;
    return status === response.status
      ? undefined
      : `HTTP ${response.status} carries an Error with status ${JSON.stringify(status)}`;
  },
  whenUnseen: notExercised('no error response with an Error body was seen'),
});

/** Bodies are JSON, labelled application/json. */
export const responsesJson = observerCheck({
  id: 'responses.json',
  title: 'every response body is JSON sent as application/json',
  source: 'What the service does, "Request and response bodies are JSON (application/json)"',
  appliesTo: answered((response) => response.text !== ''),
  judge(exchange) {
    const response = answerOf(exchange);
    const type = response.headers.get('Content-Type');
    if (!isJsonType(type))
      return `a ${response.status} answer with Content-Type ${JSON.stringify(type)}`;
    if (response.json === undefined && response.text !== 'null')
      return `a ${response.status} answer whose body is not JSON`;
    return undefined;
  },
  whenUnseen: notExercised('no answer had a body'),
});

/** The IETF draft's rate-limit fields (draft-6 to draft-8), which are not the interface's. */
const ietfRateLimitFields = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
] as const;

/** X-RateLimit-* on every response. */
export const headersRateLimitOnEveryResponse = observerCheck({
  id: 'headers.rateLimitOnEveryResponse',
  title: 'every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
  source: 'Limits, "Rate limit headers (present on every response)"',
  appliesTo: answered(),
  judge(exchange) {
    const response = answerOf(exchange);
    const missing = rateLimitHeaders.filter((name) => response.headers.get(name) === null);
    if (missing.length === 0) return undefined;
    // Servers built on express-rate-limit / hono-rate-limiter often send the IETF draft's fields
    // instead: say so, since the interface names X-RateLimit-* and nothing else.
    const ietf = ietfRateLimitFields.filter((name) => response.headers.get(name) !== null);
    return `a ${response.status} answer without ${missing.join(', ')}${ietf.length === 0 ? '' : ` (it carries the IETF draft's ${ietf.join(', ')} instead; the interface promises X-RateLimit-*)`}`;
  },
  whenUnseen: notExercised('no answer was seen'),
});

/** The headers hold integers, and Remaining never exceeds Limit. */
export const headersRateLimitValues = observerCheck({
  id: 'headers.rateLimitValues',
  title: 'X-RateLimit-* are non-negative integers and Remaining <= Limit',
  source: 'Limits, rate limit headers: limit, requests remaining, Unix timestamp of the reset',
  appliesTo: answered((response) =>
    rateLimitHeaders.every((name) => response.headers.get(name) !== null),
  ),
  judge(exchange) {
    const response = answerOf(exchange);
    for (const name of rateLimitHeaders) {
      const value = response.headers.get(name) ?? '';
      if (!/^\d+$/.test(value.trim()))
        return `${name}: ${JSON.stringify(value)} is not a non-negative integer`;
    }
    const limit = Number(response.headers.get('X-RateLimit-Limit'));
    const remaining = Number(response.headers.get('X-RateLimit-Remaining'));
    if (remaining > limit)
      return `X-RateLimit-Remaining ${remaining} exceeds X-RateLimit-Limit ${limit}`;
    return undefined;
  },
  whenUnseen: notExercised('no response carried the three headers'),
});

/** Clock skew allowed between the harness and the server when reading X-RateLimit-Reset. */
const resetSkewSeconds = 5;
/** The longest window the interface names: a day. */
const longestWindowSeconds = 86_400;

/** Reset is the Unix time of the reset: not before the request, and at most a day after it. */
export const headersRateLimitResetIsTime = observerCheck({
  id: 'headers.rateLimitResetIsTime',
  title:
    'X-RateLimit-Reset is a Unix time in seconds, no earlier than the request (5 s of clock skew allowed) and at most a day after it',
  source:
    'Limits, X-RateLimit-Reset "Unix timestamp at which the limit resets"; windows of a minute and a day',
  needs: ['rateLimits'],
  appliesTo: answered((response) =>
    /^\d+$/.test(response.headers.get('X-RateLimit-Reset')?.trim() ?? ''),
  ),
  judge(exchange) {
    const reset = Number(answerOf(exchange).headers.get('X-RateLimit-Reset'));
    const sent = exchange.sentAtEpochMs / 1000;
    const sentAt = `sent at ${Math.floor(sent)}, ${new Date(exchange.sentAtEpochMs).toISOString()}`;
    if (reset < Math.floor(sent) - resetSkewSeconds)
      return `X-RateLimit-Reset ${reset} is before the request (${sentAt}): a delay in seconds, or a time in the past, not the Unix time of the reset`;
    if (reset > Math.ceil(sent) + longestWindowSeconds + resetSkewSeconds)
      return `X-RateLimit-Reset ${reset} is more than a day after the request (${sentAt}): not a Unix time in seconds (milliseconds?)`;
    return undefined;
  },
  whenUnseen: notExercised('no response carried X-RateLimit-Reset as an integer'),
});

/** Remaining goes down with every request the key spends. */
export const rateLimitRemainingDecreases = statefulObserverCheck({
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
        const response = exchange.response;
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
      judged: () => compared,
    };
  },
  whenUnseen: () => ({
    reason: 'no two answers in the same window to compare',
    // Any whole run sends several requests with the key back to back.
    expected: (run) => run.narrowed !== true,
  }),
});

/** The key's X-RateLimit-Limit is one of its plan's limits. */
export const rateLimitPlanLimits = observerCheck({
  id: 'rateLimit.planLimits',
  title: "X-RateLimit-Limit on answers to the key is its plan's per-minute or per-day limit",
  source: 'Limits, "Rate limits by plan" and X-RateLimit-Limit "Limit applying to the caller"',
  needs: ['plan'],
  appliesTo: answered(
    (response, exchange) =>
      exchange.authenticated && response.headers.get('X-RateLimit-Limit') !== null,
  ),
  judge(exchange, run) {
    if (run.plan === undefined) return undefined;
    const plan = planLimits[run.plan];
    const value = answerOf(exchange).headers.get('X-RateLimit-Limit');
    const allowed: number[] = [plan.perMinute, plan.perDay];
    return allowed.includes(Number(value))
      ? undefined
      : `X-RateLimit-Limit ${value} is neither ${plan.perMinute} (per minute) nor ${plan.perDay} (per day), the ${run.plan} plan's limits`;
  },
  whenUnseen: (run) => ({
    reason: 'no answer to the key carried X-RateLimit-Limit',
    expected: () => run.plan !== undefined,
  }),
});

/** Retry-After on every 429. */
export const rateLimitRetryAfterOn429 = observerCheck({
  id: 'rateLimit.retryAfterOn429',
  title: 'every 429 carries Retry-After as delta-seconds or an HTTP-date',
  source: 'Errors, 429 row; Limits, rule 2 (the format is not shown: both RFC 9110 forms accepted)',
  appliesTo: answered((response) => response.status === 429),
  judge(exchange) {
    const value = answerOf(exchange).headers.get('Retry-After');
    return parseRetryAfter(value, exchange.sentAtEpochMs) === undefined
      ? `a 429 with Retry-After ${JSON.stringify(value)}`
      : undefined;
  },
  whenUnseen: (run) =>
    run.rateLimitRun
      ? {
          reason: 'no 429 was seen, although --rate-limits asked for one',
          expected: () => true,
        }
      : run.passive === true
        ? { reason: 'no 429 was seen in the traffic' }
        : { reason: 'no 429 was seen (--rate-limits provokes one)' },
});

/** No 5xx. */
export const serverNo5xx = observerCheck({
  id: 'server.no5xx',
  title: 'no request gets a 5xx server error',
  source: 'Errors table (no 5xx is part of the interface)',
  appliesTo: answered(),
  judge(exchange) {
    const response = answerOf(exchange);
    return response.status >= 500
      ? `server error ${response.status}: ${response.preview()}`
      : undefined;
  },
  whenUnseen: notExercised('no answer was seen'),
});

/** No timeouts, resets or refused connections. */
export const serverNoFaults = observerCheck({
  id: 'server.noFaults',
  title: 'every request gets an HTTP answer (no timeout, reset or refused connection)',
  source: 'What the service does (an HTTP/JSON interface)',
  // An oversized body is the harness's limit, not a fault: the check that read it could not run.
  appliesTo: (exchange) => exchange.fault !== undefined && exchange.fault.kind !== 'oversized',
  judge: (exchange) => exchange.fault?.message,
});

/** Most ids the unique-id observer remembers. */
const rememberedIds = 200_000;

/** Created ids are new. */
export const createPetUniqueIds = statefulObserverCheck({
  id: 'createPet.uniqueIds',
  title: 'every created pet gets an id no other pet seen in the run has',
  source: 'Pet.id, "Unique identifier assigned by the service on creation"',
  needs: ['writes', 'semantics'],
  start: () => {
    const seen = new Set<bigint>();
    let created = 0;
    const remember = (value: unknown) => {
      const id = (value as { id?: unknown } | null)?.id;
      if (typeof id !== 'bigint') return;
      // Bounded on a proxy that runs for days: the oldest ids are forgotten first.
      if (seen.size >= rememberedIds) seen.delete(seen.values().next().value as bigint);
      seen.add(id);
    };
    return {
      observe(exchange) {
        const response = exchange.response;
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
        remember(response.exact);
        return undefined;
      },
      judged: () => created,
    };
  },
  whenUnseen: () => ({
    reason: 'no pet was created',
    expected: (run) => run.writes && run.narrowed !== true,
  }),
});

/** Most created pets the read-back observer remembers: its memory stays bounded on a proxy. */
const rememberedPets = 10_000;

/** A created pet, read back later (by id or in a listing), is the pet the 201 returned. */
export const createPetReadBackUnchanged = statefulObserverCheck({
  id: 'createPet.readBackUnchanged',
  title: 'a created pet, whenever it is read back later (by id or in a listing), is unchanged',
  source: 'POST /pets, 201 "Animal added"; GET /pets/{petId} 200; no operation updates a pet',
  needs: ['writes', 'semantics'],
  start: () => {
    const created = new Map<bigint, unknown>();
    let compared = 0;
    const compare = (row: unknown): string | undefined => {
      const id = (row as { id?: unknown } | null)?.id;
      if (typeof id !== 'bigint' || !created.has(id)) return undefined;
      compared += 1;
      const difference = samePet(created.get(id), row);
      return difference === undefined
        ? undefined
        : `pet ${id} read back changed since its creation: ${difference}`;
    };
    return {
      observe(exchange) {
        const response = exchange.response;
        if (response === undefined) return undefined;
        if (exchange.spec.operationId === 'createPet' && response.status === 201) {
          const id = (response.exact as { id?: unknown } | null)?.id;
          if (typeof id !== 'bigint') return undefined;
          // Oldest first out: a proxy sees creates without end.
          if (created.size >= rememberedPets) created.delete(created.keys().next().value as bigint);
          created.set(id, response.exact);
          return undefined;
        }
        if (response.status !== 200) return undefined;
        if (exchange.spec.operationId === 'getPet') return compare(response.exact);
        if (exchange.spec.operationId === 'listPets' && Array.isArray(response.exact))
          for (const row of response.exact) {
            const problem = compare(row);
            if (problem !== undefined) return problem;
          }
        return undefined;
      },
      judged: () => compared,
    };
  },
  whenUnseen: () => ({
    reason: 'no created pet was read back',
    expected: (run) => run.writes && run.narrowed !== true,
  }),
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
  appliesTo: answered(
    (response, exchange) =>
      exchange.spec.operationId === 'getPet' && response.headers.get('Sunset') !== null,
  ),
  judge: (exchange) => sunsetProblem(answerOf(exchange).headers.get('Sunset') ?? ''),
  whenUnseen: notExercised(
    'no Sunset header was sent (the interface requires none, so there is nothing to compare)',
  ),
});

/** Advisory: the deprecation is announced on the wire. */
export const getPetDeprecationHeader = observerCheck({
  id: 'getPet.deprecationHeader',
  title:
    'GET /pets/{petId} answers carry a Deprecation header (advisory: the interface names no header)',
  source: 'GET /pets/{petId} - DEPRECATED; Versioning',
  advisory: true,
  appliesTo: answered((_response, exchange) => exchange.spec.operationId === 'getPet'),
  judge(exchange) {
    const response = answerOf(exchange);
    return response.headers.get('Deprecation') === null
      ? `a ${response.status} answer without Deprecation`
      : undefined;
  },
  whenUnseen: notExercised('no GET /pets/{petId} answer was seen'),
});

/** What Prism's validator said of an answer it carried, less its own int64 limitation. */
function prismFindings(headers: Headers): string[] {
  const violations = answerViolations(headers);
  if (violations === undefined)
    return [
      `unreadable sl-violations header: ${(headers.get('sl-violations') ?? '').slice(0, 200)}`,
    ];
  return violations
    .filter((item) => item.severity === 'Error' && !roundedByPrism(item))
    .map((item) => `${(item.location ?? []).join('.')}: ${item.message ?? '?'}`);
}

/** Prism found nothing to object to. */
export const prismExchangesValid = observerCheck({
  id: 'prism.exchangesValid',
  title: "Prism's validator accepts every answer that passed through it",
  source: 'openapi/petstore.yaml (validated by prism proxy)',
  needs: ['prism'],
  appliesTo: answered(),
  judge(exchange) {
    const findings = prismFindings(answerOf(exchange).headers);
    return findings.length === 0 ? undefined : `Prism: ${findings.join('; ')}`;
  },
});
