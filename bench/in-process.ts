/**
 * In-process: what a test pays per request when it uses the fake through `fake.fetch` (the core,
 * no interception) and through msw's `setupServer` (mock/doors/node/node.ts), against the cheapest
 * real round trip, a loopback `fetch` to the bare ceiling server returning the same bytes, and
 * against msw's `getResponse` over the same handlers called directly (what interception adds).
 * Sequential requests, one at a time; interleaved rounds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getResponse } from 'msw';
import { createFakeServer } from '../mock/doors/node/node.ts';
import type { BenchOptions } from './options.ts';
import { BenchError, freePort, startServer } from './processes.ts';
import { benchHeaders } from './requests.ts';
import { baseUrl, ceilingSpec } from './servers.ts';
import { median } from './stats.ts';

/** Microseconds per sequential request. */
export interface InProcessResult {
  /** `fake.fetch`: the behaviour core, no msw, no socket. */
  readonly fakeFetchUs: number;
  readonly setupServerUs: number;
  /** msw's `getResponse` over the same handlers, called directly: no interception. */
  readonly getResponseUs: number;
  readonly loopbackUs: number;
  /** The process's CPU time per request through setupServer, µs. */
  readonly setupServerCpuUs: number;
  readonly requests: number;
  readonly rounds: number;
}

async function timeRequests(
  url: string,
  count: number,
  send: (request: Request) => Promise<Response | undefined> = fetch,
): Promise<{ wallUs: number; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const response = await send(new Request(url, { headers: benchHeaders }));
    await response?.arrayBuffer();
    if (response?.status !== 200)
      throw new BenchError(`in-process: ${url} answered ${response?.status}, expected 200`);
  }
  const wallUs = ((performance.now() - started) * 1000) / count;
  const used = process.cpuUsage(cpu);
  return { wallUs, cpuUs: (used.user + used.system) / count };
}

/** Runs the in-process section. */
export async function measureInProcess(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<InProcessResult> {
  const limits = { enterpriseLimits: { perMinute: 1e9, perDay: 1e12 } };
  const { server, fake } = await createFakeServer(limits);
  const fakeUrl = `${fake.config.origins[0]}/v1/pets?limit=20`;
  server.listen({ onUnhandledFrame: 'error' });
  const answer = await fetch(fakeUrl, { headers: benchHeaders });
  const body = await answer.text();
  const headers = { 'content-type': answer.headers.get('content-type') ?? 'application/json' };
  server.close();

  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const bodies = join(dir, 'bodies.json');
  writeFileSync(
    bodies,
    JSON.stringify({ 'GET /v1/pets?limit=20': { status: 200, headers, body } }),
  );
  const port = await freePort();
  const ceiling = await startServer(ceilingSpec(port, bodies, '/pets?limit=20'));
  const loopbackUrl = `${baseUrl('ceiling', port)}/pets?limit=20`;
  const count = options.inProcessRequests;
  const setup: number[] = [];
  const setupCpu: number[] = [];
  const loopback: number[] = [];
  const direct: number[] = [];
  const viaFake: number[] = [];
  const viaGetResponse = (request: Request) => getResponse(fake.handlers, request);
  try {
    const rounds = Math.max(3, options.rounds);
    for (let round = 0; round <= rounds; round++) {
      // Round 0 warms both paths up and is not counted.
      server.listen({ onUnhandledFrame: 'error' });
      let viaMsw: Awaited<ReturnType<typeof timeRequests>>;
      try {
        viaMsw = await timeRequests(fakeUrl, round === 0 ? 500 : count);
      } finally {
        server.close();
      }
      const viaLoopback = await timeRequests(loopbackUrl, round === 0 ? 500 : count);
      const viaDirect = await timeRequests(fakeUrl, round === 0 ? 500 : count, viaGetResponse);
      const viaFakeFetch = await timeRequests(fakeUrl, round === 0 ? 500 : count, fake.fetch);
      if (round === 0) continue;
      viaFake.push(viaFakeFetch.wallUs);
      direct.push(viaDirect.wallUs);
      setup.push(viaMsw.wallUs);
      setupCpu.push(viaMsw.cpuUs);
      loopback.push(viaLoopback.wallUs);
      log(
        `in-process round ${round}/${rounds}  fake.fetch ${viaFakeFetch.wallUs.toFixed(0)} µs/req   setupServer ${viaMsw.wallUs.toFixed(0)} µs/req   getResponse ${viaDirect.wallUs.toFixed(0)} µs/req   loopback to ceiling ${viaLoopback.wallUs.toFixed(0)} µs/req`,
      );
    }
    return {
      fakeFetchUs: median(viaFake),
      setupServerUs: median(setup),
      getResponseUs: median(direct),
      loopbackUs: median(loopback),
      setupServerCpuUs: median(setupCpu),
      requests: count,
      rounds,
    };
  } finally {
    await ceiling.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
