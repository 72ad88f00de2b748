import { once } from 'node:events';
import { createServer } from 'node:net';
import { expect, test } from 'vitest';
import { ControlInputError as RootControlInputError } from '../../index.ts';
import { expectRequests, RequestCountError } from '../../qa.ts';
import { startFake } from '../cli/start-fake.ts';
import { ControlInputError, connectFake } from './connect-fake.ts';

const headers = { Authorization: 'Bearer free-demo-key' };
// A made-up token for this test's own fake, never a real secret (at least 16 characters).
const token = 'connect-fake-test-token';

test('connectFake drives a fake of another process over HTTP: every control function, each a promise', async () => {
  const started = await startFake({ controlAccess: { token } });
  try {
    const fake = connectFake(started.controlUrl, { token });
    await fake.control.freezeTime(true);
    await fake.control.setTime(Date.parse('2026-06-01T12:00:00Z'));
    expect(await fake.control.now()).toBe(Date.parse('2026-06-01T12:00:00Z'));
    // The positional force, then the stub form: both of RemoteForce's forms.
    const rule = await fake.control.force('listPets', 503, 1);
    expect(rule).toMatchObject({ status: 503, remaining: 1 });
    expect((await fetch(`${started.url}/pets`, { headers })).status).toBe(503);
    const stub = await fake.control.force({
      operationId: 'getPet',
      count: 1,
      answer: { status: 200, body: { id: 1, name: 'Stubbed', categoryId: 1, status: 'sold' } },
    });
    expect(stub.operationId).toBe('getPet');
    expect(await (await fetch(`${started.url}/pets/1`, { headers })).json()).toMatchObject({
      name: 'Stubbed',
    });
    // What the in-process control sees is what the remote one says.
    expect(await fake.control.describe()).toEqual(started.control.describe());
    await fake.control.reset('empty');
    expect(started.control.describe().pets).toBe(0);
  } finally {
    await started.close();
  }
});

test('expectRequests takes a connected fake, and its near misses read as they do in process', async () => {
  const started = await startFake();
  try {
    const fake = connectFake(started.controlUrl);
    await fetch(`${started.url}/pets?limit=1`, { headers });
    await fetch(`${started.url}/pets`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    const [created] = await expectRequests(fake, { method: 'POST', operationId: 'createPet' }, 1);
    expect(created?.status).toBe(201);
    const miss = await expectRequests(fake, { method: 'POST', status: 400 }, 1).catch(
      (error: unknown) => error,
    );
    expect(miss).toBeInstanceOf(RequestCountError);
    expect((miss as RequestCountError).nearMisses.map((near) => near.entry.status)).toEqual([201]);
  } finally {
    await started.close();
  }
});

test("a refusal there is a ControlInputError here, with its code, the root entry's class", async () => {
  const started = await startFake();
  try {
    const fake = connectFake(`${started.controlUrl}/`);
    const error = await fake.control.updateKey('nobody', { plan: 'pro' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlInputError);
    expect(ControlInputError).toBe(RootControlInputError);
    expect(error).toMatchObject({ code: 'control_not_found', message: /unknown key id "nobody"/ });
    // Not a function of fake.control: a TypeError that names it, as the browser door says.
    const missing = (fake.control as unknown as Record<string, () => Promise<unknown>>).nope;
    await expect(missing?.()).rejects.toThrow('fake.control has no function "nope"');
  } finally {
    await started.close();
  }
});

test('a wrong token, the API base URL or a fake that is gone each fail with one line saying what to do', async () => {
  const started = await startFake({ controlAccess: { token } });
  const { controlUrl, url } = started;
  try {
    await expect(
      connectFake(controlUrl, { token: 'not-the-token-at-all' }).control.now(),
    ).rejects.toThrow(
      `petstore-fake: connectFake(${controlUrl}): the control surface answered 403: send the control token as X-Control-Token`,
    );
    await expect(connectFake(url, { token }).control.now()).rejects.toThrow(
      /answered 401.*pass the control surface's URL \(startFake's `controlUrl`/,
    );
    expect(() => connectFake('127.0.0.1:4010/__control')).toThrow(
      /give the control surface's http\(s\) URL/,
    );
  } finally {
    await started.close();
  }
  await expect(connectFake(controlUrl, { token }).control.now()).rejects.toThrow(
    /cannot reach the fake: .*; is it running\?/,
  );
});

test('POST /__control/call refuses a body that names no method or gives args that are not a list', async () => {
  const started = await startFake();
  try {
    const send = (body: unknown) =>
      fetch(`${started.controlUrl}/call`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const noMethod = await send({ args: [] });
    expect(noMethod.status).toBe(400);
    expect(await noMethod.json()).toMatchObject({
      code: 'invalid_control_request',
      message: 'method must be a string',
    });
    expect((await send({ method: 'now', args: 1 })).status).toBe(400);
    expect((await send({ method: 'now', extra: true })).status).toBe(400);
  } finally {
    await started.close();
  }
});

test('a call with no answer fails after its time-out, and a reply longer than the cap is refused unread', async () => {
  // A server that takes the request and never answers; then one that announces a huge reply.
  const silent = createServer(() => {}).listen(0, '127.0.0.1');
  const huge = createServer((socket) =>
    socket.once('data', () =>
      socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300000000\r\n\r\n',
      ),
    ),
  ).listen(0, '127.0.0.1');
  await Promise.all([once(silent, 'listening'), once(huge, 'listening')]);
  const urlOf = (server: typeof silent) =>
    `http://127.0.0.1:${(server.address() as { port: number }).port}/__control`;
  try {
    await expect(connectFake(urlOf(silent), { timeoutMs: 200 }).control.describe()).rejects.toThrow(
      /: describe had no answer within 200 ms$/,
    );
    await expect(connectFake(urlOf(huge)).control.describe()).rejects.toThrow(
      /the reply is longer than 268435456 bytes/,
    );
  } finally {
    silent.close();
    huge.close();
  }
});
