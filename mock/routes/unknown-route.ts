/**
 * Anything under `/v1` that is not an operation: 405 with `Allow` on a known path with another
 * method, 404 `route_not_found` otherwise. Both go through the pipeline, so they are
 * authenticated and carry the rate-limit headers like every other response.
 */
import { errorResponse } from '../core/errors.ts';
import type { Operation } from '../pipeline.ts';

const allowedMethods: readonly (readonly [RegExp, string])[] = [
  [/^\/pets\/?$/, 'GET, POST, OPTIONS'],
  [/^\/pets\/[^/]+\/?$/, 'GET, OPTIONS'],
];

/** Answers a request no operation matched. */
export const unknownRoute: Operation = ({ request, url, state }) => {
  const path = url.pathname.slice(state.config.basePath.length);
  const allow = allowedMethods.find(([pattern]) => pattern.test(path))?.[1];
  if (allow !== undefined) {
    return errorResponse(
      'method_not_allowed',
      `${request.method} is not allowed here; allowed: ${allow}.`,
      { Allow: allow },
    );
  }
  return errorResponse('route_not_found', `No endpoint at ${url.pathname.slice(0, 200)}.`);
};
