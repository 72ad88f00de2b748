/** Exchanges built by hand, for the unit tests of observers, the pacer and the reports. */
import type { Exchange, RequestSpec } from './exchange.ts';

/** What a hand-made exchange may set; the rest takes plain defaults (an authenticated listing). */
export interface TestExchangeOptions {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly text?: string;
  readonly spec?: Partial<RequestSpec>;
  readonly sentAt?: number;
  readonly answeredAt?: number;
  /** Epoch ms on the target's clock; default 2026-01-01T00:00:00Z. */
  readonly sentAtEpochMs?: number;
  readonly authenticated?: boolean;
}

/**
 * An exchange with an answer, as the client would record it.
 * @example testExchange({ status: 429, headers: { 'Retry-After': '7' } })
 */
export function testExchange(options: TestExchangeOptions = {}): Exchange {
  const text = options.text ?? '[]';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    spec: {
      method: 'GET',
      path: '/pets',
      auth: 'key',
      operationId: 'listPets',
      ...options.spec,
    },
    url: `http://h/v1${options.spec?.path ?? '/pets'}`,
    sentAt: options.sentAt ?? 0,
    answeredAt: options.answeredAt ?? 1,
    sentAtEpochMs: options.sentAtEpochMs ?? Date.UTC(2026, 0, 1),
    authenticated: options.authenticated ?? true,
    response: {
      status: options.status ?? 200,
      headers: new Headers(options.headers ?? {}),
      text,
      json,
      exact: json,
      preview: (maxChars = 200) => text.slice(0, maxChars),
    },
  };
}
