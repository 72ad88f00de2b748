/**
 * For the replicas' tests: a front that balances per request over several servers, as a
 * Kubernetes Service's L7 ingress or any round-robin balancer does, so that two requests in a
 * row, even on one client connection, reach two different replicas. It is http-proxy 1.18 as
 * its own balancer example sets it up (examples/balancer/simple-balancer.js: `proxy.web(req,
 * res, { target })` with the target rotating on each request), and it forwards the request
 * untouched, Host included, as a balancer in front of a Deployment does; `--allowed-hosts` then
 * names the front's host.
 */
import { Agent, createServer } from 'node:http';
import httpProxy from 'http-proxy';
import { listenOnLoopback, type RealServer } from '../harness-fixtures/real-servers/real-server.ts';

/** A running front, and how many requests it sent to each server. */
export interface RoundRobinFront extends RealServer {
  /** Requests forwarded to each target so far, in the targets' order. */
  forwarded(): readonly number[];
}

/**
 * Starts a front over `targets` (base URLs) on a free loopback port; a request whose server
 * cannot be reached gets a 502 with an empty body, as nginx's proxy_pass answers one.
 */
export async function startRoundRobinFront(targets: readonly string[]): Promise<RoundRobinFront> {
  const origins = targets.map((target) => new URL(target).origin);
  const counts = origins.map(() => 0);
  // A new upstream connection per request: a reused one that a replica's keep-alive time-out is
  // closing would meet a reset, the front's 502 and not the replica's answer.
  const proxy = httpProxy.createProxyServer({ agent: new Agent({ keepAlive: false }) });
  let turn = 0;
  const front = createServer((request, response) => {
    const index = turn;
    turn = (turn + 1) % origins.length;
    counts[index] = (counts[index] ?? 0) + 1;
    proxy.web(request, response, { target: origins[index] }, () => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { 'Content-Length': 0 }).end();
    });
  });
  const listening = await listenOnLoopback(front);
  return {
    ...listening,
    forwarded: () => [...counts],
    close: async () => {
      proxy.close();
      await listening.close();
    },
  };
}
