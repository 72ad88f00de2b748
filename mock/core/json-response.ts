import { stringifyJson } from '../contract/lossless-json.ts';

/** A JSON response whose int64 values keep every digit (see lossless-json.ts). */
export function jsonResponse(status: number, body: unknown, headers?: HeadersInit): Response {
  const response = new Response(stringifyJson(body), { status, headers: headers ?? {} });
  response.headers.set('Content-Type', 'application/json');
  return response;
}
