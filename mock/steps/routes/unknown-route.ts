/**
 * Anything under `/v1` that is not an operation: 405 with `Allow` on a known path with another
 * method, 404 `route_not_found` otherwise. Both go through the pipeline, so they are
 * authenticated and carry the rate-limit headers like every other response.
 */

import { errorAnswer } from '../../base/messages/answer.ts';
import type { Handler } from '../../pipeline/pipeline.ts';

const allowedMethods: readonly (readonly [RegExp, string])[] = [
  [/^\/pets\/?$/, 'GET, HEAD, POST, OPTIONS'],
  [/^\/pets\/[^/]+\/?$/, 'GET, HEAD, OPTIONS'],
];

/** Answers a request no operation matched. */
export const unknownRoute =
  (basePath: string): Handler =>
  ({ request, url }) => {
    const path = url.pathname.slice(basePath.length);
    const allow = allowedMethods.find(([pattern]) => pattern.test(path))?.[1];
    if (allow !== undefined) {
      return errorAnswer(
        'method_not_allowed',
        `${request.method} is not allowed here; allowed: ${allow}.`,
        { Allow: allow },
      );
    }
    return errorAnswer('route_not_found', `No endpoint at ${url.pathname.slice(0, 200)}.`);
  };
