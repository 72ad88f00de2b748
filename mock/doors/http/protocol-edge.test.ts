/**
 * Requests real clients and proxies send at the edge of HTTP, on every door: over-long URLs,
 * requests Node's parser refuses, CONNECT, CORS preflights, HEAD. Raw `node:net` sockets where a
 * client library cannot express the request.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFake, type FakeWithCore } from '../../core/fake.ts';
import { type HttpDoor, listenHttp } from './http-server.ts';

const key = 'Bearer enterprise-demo-key';
let fake: FakeWithCore;
let door: HttpDoor;
let port: number;
let origin: string;

beforeAll(async () => {
  fake = await createFake();
  origin = fake.config.origins[0] as string;
  door = await listenHttp(fake.behaviour, { port: 0, origin });
  port = (door.server.address() as { port: number }).port;
});
afterAll(() => door.close());

/** Sends raw bytes and reads until the server closes or `idleMs` passes without data. */
async function raw(bytes: string, idleMs = 300): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let reply = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk) => (reply += chunk));
  socket.on('error', () => {});
  socket.write(bytes);
  await new Promise<void>((resolve) => {
    let timer = setTimeout(resolve, idleMs);
    socket.on('data', () => {
      clearTimeout(timer);
      timer = setTimeout(resolve, idleMs);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  socket.destroy();
  return reply;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(reply: string): RawAnswer {
  const end = reply.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = reply.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: reply.slice(end + 4) };
}

function expectErrorAnswer(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(JSON.parse(answer.body)).toMatchObject({ code, status });
  expect(answer.headers['content-type']).toBe('application/json');
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(answer.headers[name], name).toMatch(/^\d+$/);
}

const longPaths = [`/v1/pets/${'9'.repeat(9000)}`, `/v1${'/a'.repeat(4500)}`];

test('URLs over 8,192 characters get 414 uri_too_long on the HTTP door, also past the header limit', async () => {
  for (const path of longPaths) {
    const answer = parse(await raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    expectErrorAnswer(answer, 414, 'uri_too_long');
  }
  // Past Node's 16 KiB header limit the parser refuses it before the core sees it.
  const huge = parse(await raw(`GET /v1/pets/${'1'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
  expectErrorAnswer(huge, 414, 'uri_too_long');
  // 8,192 characters exactly is still answered.
  const edge = `/v1/pets?limit=2&pad=${'x'.repeat(8192 - '/v1/pets?limit=2&pad='.length)}`;
  const ok = parse(
    await raw(`GET ${edge} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key}\r\n\r\n`),
  );
  expect(ok.status).toBe(200);
});

test('URLs over 8,192 characters get 414 through fake.fetch, setupServer and the msw handlers', async () => {
  const server = setupServer(...fake.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  try {
    for (const path of longPaths) {
      const init = { headers: { Authorization: key } };
      for (const response of [
        await fake.fetch(`${origin}${path}`, init),
        await fetch(`${origin}${path}`, init),
        await getResponse(fake.handlers, new Request(`${origin}${path}`, init)),
      ]) {
        expect(response?.status).toBe(414);
        expect(await response?.json()).toMatchObject({ code: 'uri_too_long', status: 414 });
        expect(response?.headers.get('X-RateLimit-Limit')).toMatch(/^\d+$/);
      }
    }
  } finally {
    server.close();
  }
});

test('requests the parser refuses get an Error body with the anonymous rate-limit headers', async () => {
  const expectation = parse(
    await raw(`GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\n\r\n`),
  );
  expectErrorAnswer(expectation, 417, 'expectation_failed');
  const noHost = parse(await raw('GET /v1/pets HTTP/1.1\r\nAuthorization: x\r\n\r\n'));
  expectErrorAnswer(noHost, 400, 'bad_request');
  expect(JSON.parse(noHost.body).message).toMatch(/Host/);
  const framing = parse(
    await raw(
      'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ),
  );
  expectErrorAnswer(framing, 400, 'bad_request');
  const badChunk = parse(
    await raw(
      'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ),
  );
  expectErrorAnswer(badChunk, 400, 'bad_request');
  const tunnel = parse(
    await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
  );
  expectErrorAnswer(tunnel, 405, 'method_not_allowed');
  // HTTP/1.0 has no Host requirement.
  const old = parse(await raw(`GET /v1/pets?limit=1 HTTP/1.0\r\nAuthorization: ${key}\r\n\r\n`));
  expect(old.status).toBe(200);
});

test('CORS preflights carry the X-RateLimit-* headers on the HTTP door and fake.fetch', async () => {
  const preflight = `OPTIONS /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:5173\r\nAccess-Control-Request-Method: POST\r\n\r\n`;
  const answer = parse(await raw(preflight));
  expect(answer.status).toBe(204);
  expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  expect(answer.headers['x-ratelimit-limit']).toBe('60');
  expect(answer.headers['x-ratelimit-remaining']).toBe('60');
  const viaFetch = await fake.fetch(`${origin}/v1/pets/1`, {
    method: 'OPTIONS',
    headers: { Origin: 'http://localhost:5173' },
  });
  expect(viaFetch.status).toBe(204);
  expect(viaFetch.headers.get('X-RateLimit-Reset')).toMatch(/^\d+$/);
});

test('HEAD on the GET routes answers as GET, without a body', async () => {
  const get = parse(
    await raw(
      `GET /v1/pets?limit=3 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key}\r\nConnection: close\r\n\r\n`,
    ),
  );
  const head = parse(
    await raw(
      `HEAD /v1/pets?limit=3 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key}\r\nConnection: close\r\n\r\n`,
    ),
  );
  expect(head.status).toBe(200);
  expect(head.body).toBe('');
  expect(head.headers['content-length']).toBe(get.headers['content-length']);
  expect(head.headers['content-type']).toBe('application/json');
  const pet = await fake.fetch(`${origin}/v1/pets/1`, {
    method: 'HEAD',
    headers: { Authorization: key },
  });
  expect(pet.status).toBe(200);
  expect(pet.headers.get('Deprecation')).not.toBeNull();
  expect(await pet.text()).toBe('');
  const missing = await fake.fetch(`${origin}/v1/pets/999999`, {
    method: 'HEAD',
    headers: { Authorization: key },
  });
  expect(missing.status).toBe(404);
  const anonymous = await fake.fetch(`${origin}/v1/pets`, { method: 'HEAD' });
  expect(anonymous.status).toBe(401);
});

test('an absolute-form request target is answered as the door origin, whatever host it names', async () => {
  const answer = parse(
    await raw(
      `GET http://other.example:9/v1/pets/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key}\r\nConnection: close\r\n\r\n`,
    ),
  );
  expect(answer.status).toBe(200);
  expect(answer.headers.link).toContain(`${origin}/v1/pets`);
  expect(answer.headers.link).not.toContain('other.example');
});

/** Sends `parts` on one socket, `gapMs` apart, and returns every answer read until it closes. */
async function sentInParts(parts: readonly (string | Buffer)[], gapMs: number): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const reply: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => reply.push(chunk));
  const closed = once(socket, 'close');
  for (const [index, part] of parts.entries()) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    socket.write(part);
  }
  await closed;
  return Buffer.concat(reply).toString('utf8');
}

