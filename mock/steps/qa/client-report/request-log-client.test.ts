/**
 * The client id on every request-log line, so a client's timeline can be rebuilt from the log
 * beside the client report (which keeps only each client's latest requests and waits).
 */
import { expect, test } from 'vitest';
import { createFake } from '../../../core/fake.ts';
import { formatExchange } from '../../../doors/cli/request-log-line.ts';
import { listenHttp } from '../../../doors/http/http-server.ts';
import type { ExchangeRecord } from '../../../pipeline/config/config.ts';

test('every /v1 log line names the client as the report does, never a secret in any encoding; control lines do not', async () => {
  const records: ExchangeRecord[] = [];
  const token = 'qa-log-test-token-0123456789';
  const fake = await createFake({
    onExchange: (record) => records.push(record),
    controlAccess: { token },
  });
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  try {
    const base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
    const auth = { Authorization: 'Bearer free-demo-key' };
    for (const init of [
      { headers: { ...auth, 'X-Client-Id': 'checkout web' } },
      { headers: { ...auth, 'User-Agent': 'my-agent/1.0' } },
      { headers: { 'X-Client-Id': 'no-key-app' } },
      { headers: { ...auth, 'X-Client-Id': 'app free-demo-key' } },
      { headers: { ...auth, 'X-Client-Id': encodeURIComponent('free-demo-key') } },
      {
        headers: { ...auth, 'User-Agent': `x ${Buffer.from('free-demo-key').toString('base64')}` },
      },
      { headers: { ...auth, 'X-Client-Id': `t=${token}` } },
    ]) {
      const res = await fetch(`${base}/v1/pets?limit=1`, init);
      await res.body?.cancel();
    }
    const control = await fetch(`${base}/__control/state`, {
      headers: { 'X-Control-Token': token },
    });
    await control.body?.cancel();
  } finally {
    await door.close();
  }
  const lines = records.map((record) => formatExchange(record, new Date(0)));
  expect(lines).toEqual([
    expect.stringMatching(/ 200 [\d.]+ms key=demo-free client="checkout web"$/),
    expect.stringMatching(/ 200 [\d.]+ms key=demo-free client="my-agent\/1\.0"$/),
    expect.stringMatching(/ 401 [\d.]+ms key=- error=unauthorized client="no-key-app"$/),
    expect.stringMatching(/ 200 [\d.]+ms key=demo-free client="\[redacted\]"$/),
    expect.stringMatching(/ 200 [\d.]+ms key=demo-free client="\[redacted\]"$/),
    expect.stringMatching(/ 200 [\d.]+ms key=demo-free client="\[redacted\]"$/),
    expect.stringMatching(/ 200 [\d.]+ms key=demo-free client="\[redacted\]"$/),
    expect.stringMatching(/GET \/__control\/state 200 [\d.]+ms control$/),
  ]);
  const log = lines.join('\n');
  for (const secret of ['free-demo-key', token])
    for (const form of [secret, Buffer.from(secret).toString('base64').replace(/=+$/, '')])
      expect(log).not.toContain(form);
});

test('a client id worked out before a key was added is worked out again: the new secret is never logged, not even after a reset removed its key', async () => {
  const records: ExchangeRecord[] = [];
  const fake = await createFake({ seed: 'empty', onExchange: (record) => records.push(record) });
  const secret = 'added-later-secret-0123456789';
  const send = async (key: string) =>
    (
      await fake.fetch('http://127.0.0.1:4010/v1/pets', {
        headers: { Authorization: `Bearer ${key}`, 'X-Client-Id': `app ${secret}` },
      })
    ).status;
  expect(await send('free-demo-key')).toBe(200);
  fake.control.addKey({ id: 'later', key: secret, plan: 'free' });
  expect(await send(secret)).toBe(200);
  await fake.control.reset();
  expect(await send('free-demo-key')).toBe(200);
  expect(records.map((record) => record.clientId)).toEqual([
    `app ${secret}`,
    '[redacted]',
    // A secret the fake once held stays hidden: kept coverage or a report may still show it.
    '[redacted]',
  ]);
});
