/**
 * CORS for browser apps served from a local dev server (localhost, 127.0.0.1, [::1], any port)
 * calling the fake's HTTP door. Other origins get no CORS headers, so browsers block them.
 */
import type { Handler, Step } from '../../pipeline/pipeline.ts';

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/** Headers a browser script must be allowed to read. */
const exposedHeaders =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Deprecation, Sunset, Link, WWW-Authenticate';

/** CORS headers for a response to a request from `origin` (the request's Origin header). */
function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null || !LOCAL_ORIGIN.test(origin)) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': exposedHeaders,
    Vary: 'Origin',
  };
}

/** Extra headers of a preflight (OPTIONS) response. */
function preflightHeaders(origin: string | null): Record<string, string> {
  if (origin === null || !LOCAL_ORIGIN.test(origin)) return {};
  return {
    ...corsHeaders(origin),
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    // X-Client-Id: how an app names itself in the client compliance report (README, QA);
    // X-Client-Copies: 1 declares it runs as one copy; Prefer: code=<status>, Prism's header,
    // forces an answer per request (docs/qa.md).
    'Access-Control-Allow-Headers':
      'Authorization, Content-Type, X-Client-Id, X-Client-Copies, Prefer',
    'Access-Control-Max-Age': '600',
  };
}

/** The step: adds the CORS headers to every answer to a request that names an Origin. */
export const corsStep: Step = {
  after(context, answer) {
    const origin = context.request.header('origin');
    if (origin !== null) Object.assign(answer.headers, corsHeaders(origin));
    return answer;
  },
};

/** Answers a preflight: no content, with what a local page may send (preflights carry no credentials). */
export const answerPreflight: Handler = ({ request }) => ({
  status: 204,
  headers: preflightHeaders(request.header('origin')),
  body: undefined,
});
