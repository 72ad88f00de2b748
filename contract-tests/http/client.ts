/**
 * The harness's HTTP client: every request goes through the budget, the pacer and the observers;
 * a 429 is honoured (Retry-After as seconds or HTTP-date, else exponential backoff, always with
 * jitter) and retried a few times; a request refused through all its retries stops the client for
 * the rest of the run. The key is put on the wire here and nowhere else.
 */
import { BudgetSpentError, type RequestBudget } from './budget.ts';
import type { HarnessClock } from './clock.ts';
import {
  type Exchange,
  keyPlaceholder,
  type RequestSpec,
  secondKeyPlaceholder,
} from './exchange.ts';
import { type KnownQuota, type Pacer, RateLimitedError } from './pacer.ts';
import { parseRetryAfter } from './retry-after.ts';
import { send } from './send.ts';

/**
 * The header a target's fetch adds to an answer when answering took more than one request on
 * the wire (a proxy's answer re-read from the server): the count, so the budget and the stats
 * stay true. The client removes nothing; reports never show it.
 */
export const wireRequestsHeader = 'X-Petstore-Contract-Wire-Requests';

/** Where a request goes on the wire, and the URL a user can reproduce it at. */
export interface Route {
  readonly sendUrl: string;
  readonly reproUrl: string;
}

/** What the user of a client chooses (`--timeout`, `--max-body-bytes`, the redaction). */
export interface ClientChoices {
  readonly timeoutMs: number;
  /** Retries of a request answered 429 before giving up. Default 3. */
  readonly maxRetries?: number;
  /** Most body bytes read per answer (`--max-body-bytes`); default send's 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Redacts the key from response previews (see report/redact.ts). */
  readonly redact?: (text: string) => string;
}

/** Options of a client: the choices, and what the target and the run give it. */
export interface ClientOptions extends ClientChoices {
  /** Maps a request to its URLs (the target decides: direct, through Prism, path mapping). */
  readonly route: (spec: RequestSpec) => Route;
  readonly apiKey: string;
  /** The optional second key, sent where a header carries `secondKeyPlaceholder`. */
  readonly secondApiKey?: string | undefined;
  readonly budget: RequestBudget;
  readonly pacer: Pacer;
  readonly clock: HarnessClock;
  /** Called with every exchange, retries included, in order. */
  readonly onExchange: (exchange: Exchange) => void;
  /** The fetch to send with (see Target.fetch). */
  readonly fetch?: typeof fetch | undefined;
  /** Most requests one send may put on the wire (see `wireRequestsHeader`); default 1. */
  readonly maxWireRequestsPerSend?: number | undefined;
}

/** Per-request options. */
export interface SendOptions {
  /** Retry after a 429 (default true); the rate-limit checks turn it off to see the 429. */
  readonly retry429?: boolean;
  /** Wait for X-RateLimit-Reset when Remaining is 0 (default true). */
  readonly pace?: boolean;
}

/** Counts of one run. */
interface ClientStats {
  readonly requests: number;
  /** Requests sent with the key: the ones its rate-limit windows count. */
  readonly keyRequests: number;
  readonly answered429: number;
  readonly faults: number;
}

/** Sends requests for the checks. */
export interface ContractClient {
  send(spec: RequestSpec, options?: SendOptions): Promise<Exchange>;
  readonly stats: ClientStats;
  readonly budget: RequestBudget;
  readonly clock: HarnessClock;
  /** What the answers so far said of the key's quota. */
  quota(): KnownQuota;
}

function wireHeaders(spec: RequestSpec, apiKey: string, secondApiKey = ''): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (spec.auth === 'key') headers.Authorization = `Bearer ${apiKey}`;
  else if (spec.auth !== 'none')
    // The second placeholder first: the first is its prefix.
    headers.Authorization = spec.auth.header
      .replaceAll(secondKeyPlaceholder, secondApiKey)
      .replaceAll(keyPlaceholder, apiKey);
  if (spec.body !== undefined) headers['Content-Type'] = spec.contentType ?? 'application/json';
  return headers;
}

