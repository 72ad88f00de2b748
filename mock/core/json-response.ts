import { stringifyJson } from '../contract/lossless-json.ts';

// The text each JSON response was built from. The HTTP door writes it to the socket directly
// instead of reading the same bytes back out of the Response's web stream (bench/optimisations.md).
const bodyTexts = new WeakMap<Response, string>();

/** Extra headers of a JSON response, by name (every caller passes a literal record). */
export type ResponseHeaders = Readonly<Record<string, string>>;

/** A JSON response whose int64 values keep every digit (see lossless-json.ts). */
export function jsonResponse(status: number, body: unknown, headers?: ResponseHeaders): Response {
  const text = stringifyJson(body);
  // Content-Type goes in with the rest: one Headers fill, not a fill and then a set.
  const response = new Response(text, {
    status,
    headers: { ...headers, 'Content-Type': 'application/json' },
  });
  bodyTexts.set(response, text);
  return response;
}

/** The JSON text a response from `jsonResponse` carries, without reading its body stream. */
export function jsonResponseText(response: Response): string | undefined {
  return bodyTexts.get(response);
}
