/**
 * The replicas' front: requests on one keep-alive connection go to each server in turn, bodies
 * and the Host header reach the server untouched, and a server that is down gets a 502.
 */
import { Agent, createServer, request, type Server } from 'node:http';
import { afterAll, expect, test } from 'vitest';
import { listenOnLoopback, type RealServer } from '../harness-fixtures/real-servers/real-server.ts';
import { freePort } from './fake-process.ts';
import { startRoundRobinFront } from './round-robin-front.ts';

const started: RealServer[] = [];
afterAll(async () => {
  for (const server of started.splice(0)) await server.close();
});

/** A server that answers with its name, the Host it was sent and the body it read. */
async function echo(name: string): Promise<string> {
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () =>
      response.end(JSON.stringify({ name, host: request.headers.host, body })),
    );
  });
  const listening = await listenOnLoopback(server);
  started.push(listening);
  return listening.baseUrl;
}

test('requests on one connection reach each server in turn, body and Host untouched', async () => {
  const targets = await Promise.all(['a', 'b', 'c'].map(echo));
  const front = await startRoundRobinFront(targets);
  started.push(front);
  // One socket, kept alive: the front balances requests, not connections.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();
  const seen: unknown[] = [];
  for (let index = 0; index < 6; index++)
    seen.push(
      await new Promise((resolve, reject) => {
        const sent = request(`${front.baseUrl}/pets`, {
          method: 'POST',
          headers: { Host: 'petstore.test' },
          agent,
        });
        sent.on('socket', (socket) => sockets.add(socket));
        sent.on('error', reject);
        sent.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve(JSON.parse(text)));
        });
        sent.end(`pet ${index}`);
      }),
    );
  expect(sockets.size).toBe(1);
  expect(seen).toEqual(
    ['a', 'b', 'c', 'a', 'b', 'c'].map((name, index) => ({
      name,
      host: 'petstore.test',
      body: `pet ${index}`,
    })),
  );
  expect(front.forwarded()).toEqual([2, 2, 2]);
  agent.destroy();
});

test('a server that is down gets a 502 from the front, and the next request goes on', async () => {
  const up = await echo('up');
  const front = await startRoundRobinFront([`http://127.0.0.1:${await freePort()}/v1`, up]);
  started.push(front);
  expect((await fetch(`${front.baseUrl}/pets`)).status).toBe(502);
  expect(await (await fetch(`${front.baseUrl}/pets`)).json()).toMatchObject({ name: 'up' });
});
