/**
 * Sends one request with `fetch` and reads the answer, bounded in time (one AbortSignal timeout
 * covers the whole exchange, body included) and in size (at most `maxBodyBytes` are read). Every
 * failure of the server (timeout, refused or reset connection, an oversized or non-JSON body)
 * comes back as data, never as a thrown error: faults are findings.
 */

import { parseExact } from './exact-json.ts';
import { type Fault, previewOf, type ReceivedResponse } from './exchange.ts';

/** The outcome of one HTTP round trip. */
export type SendOutcome =
  | { readonly response: ReceivedResponse; readonly fault?: undefined }
  | { readonly fault: Fault; readonly response?: undefined };

/** What goes on the wire. */
export interface WireRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
  readonly timeoutMs: number;
  /** Most body bytes to read; a longer body is an `oversized` fault (default 4 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** Default the global fetch. */
  readonly fetch?: typeof fetch | undefined;
  /** Applied to the body before any preview of it is cut (see ReceivedResponse.preview). */
  readonly redact?: ((text: string) => string) | undefined;
}

/** Default of `--max-body-bytes`: far above any page of 100 pets with reasonable names. */
export const defaultMaxBodyBytes = 4 * 1024 * 1024;

/** The body was larger than the harness reads. */
class OversizedBody extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`body larger than ${limit} bytes`);
    this.limit = limit;
  }
}

/** Reads at most `limit` bytes of a body as UTF-8; throws OversizedBody past it. */
async function readBounded(response: Response, limit: number): Promise<string> {
  const length = Number(response.headers.get('Content-Length') ?? Number.NaN);
  if (length > limit) {
    await response.body?.cancel().catch(() => {});
    throw new OversizedBody(limit);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    read += value.byteLength;
    if (read > limit) {
      await reader.cancel().catch(() => {});
      throw new OversizedBody(limit);
    }
    text += decoder.decode(value, { stream: true });
  }
}

function classify(error: unknown, timeoutMs: number): Fault {
  if (error instanceof OversizedBody)
    return {
      kind: 'oversized',
      message: `the answer's body is larger than ${error.limit} bytes, so the harness stopped reading it (--max-body-bytes)`,
    };
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return { kind: 'timeout', message: `no answer within ${timeoutMs} ms (--timeout)` };
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  const detail = `${code} ${cause?.message ?? (error as Error).message ?? String(error)}`.trim();
  if (/ECONNRESET|UND_ERR_SOCKET|EPIPE|other side closed/i.test(detail))
    return { kind: 'reset', message: `connection reset: ${detail}` };
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT/i.test(detail))
    return { kind: 'connection', message: `cannot connect: ${detail}` };
  return { kind: 'other', message: `request failed: ${detail}` };
}

/** Sends a request and reads the answer within the timeout. */
export async function send(request: WireRequest): Promise<SendOutcome> {
  let response: Response;
  let text: string;
  try {
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    };
    if (request.body !== undefined) init.body = request.body;
    response = await (request.fetch ?? fetch)(request.url, init);
    text = await readBounded(response, request.maxBodyBytes ?? defaultMaxBodyBytes);
  } catch (error) {
    return { fault: classify(error, request.timeoutMs) };
  }
  let json: unknown;
  let exact: unknown;
  if (text !== '') {
    try {
      json = JSON.parse(text);
      exact = parseExact(text);
    } catch {
      json = undefined;
    }
  }
  const redact = request.redact ?? ((value: string) => value);
  return {
    response: {
      status: response.status,
      headers: response.headers,
      text,
      json,
      exact,
      preview: previewOf(text, redact),
    },
  };
}
