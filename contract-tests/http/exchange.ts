/**
 * One request the harness sent and what came back. The API key never appears here: requests
 * carry `keyPlaceholder` where the key goes, and the client substitutes it only on the wire.
 */

/** Stands for the API key in recorded requests, curl lines and counterexamples. */
export const keyPlaceholder = '$PETSTORE_API_KEY';
/** Where a request carries the optional second key (`PETSTORE_API_KEY_2`); replaced likewise. */
export const secondKeyPlaceholder = '$PETSTORE_API_KEY_2';

/** What to send. `path` is relative to the base URL (e.g. `/pets?limit=5`). */
export interface RequestSpec {
  readonly method: string;
  readonly path: string;
  /**
   * The Authorization header: `'key'` sends `Bearer <key>`, `'none'` sends none, any other string
   * is sent as given, with `keyPlaceholder` replaced by the key.
   */
  readonly auth: 'key' | 'none' | { readonly header: string };
  /** Raw body text; a `Content-Type: application/json` header goes with it unless `contentType`. */
  readonly body?: string;
  /** The proxy kept none of the body: it passed `--max-body-bytes`, so nothing judges what it held. */
  readonly bodyUnread?: true;
  readonly contentType?: string;
  /** The operation it exercises, for reports and the observers (`other`: seen by the proxy only). */
  readonly operationId: 'listPets' | 'createPet' | 'getPet' | 'other';
}

/** A transport failure: the server gave no HTTP answer. */
export interface Fault {
  /** `oversized`: the body passed `--max-body-bytes` (no verdict: the harness stopped reading). */
  readonly kind: 'timeout' | 'connection' | 'reset' | 'oversized' | 'other';
  readonly message: string;
}

/** An HTTP answer as read by the harness. */
export interface ReceivedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (numbers as JS numbers), or `undefined` when it is not JSON. */
  readonly json: unknown;
  /** The body parsed with integers as `bigint` (exact digits), or `undefined`. */
  readonly exact: unknown;
  /** The body for messages: the key redacted first, then whitespace folded and cut to `maxChars`. */
  preview(maxChars?: number): string;
}

/** One request and its outcome. */
export interface Exchange {
  readonly spec: RequestSpec;
  /** The URL a user can reproduce the request at (the target's, never Prism's proxy). */
  readonly url: string;
  readonly response?: ReceivedResponse | undefined;
  readonly fault?: Fault | undefined;
  /** When it was sent and when its outcome arrived, in ms on the `performance.now()` timeline. */
  readonly sentAt: number;
  readonly answeredAt: number;
  /** When it was sent, in epoch ms on the target's clock (what X-RateLimit-Reset is read against). */
  readonly sentAtEpochMs: number;
  /** Sent with the real key, so its rate-limit headers describe our quota. */
  readonly authenticated: boolean;
}

/**
 * The `preview` of a body: the key redacted first, then whitespace folded and cut to `maxChars`
 * (redacting after the cut could leave part of the key).
 */
export function previewOf(
  text: string,
  redact: (text: string) => string,
): (maxChars?: number) => string {
  return (maxChars = 200) => {
    const folded = redact(text).replace(/\s+/g, ' ');
    return folded.length > maxChars ? `${folded.slice(0, maxChars)}...` : folded;
  };
}

/**
 * True when `earlier` was answered before `later` was sent, so the server saw them in that order.
 * Concurrent exchanges can be answered in any order, whatever order the server handled them in.
 */
export function answeredBeforeSent(earlier: Exchange, later: Exchange): boolean {
  return earlier.answeredAt <= later.sentAt;
}

/**
 * When the answer arrived, in epoch ms on the target's clock: the latest moment the server can
 * have read its own clock for it (a busy server decides well after the request was sent).
 */
export function answeredAtEpochMs(exchange: Exchange): number {
  return exchange.sentAtEpochMs + Math.max(0, exchange.answeredAt - exchange.sentAt);
}
