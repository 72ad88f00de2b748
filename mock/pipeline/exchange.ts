/**
 * One request and its answer, as every recorder of the fake reads it (the request log, the
 * journal, interface coverage, the Pact recorder, the client report): built once, by the
 * outermost step, when the answer is on its way out. Plain data, safe to send as JSON, so a
 * recorder in another process could read it too. Never a key or the control token: the key's
 * public id, and the body's kept start (redacted when a recorder writes it out).
 */
import type { OperationId } from '../base/contract/types.ts';
import type { Answer } from '../base/messages/answer.ts';
import type { QuotaDecision } from '../base/quota/quota.ts';
import type { RateLimitHeaders } from '../base/quota/rate-limit.ts';

/** The request body as the exchange keeps it: read once, its start kept, its bytes hashed. */
export interface ExchangeBody {
  /** Its first characters as UTF-8 text (cut, a long one redacted before the cut); `null` for none. */
  readonly kept: string | null;
  /** Its whole size in bytes; `null` when it passed the body cap and was not read. */
  readonly bytes: number | null;
  /** Whether `kept` is only the body's start. */
  readonly truncated: boolean;
  /** FNV-1a over its bytes (`too-large` past the cap); `null` for a request that sends no body. */
  readonly hash: number | 'too-large' | null;
  /** Its JSON value (the route's parse, or the exchange's own); `null` when it is no JSON. */
  readonly json: { readonly value: unknown } | null;
}

/** Which door of the core the request came through. */
export type ExchangeKind =
  /** The interface's pipeline under `/v1`. */
  | 'api'
  /** Its CORS preflight (OPTIONS), answered before authentication. */
  | 'preflight'
  /** Refused before any pipeline: a target too long or unparsable, a path the fake does not serve, a door's own refusal. */
  | 'early';

/** One request and its answer. */
export interface Exchange {
  readonly kind: ExchangeKind;
  /** Its number in order of arrival at this fake, from 1. */
  readonly arrival: number;
  /**
   * How many requests had arrived when its answer left: another request arrived before this
   * answer when its `arrival` is at most this.
   */
  readonly arrivalsWhenAnswered: number;
  /** When it arrived and when its answer left, on the fake's clock and in real time (epoch ms). */
  readonly atMs: number;
  readonly realMs: number;
  readonly answeredAtMs: number;
  readonly answeredRealMs: number;
  /** Real time from its arrival to its answer, in ms. */
  readonly durationMs: number;
  readonly method: string;
  /** The path, and the query with its `?` (empty without one), as sent. */
  readonly path: string;
  readonly query: string;
  /** The operation it was routed to, and the route's path parameters; `null` when it reached none. */
  readonly operationId: OperationId | null;
  readonly params: Readonly<Record<string, string>> | null;
  /** The key's public id: `-` when none was sent, `unknown` for one that matched no key. */
  readonly keyId: string;
  /** The plan of the key, when the key was valid (the request had a caller). */
  readonly plan: string | null;
  /** What its Authorization header was: absent, a Bearer credential, or another scheme. */
  readonly authorization: 'none' | 'bearer' | 'other';
  /** Its Content-Type header, if any. */
  readonly contentType: string | null;
  /** `X-Client-Id`, else `User-Agent`, else `-`, as every output names the client. */
  readonly clientId: string;
  /** The connection it came on: an HTTP socket, a browser tab (`tab:...`), or `in-process`. */
  readonly connection: string;
  /** Whether the client declared itself one copy of its app (`X-Client-Copies: 1`). */
  readonly oneCopy: boolean;
  /** Whether a door marked it as a create it may have sent already (possibleCopyHeader). */
  readonly possibleCopy: boolean;
  readonly body: ExchangeBody;
  /** The answer as sent (after every step that writes headers); its body is JSON text. */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly answerBody: string | undefined;
  /** The fake's own code of an Error answer (a renaming profile changes the body, not this). */
  readonly errorCode: NonNullable<Answer['errorCode']> | null;
  /** Who put the answer in place of the fake's own (`forced`, `stubbed`, `chaos`, `prefer`). */
  readonly injected: NonNullable<Answer['injected']> | null;
  /** The door dropped the connection instead of answering. */
  readonly dropped: boolean;
  /** The interface rules a stubbed answer breaks; empty for every other answer. */
  readonly breaks: readonly string[];
  /** What the quota made of it, when it got that far. */
  readonly quota: QuotaDecision | null;
  /** The X-RateLimit-* values the fake's own steps gave it, when a window was read. */
  readonly rateLimit: RateLimitHeaders | null;
  /** The key's count of requests sent during a Retry-After, once this one was counted. */
  readonly violations: number | null;
}

/** Reads every exchange of a fake: a recorder. */
export type ExchangeReader = (exchange: Exchange) => void;
