/**
 * Answers for requests that never reach the handlers because Node's HTTP parser refused them
 * (headers too large, malformed request line, time-outs). Node's default is a bare status line;
 * the interface promises an Error body on every error, so the door writes one itself.
 */

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Answer, errorAnswer } from '../../base/messages/answer.ts';
import type { ErrorCode } from '../../base/messages/errors.ts';
import { maxUrlLength } from '../../core/assembly.ts';

/** Limits of the HTTP door: sizes in bytes, times in ms. */
export const doorLimits = {
  /** Request line plus headers; Node's default, stated here so the README and tests agree. */
  maxHeaderSize: 16 * 1024,
  /** Time allowed to receive the headers of a request. */
  headersTimeout: 10_000,
  /** Time allowed to receive a whole request, body included. */
  requestTimeout: 30_000,
  /**
   * Idle time before a kept-alive connection is closed: past a rate limit's longest Retry-After
   * (a minute), so a client that waits it out keeps its connection (clients honour the
   * `Keep-Alive: timeout` it sends) and the client report sees one connection per client.
   */
  keepAliveTimeout: 65_000,
  /** How often Node checks the two time-outs above (its default, 30 s, would let them run late). */
  connectionsCheckingInterval: 1_000,
  /**
   * Requests one connection may have waiting for their answers before the door stops reading
   * it (pipelining); it reads on once half of them are answered. Nothing is dropped.
   */
  maxPipelined: 128,
  /** Time a socket's answers may wait with the client taking none of them before it is closed. */
  stallTimeout: 10_000,
  /** On shutdown, time requests in flight get to finish before every connection is closed. */
  shutdownGrace: 5_000,
} as const;

/** The door's limits, as numbers. */
export type DoorLimits = Record<keyof typeof doorLimits, number>;

/** Whether the request line in the bytes the parser refused is longer than `maxUrlLength`. */
function requestLineTooLong(rawPacket: unknown): boolean {
  if (!Buffer.isBuffer(rawPacket)) return false;
  const end = rawPacket.indexOf('\r\n');
  return (end === -1 ? rawPacket.length : end) > maxUrlLength;
}

/**
 * The Authorization header of the request in the bytes the parser refused, when they hold its
 * whole line: the refusal then shows the caller's plan. Node hands over the chunk it was parsing
 * (up to 64 KiB), which holds the request from its start when the client sent it in one piece.
 */
export function authorizationIn(rawPacket: unknown): string | null {
  if (!Buffer.isBuffer(rawPacket)) return null;
  // The head, each line with its CRLF; a last line the packet cut short has none, and is not read.
  const end = rawPacket.indexOf('\r\n\r\n');
  // latin1: one character per byte, as header values travel (RFC 9110, 5.5).
  const head = rawPacket.toString('latin1', 0, end === -1 ? rawPacket.length : end + 2);
  return /\r\nauthorization:[ \t]*([^\r\n]*?)[ \t]*\r\n/i.exec(head)?.[1] ?? null;
}

/** Maps a Node HTTP parser error to the Error the client gets. */
function classifyClientError(error: NodeJS.ErrnoException & { rawPacket?: unknown }): ErrorCode {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineTooLong(error.rawPacket) ? 'uri_too_long' : 'request_header_too_large';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADER_TIMEOUT':
      return 'request_timeout';
    default:
      return 'bad_request';
  }
}

/** Writes an answer on a raw socket with `Connection: close`, then closes it once flushed. */
export function writeRawError(socket: Duplex, answer: Answer): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = answer.body ?? '';
  const lines = [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}`,
    ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  // Destroy once flushed: a client that never reads would otherwise hold a half-closed socket.
  socket.once('finish', () => socket.destroy());
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** Writes a complete Error response for a parser error on a raw socket and closes it. */
export function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Duplex,
  headers: Record<string, string> = {},
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  writeRawError(socket, errorAnswer(classifyClientError(error), undefined, headers));
}
