/**
 * A pass-through HTTP proxy that counts what crosses it: how many requests a client sent and
 * which statuses came back. The bench puts it between the contract harness and the fake, so the
 * count does not depend on what the harness says about itself.
 */
import { once } from 'node:events';
import { Agent, createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy saw. */
export interface ProxyCounts {
  readonly requests: number;
  /** Count per status code; `error` for requests the upstream never answered. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Requests to the fake's control surface (`/__control/`): a run against a URL must send none. */
  readonly control: number;
}

/** A running counting proxy. */
export interface CountingProxy {
  /** e.g. `http://127.0.0.1:43123` */
  readonly origin: string;
  counts(): ProxyCounts;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 that forwards everything to `upstream` (an origin). */
export async function startCountingProxy(upstream: string): Promise<CountingProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  let requests = 0;
  let control = 0;
  const statuses: Record<string, number> = {};
  const count = (status: string) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  const server = createServer((incoming, outgoing) => {
    requests += 1;
    if (incoming.url?.startsWith('/__control')) control += 1;
    const upstreamRequest = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
        agent,
      },
      (answer) => {
        count(String(answer.statusCode));
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstreamRequest.on('error', () => {
      count('error');
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstreamRequest);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    counts: () => ({ requests, statuses: { ...statuses }, control }),
    close: async () => {
      server.closeAllConnections();
      server.close();
      agent.destroy();
      await once(server, 'close');
    },
  };
}
