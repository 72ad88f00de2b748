/**
 * The pipeline step that feeds the client report: right after authentication, so it sees every
 * answer a key's client gets (forced, chaos, ban, rate limit or the operation's own) and the
 * fake's clock when the request arrived and when its answer left.
 */
import type { FakeRequest } from '../core/fake-request.ts';
import type { FakeState } from '../core/fake-state.ts';
import { callerOf, type Step } from '../pipeline.ts';
import { isChaos, isDropped } from './answer-marks.ts';

/** The forms of a secret looked for, by secret: computed once, not on every request. */
const secretForms = new Map<string, readonly string[]>();

function formsOf(secret: string): readonly string[] {
  let forms = secretForms.get(secret);
  if (forms === undefined) {
    // btoa over UTF-8 bytes, not Buffer: this code also runs in the browser's service worker.
    const base64 = btoa(String.fromCharCode(...new TextEncoder().encode(secret))).replace(
      /=+$/,
      '',
    );
    forms = [secret, base64, base64.replaceAll('+', '-').replaceAll('/', '_')];
    secretForms.set(secret, forms);
  }
  return forms;
}

/** Whether `text` holds `secret` raw, percent-decoded or in base64 (as a Basic credential would). */
function holdsSecret(text: string, secret: string): boolean {
  let plain = text;
  try {
    plain = decodeURIComponent(text);
  } catch {
    // Not percent-encoded: the raw text is all there is.
  }
  return formsOf(secret).some((form) => text.includes(form) || plain.includes(form));
}

/**
 * Who sent a request (also on every request-log line): its `X-Client-Id`, else its
 * `User-Agent`, else `-`, at most 64 characters, and never a secret (a client that sent a key or
 * the control token there, raw, percent-encoded or in base64, is shown as `[redacted]`).
 */
export function clientIdOf(request: FakeRequest, state: FakeState): string {
  // Asked twice per request (the report's step, then the request log): worked out once.
  const known = clientIds.get(request);
  if (known !== undefined) return known;
  const found = clientIdFrom(request, state);
  clientIds.set(request, found);
  return found;
}

/** The client id of each request in flight, once worked out. */
const clientIds = new WeakMap<FakeRequest, string>();

function clientIdFrom(request: FakeRequest, state: FakeState): string {
  // Lower-case names: the HTTP door looks headers up as given.
  const raw = request.header('x-client-id') ?? request.header('user-agent') ?? '-';
  // Printable ASCII only: the id reaches the CLI's summary and the page.
  const id =
    raw
      .replace(/[^\x20-\x7e]/g, '?')
      .trim()
      .slice(0, 64) || '-';
  const access = state.config.controlAccess;
  const secrets = [
    ...state.keys.map((key) => key.key),
    ...(typeof access === 'object' ? [access.token] : []),
  ];
  return secrets.some((secret) => holdsSecret(raw, secret)) ? '[redacted]' : id;
}

/**
 * The step: passes the request on, then records its answer in the client report, with real time
 * beside the fake's clock and what the ban policy made of it (read off the key's usage).
 */
export const clientReportStep: Step = async (exchange, next) => {
  const { request, url, state, now } = exchange;
  const arrivedReal = Date.now();
  const { usage, key } = callerOf(exchange);
  // Rate limiting and the ban step decide synchronously inside next(): read the key's
  // Retry-After deadline and ban before them.
  const retryAtBefore = usage.retryAt;
  const bannedBefore = usage.bannedUntil;
  const answer = await next();
  const refused = exchange.refusedUntil !== undefined;
  const answeredAt = state.clock.now();
  const reset = exchange.rateLimit?.reset;
  state.qa.clients.record({
    keyId: key.id,
    clientId: clientIdOf(request, state),
    method: request.method,
    url,
    arrivedAt: now,
    answeredAt,
    arrivedReal,
    answeredReal: Date.now(),
    status: answer.status,
    errorCode: answer.errorCode,
    retryAfter: answer.headers['Retry-After'],
    resetInMs: reset === undefined ? undefined : Math.max(0, reset * 1000 - answeredAt),
    chaos: isChaos(answer),
    dropped: isDropped(answer),
    refused,
    violation: refused && now < retryAtBefore,
    banStarted:
      answer.errorCode === 'temporarily_banned' && refused && usage.bannedUntil !== bannedBefore,
  });
  return answer;
};
