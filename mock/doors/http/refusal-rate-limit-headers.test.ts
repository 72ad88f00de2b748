/**
 * "X-RateLimit-Limit: Limit applying to the caller" (interface: Limits, rate-limit headers on
 * every response), for the answers the fake gives before its rate limit looks at a request: the
 * HTTP door's own refusals (parser, body size, Expect, CONNECT, Host) and the core's (URL length,
 * unknown path, a Host it does not answer to). Each carries the plan and window of the key the
 * request sent, and spends nothing of it. Raw sockets, as a client sends them.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFake, type FakeWithCore } from '../../core/fake.ts';
import { type HttpDoor, listenHttp } from './http-server.ts';

let fake: FakeWithCore;
let door: HttpDoor;
let port: number;

beforeAll(async () => {
  fake = await createFake();
  door = await listenHttp(fake.behaviour, { port: 0, origin: fake.config.origins[0] as string });
  port = (door.server.address() as { port: number }).port;
});
afterAll(() => door.close());

/** Status and headers (names lower-cased) of the one answer to `request`, read until close. */
async function exchange(
  request: string,
): Promise<{ status: number; headers: Map<string, string> }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'connect');
  socket.end(request);
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('latin1');
  const [statusLine = '', ...lines] = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
  const headers = new Map(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  return { status: Number(statusLine.slice(9, 12)), headers };
}

const host = 'Host: 127.0.0.1:4010';
/** The refusals made before the rate limit, each with the request that earns it. */
const refusals = (auth: string) => [
  {
    what: '413 payload_too_large (Content-Length over 1 MiB, body never sent)',
    status: 413,
    request: `POST /v1/pets HTTP/1.1\r\n${host}\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n`,
  },
  {
    what: '414 uri_too_long from the core (target over 8,192 characters)',
    status: 414,
    request: `GET /v1/pets?q=${'a'.repeat(9000)} HTTP/1.1\r\n${host}\r\n${auth}\r\nConnection: close\r\n\r\n`,
  },
  {
    what: "414 uri_too_long from Node's parser (request line over 16 KiB)",
    status: 414,
    request: `GET /v1/pets?q=${'a'.repeat(20_000)} HTTP/1.1\r\n${host}\r\n${auth}\r\n\r\n`,
  },
  {
    what: '431 request_header_too_large (a 20 KB header after the key)',
    status: 431,
    request: `GET /v1/pets HTTP/1.1\r\n${host}\r\n${auth}\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
  },
  {
    what: '431 request_header_too_large (a 20 KB header before the key)',
    status: 431,
    request: `GET /v1/pets HTTP/1.1\r\n${host}\r\nX-Big: ${'b'.repeat(20_000)}\r\n${auth}\r\n\r\n`,
  },
  {
    what: '417 expectation_failed',
    status: 417,
    request: `GET /v1/pets HTTP/1.1\r\n${host}\r\n${auth}\r\nExpect: 200-ok\r\n\r\n`,
  },
  {
    what: '403 host_not_allowed (DNS rebinding guard)',
    status: 403,
    request: `GET /v1/pets HTTP/1.1\r\nHost: attacker.example\r\n${auth}\r\nConnection: close\r\n\r\n`,
  },
  {
    what: '400 bad_request (HTTP/1.1 without Host)',
    status: 400,
    request: `GET /v1/pets HTTP/1.1\r\n${auth}\r\n\r\n`,
  },
  {
    what: '405 method_not_allowed (CONNECT)',
    status: 405,
    request: `CONNECT 127.0.0.1:4010 HTTP/1.1\r\n${host}\r\n${auth}\r\n\r\n`,
  },
  {
    what: '404 route_not_found (outside /v1)',
    status: 404,
    request: `GET /nowhere HTTP/1.1\r\n${host}\r\n${auth}\r\nConnection: close\r\n\r\n`,
  },
];

test.each([
  { key: 'pro-demo-key', limit: 300 },
  { key: 'enterprise-demo-key', limit: 10_000 },
])(
  'every refusal made before the rate limit carries the plan and window of $key, and spends none of it',
  async ({ key, limit }) => {
    const auth = `Authorization: Bearer ${key}`;
    const list = `GET /v1/pets?limit=1 HTTP/1.1\r\n${host}\r\n${auth}\r\nConnection: close\r\n\r\n`;
    fake.control.freezeTime(true); // one minute window for the whole test
    try {
      const first = await exchange(list);
      expect(first.status).toBe(200);
      const remaining = Number(first.headers.get('x-ratelimit-remaining'));
      expect(remaining).toBe(limit - 1);
      const seen = [];
      for (const refusal of refusals(auth)) {
        const answer = await exchange(refusal.request);
        seen.push({
          what: refusal.what,
          status: answer.status,
          limit: answer.headers.get('x-ratelimit-limit'),
          remaining: answer.headers.get('x-ratelimit-remaining'),
          reset: answer.headers.get('x-ratelimit-reset'),
        });
      }
      expect(seen).toEqual(
        refusals(auth).map(({ what, status }) => ({
          what,
          status,
          limit: String(limit),
          remaining: String(remaining),
          reset: first.headers.get('x-ratelimit-reset'),
        })),
      );
      // Nothing was spent by the refusals: the next list is the second request counted.
      const after = await exchange(list);
      expect(after.headers.get('x-ratelimit-remaining')).toBe(String(limit - 2));
    } finally {
      fake.control.freezeTime(false);
      await fake.control.reset();
    }
  },
);

test('a refusal to a request with no key or an unknown one carries the anonymous (Free) limits', async () => {
  for (const auth of ['X-No-Key: 1', 'Authorization: Bearer not-a-known-key']) {
    for (const refusal of refusals(auth)) {
      const answer = await exchange(refusal.request);
      expect([refusal.what, answer.status, answer.headers.get('x-ratelimit-limit')]).toEqual([
        refusal.what,
        refusal.status,
        '60',
      ]);
      expect(answer.headers.get('x-ratelimit-remaining')).toBe('60');
    }
  }
});
