/**
 * The harness section's count, read from a real fake's request log: the CLI from source, as a
 * child process, with the bench's own ready check left out.
 */
import { expect, test } from 'vitest';
import { freePort, startServer } from './processes.ts';
import { createRequestLogCounter, readyCheckClient } from './request-log-counts.ts';
import { fakeSourceCli, projectRoot } from './servers.ts';

test('counts every answered request by status and the control-surface ones, not the ready check', async () => {
  const port = await freePort(true);
  const counter = createRequestLogCounter();
  const origin = `http://127.0.0.1:${port}`;
  const fake = await startServer({
    name: 'fake',
    script: fakeSourceCli,
    args: ['--port', String(port), '--no-staging'],
    cwd: projectRoot,
    readyUrl: `${origin}/v1/pets?limit=1`,
    readyHeaders: { Authorization: 'Bearer pro-demo-key', 'X-Client-Id': readyCheckClient },
    onLine: counter.line,
  });
  try {
    const key = { Authorization: 'Bearer pro-demo-key' };
    const statuses = [
      (await fetch(`${origin}/v1/pets?limit=2`, { headers: key })).status,
      (await fetch(`${origin}/v1/pets/999999`, { headers: key })).status,
      (await fetch(`${origin}/v1/pets`)).status,
      (await fetch(`${origin}/v1/pets?note=a%20b`, { headers: key })).status,
      (await fetch(`${origin}/__control/state`)).status,
    ];
    expect(statuses).toEqual([200, 404, 401, 200, 200]);
  } finally {
    await fake.stop();
  }
  expect(counter.counts()).toEqual({
    requests: 5,
    statuses: { '200': 3, '404': 1, '401': 1 },
    control: 1,
  });
});
