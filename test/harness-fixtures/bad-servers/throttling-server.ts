/**
 * A server that answers every request 429, never serving again, and records each refusal's
 * Retry-After so a test can tell when the next request was allowed to arrive.
 */
import { type BadServer, type BadServerOptions, startBadHttpServer } from './bad-server.ts';

/** One 429 as sent. */
export interface Refusal {
  /** Epoch ms when the 429 was written. */
  readonly at: number;
  /** The Retry-After header sent, or `undefined` when none was. */
  readonly retryAfter: string | undefined;
}

/** Options of a throttling server. */
export interface ThrottlingServerOptions extends BadServerOptions {
  /** The Retry-After value to send at `now` (epoch ms); `undefined` sends none. */
  readonly retryAfter: (now: number) => string | undefined;
}

/** A throttling server and its refusals, in order. */
export interface ThrottlingServer extends BadServer {
  readonly refusals: readonly Refusal[];
}

/** Starts a server that answers 429 to every request it misbehaves on. */
export async function startThrottlingServer(
  options: ThrottlingServerOptions,
): Promise<ThrottlingServer> {
  const refusals: Refusal[] = [];
  const server = await startBadHttpServer((_request, response) => {
    const now = Date.now();
    const retryAfter = options.retryAfter(now);
    response.writeHead(429, {
      'Content-Type': 'application/json',
      // The window "resets now": the quota headers alone would not hold the harness back.
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.floor(now / 1000)),
      ...(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }),
    });
    response.end(JSON.stringify({ code: 'rate_limited', message: 'slow down', status: 429 }));
    refusals.push({ at: now, retryAfter });
  }, options);
  return { ...server, refusals };
}
