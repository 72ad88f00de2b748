/**
 * X-RateLimit-* for hono servers whose limiter (hono-rate-limiter) sends only the IETF fields or
 * none: the headers written from the info the limiter stores on the context (hono-rate-limiter
 * dist/index.js: `c.set(requestPropertyName, info)`: limit, remaining, resetTime).
 */
import type { Context, Next } from 'hono';
import type { RateLimitInfo } from 'hono-rate-limiter';
import { windowMs } from './rate-limit-window.ts';

/** What the limiter stores on the context (its `requestPropertyName`, default `rateLimit`). */
export type LimiterEnv = { Variables: { rateLimit: RateLimitInfo } };

/** The reset time of the caller's window as a Unix time, rounded up to the second. */
export function resetSeconds(info: RateLimitInfo): number {
  return Math.ceil((info.resetTime ?? new Date(Date.now() + windowMs)).getTime() / 1000);
}

/** Sets X-RateLimit-Limit, -Remaining and -Reset from the limiter's info. */
export function setXRateLimitHeaders(c: Context<LimiterEnv>): void {
  const info = c.get('rateLimit');
  c.header('X-RateLimit-Limit', String(info.limit));
  c.header('X-RateLimit-Remaining', String(info.remaining));
  c.header('X-RateLimit-Reset', String(resetSeconds(info)));
}

/** Middleware mounted after the limiter: every answer it lets through gets the headers. */
export async function xRateLimitHeaders(c: Context<LimiterEnv>, next: Next): Promise<void> {
  setXRateLimitHeaders(c);
  await next();
}
