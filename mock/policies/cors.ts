/**
 * CORS for browser apps served from a local dev server (localhost, 127.0.0.1, [::1], any port)
 * calling the fake's HTTP door. Other origins get no CORS headers, so browsers block them.
 */

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/** Headers a browser script must be allowed to read. */
const exposedHeaders =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Deprecation, Sunset, Link, WWW-Authenticate';

/** CORS headers for a response to a request from `origin` (the request's Origin header). */
export function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null || !LOCAL_ORIGIN.test(origin)) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': exposedHeaders,
    Vary: 'Origin',
  };
}

/** Extra headers of a preflight (OPTIONS) response. */
export function preflightHeaders(origin: string | null): Record<string, string> {
  if (origin === null || !LOCAL_ORIGIN.test(origin)) return {};
  return {
    ...corsHeaders(origin),
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    // X-Client-Id: how an app names itself in the client compliance report (README, QA).
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Client-Id',
    'Access-Control-Max-Age': '600',
  };
}
