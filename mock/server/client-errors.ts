/**
 * Answers for requests that never reach the handlers because Node's HTTP parser refused them
 * (headers too large, malformed request line, time-outs). Node's default is a bare status line;
 * the interface promises an Error body on every error, so the door writes one itself.
 */

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { stringifyJson } from '../contract/lossless-json.ts';
import { type ErrorCode, errorBody } from '../core/errors.ts';

/** Limits of the HTTP door: sizes in bytes, times in ms. */
export const doorLimits = {
  /** Request line plus headers; Node's default, stated here so the README and tests agree. */
  maxHeaderSize: 16 * 1024,
  /** Time allowed to receive the headers of a request. */
  headersTimeout: 10_000,
  /** Time allowed to receive a whole request, body included. */
  requestTimeout: 30_000,
  /** Idle time before a kept-alive connection is closed. */
  keepAliveTimeout: 5_000,
  /** How often Node checks the two time-outs above (its default, 30 s, would let them run late). */
  connectionsCheckingInterval: 1_000,
} as const;

/** Maps a Node HTTP parser error code to the Error the client gets. */
function classifyClientError(code: string | undefined): ErrorCode {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'request_header_too_large';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADER_TIMEOUT':
      return 'request_timeout';
    default:
      return 'bad_request';
  }
}

/** Writes a complete Error response on a raw socket and closes it; `headers` are added as given. */
export function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  headers: Record<string, string> = {},
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const body = errorBody(classifyClientError(error.code));
  const text = stringifyJson(body);
  const lines = [
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  // Destroy once flushed: a client that never reads would otherwise hold a half-closed socket.
  socket.once('finish', () => socket.destroy());
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}