/** Creates a client. */
export function createClient(options: ClientOptions): ContractClient {
  const { budget, pacer, clock } = options;
  const maxRetries = options.maxRetries ?? 3;
  const maxWire = options.maxWireRequestsPerSend ?? 1;
  let requests = 0;
  let keyRequests = 0;
  let answered429 = 0;
  let faults = 0;
  // Set once a request was refused through all its retries: the server is not serving this key.
  let refusedThrough: string | undefined;

  const spend = async (pace: boolean, spends: boolean) => {
    // Never wait for the quota on behalf of a request the budget has no room left for.
    if (budget.left < maxWire) throw new BudgetSpentError(budget);
    await pacer.beforeSend(pace, spends);
    budget.take();
    requests += 1;
    if (spends) keyRequests += 1;
  };

  const once = async (spec: RequestSpec, pace: boolean): Promise<Exchange> => {
    const spends = spec.auth === 'key';
    await spend(pace, spends);
    const route = options.route(spec);
    const sentAt = performance.now();
    const sentAtEpochMs = clock.now();
    // An answer is awaited no later than the run's bound: past it the run stops (incomplete),
    // and a server that has not answered yet is not blamed for a timeout it was not given.
    const left = pacer.msLeft();
    const cutByBound = left !== undefined && left < options.timeoutMs;
    const outcome = await send({
      url: route.sendUrl,
      method: spec.method,
      headers: wireHeaders(spec, options.apiKey, options.secondApiKey),
      timeoutMs: cutByBound ? Math.max(1, Math.floor(left)) : options.timeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      redact: options.redact,
      fetch: options.fetch,
      body: spec.body,
    });
    if (cutByBound && outcome.fault?.kind === 'timeout')
      throw pacer.boundPassed(
        `while awaiting the answer to ${spec.method} ${route.reproUrl} (no answer after ${Math.round(performance.now() - sentAt)} ms; --timeout is ${options.timeoutMs} ms)`,
      );
    // A target whose fetch may re-read an answer says how many requests it sent; only such a
    // target is believed, and never beyond what it declared (a server could send the header).
    if (maxWire > 1) {
      const told = Number(outcome.response?.headers.get(wireRequestsHeader));
      const extra = Number.isInteger(told) ? Math.min(Math.max(told, 1), maxWire) - 1 : 0;
      for (let more = 0; more < extra; more++) budget.take();
      requests += extra;
      if (spends) keyRequests += extra;
    }
    const exchange: Exchange = {
      spec,
      url: route.reproUrl,
      sentAt,
      answeredAt: performance.now(),
      sentAtEpochMs,
      authenticated: spec.auth === 'key',
      ...outcome,
    };
    if (exchange.fault !== undefined) faults += 1;
    if (exchange.response?.status === 429) answered429 += 1;
    pacer.observe(exchange);
    options.onExchange(exchange);
    return exchange;
  };

  return {
    async send(spec, sendOptions = {}) {
      // A next check would start the backoff over at 1 s: stop instead of pressing the server.
      if (refusedThrough !== undefined)
        throw new RateLimitedError(
          `not sent: an earlier request was ${refusedThrough}, and more requests could earn the key a ban`,
        );
      const pace = sendOptions.pace ?? true;
      let exchange = await once(spec, pace);
      for (let attempt = 1; sendOptions.retry429 !== false; attempt++) {
        const response = exchange.response;
        if (response === undefined || response.status !== 429) break;
        if (attempt > maxRetries) {
          refusedThrough = `still answered 429 after ${maxRetries} honoured retries`;
          throw new RateLimitedError(refusedThrough);
        }
        // Exponential backoff: never sooner than Retry-After, and at least 1 s, 2 s, 4 s...
        const retry = parseRetryAfter(response.headers.get('Retry-After'), clock.now());
        const backoff = 1000 * 2 ** (attempt - 1);
        // The pacer already waits for the Retry-After of an answer to the key, and its reason
        // says whether the 429 was planned: only a longer backoff replaces it.
        if (!exchange.authenticated || (retry?.waitMs ?? 0) < backoff)
          pacer.blockUntil(
            clock.now() + Math.max(retry?.waitMs ?? 0, backoff),
            (retry?.waitMs ?? 0) >= backoff
              ? `Retry-After: ${response.headers.get('Retry-After')}`
              : `backoff after 429 number ${attempt} of this request`,
          );
        exchange = await once(spec, true);
      }
      return exchange;
    },
    get stats() {
      return { requests, keyRequests, answered429, faults };
    },
    budget,
    clock,
    quota: () => pacer.known(),
  };
}