test("a create's body is read whole however it arrives: with its headers, after them, in pieces, chunked, pipelined, after 100 Continue", async () => {
  // The door takes a body that came with its headers straight from Node's buffer, and waits for
  // one that did not (RFC 9112 section 6: a body may arrive in any number of packets).
  const create = (name: string, last = false) => {
    const body = JSON.stringify({ name, categoryId: 1 });
    const connection = last ? 'Connection: close\r\n' : '';
    return `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\n${connection}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const names = (reply: string) =>
    [...reply.matchAll(/\{"id":\d+,"name":"([^"]+)"/g)].map((match) => match[1]);
  const whole = await sentInParts([create('with its headers', true)], 0);
  expect(names(whole)).toEqual(['with its headers']);
  const after = create('after its headers', true);
  const split = after.indexOf('\r\n\r\n') + 4;
  expect(names(await sentInParts([after.slice(0, split), after.slice(split)], 60))).toEqual([
    'after its headers',
  ]);
  const pieces = create('in three pieces, one of them mid-character: 八', true);
  const bytes = Buffer.from(pieces);
  const cuts = [bytes.length - 9, bytes.length - 4];
  const parts = [
    bytes.subarray(0, cuts[0]),
    bytes.subarray(cuts[0], cuts[1]),
    bytes.subarray(cuts[1]),
  ];
  expect(names(await sentInParts(parts, 40))).toEqual([
    'in three pieces, one of them mid-character: 八',
  ]);
  const chunkedBody = JSON.stringify({ name: 'chunked', categoryId: 1 });
  const chunked = `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${(10).toString(16)}\r\n${chunkedBody.slice(0, 10)}\r\n${(chunkedBody.length - 10).toString(16)}\r\n${chunkedBody.slice(10)}\r\n0\r\n\r\n`;
  expect(names(await sentInParts([chunked], 0))).toEqual(['chunked']);
  const pipelined = await sentInParts(
    [create('first') + create('second') + create('third', true)],
    0,
  );
  expect(names(pipelined)).toEqual(['first', 'second', 'third']);
  // curl sends Expect: 100-continue with a larger body and holds it back until told to go on.
  const expecting = create('after 100 Continue', true).replace(
    'Connection: close\r\n',
    'Connection: close\r\nExpect: 100-continue\r\n',
  );
  const held = expecting.indexOf('\r\n\r\n') + 4;
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let continued = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (continued += chunk));
  const closed = once(socket, 'close');
  socket.write(expecting.slice(0, held));
  while (!continued.includes('\r\n\r\n')) await once(socket, 'data');
  expect(continued).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/);
  socket.write(expecting.slice(held));
  await closed;
  expect(names(continued)).toEqual(['after 100 Continue']);
  const empty = parse(
    await raw(
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    ),
  );
  expectErrorAnswer(empty, 400, 'missing_body');
});
