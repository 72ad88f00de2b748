/**
 * Where the fake's core allocates, per request: runs one benchmarked request through the behaviour
 * core in process (no HTTP, no Fetch objects: what every door hands the core), with V8's sampling
 * heap profiler counting collected objects too, and prints the bytes allocated per request, in
 * all and by the function that allocated them. Every byte a request allocates is memory the
 * caches must take in and the young generation must sweep: in a server, what a request allocates
 * weighs more on its CPU than the instructions it runs (bench/optimisations.md).
 *
 * With `--http`, the fake answers through its HTTP door instead, loaded by autocannon from a
 * process of its own, so the count holds Node's HTTP stack and the door too; then a bare
 * node:http server in this process answers the fake's own answer (status, headers and bytes, as
 * the bench's ceiling replays it) under the same load, and its count is printed beside: what the
 * door and the core add to a request.
 *
 *   node bench/allocations.ts --request list
 *   node bench/allocations.ts --request create --requests 50000 --top 40
 *   node bench/allocations.ts --request create --http --seconds 4
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type { FakeRequest } from '../mock/base/messages/fake-request.ts';
import { createFake } from '../mock/core/fake.ts';
import { listenHttp } from '../mock/doors/http/http-server.ts';
import { type BenchRequest, benchHeaders, benchRequests } from './requests.ts';
import { capture } from './throughput.ts';

interface HeapNode {
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly HeapNode[];
}

const usage = `Usage: node bench/allocations.ts [--request ${benchRequests.map((r) => r.id).join('|')}] [--requests n] [--top n] [--http [--seconds n]]`;

/** Bytes allocated by each function, summed over the profile's tree. */
function bytesBySite(head: HeapNode, projectRoot: string): Map<string, number> {
  const sites = new Map<string, number>();
  const walk = (node: HeapNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.startsWith(projectRoot) ? url.slice(projectRoot.length) : url;
    const site = `${functionName || '(anonymous)'} ${where}${where === '' ? '' : `:${lineNumber + 1}`}`;
    if (node.selfSize > 0) sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(head);
  return sites;
}

/** A fake as the bench runs it: every recorder on, the bench key's limits out of reach. */
function benchFake(origin?: string) {
  return createFake({
    ...(origin === undefined ? {} : { origin }),
    stagingOrigin: false,
    controlAccess: 'open',
    enterpriseLimits: { perMinute: 1e9, perDay: 1e12 },
    listOrder: 'oldest-first',
  });
}

/** Samples what `work` allocates, collected objects included; bytes by site. */
async function sampled(work: () => Promise<void>): Promise<Map<string, number>> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  await work();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
    profile: { head: HeapNode };
  };
  session.disconnect();
  return bytesBySite(profile.head, new URL('..', import.meta.url).href);
}

/** Prints a count: bytes a request in all, then the `top` sites. */
function print(label: string, sites: Map<string, number>, requests: number, top: number): void {
  const total = [...sites.values()].reduce((sum, bytes) => sum + bytes, 0);
  console.log(`${label}: ${Math.round(total / requests)} bytes allocated a request, by site:`);
  for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${String(Math.round(bytes / requests)).padStart(7)}  ${site}`);
}

/**
 * Loads `url` with autocannon from a process of its own (its allocations are not this
 * process's) for `seconds`, at the bench's 10 connections; resolves to the requests answered.
 */
function loadFromChild(url: string, request: BenchRequest, seconds: number): Promise<number> {
  const spec = {
    url,
    method: request.method,
    headers: benchHeaders,
    ...(request.body === undefined ? {} : { body: request.body }),
    connections: 10,
    durationSeconds: seconds,
  };
  const load = new URL('load.ts', import.meta.url).href;
  const code = `const { runLoad } = await import(${JSON.stringify(load)}); const r = await runLoad(${JSON.stringify(spec)}); console.log(r.requests);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (status) => {
      const requests = Number(out.trim());
      if (status === 0 && requests > 0) resolve(requests);
      else reject(new Error(`bench/allocations: the load process exited ${status}: ${out}`));
    });
  });
}

/** Warms `url` up, then counts what this process allocates while it answers `seconds` of load. */
async function countOverHttp(url: string, request: BenchRequest, seconds: number) {
  await loadFromChild(url, request, Math.max(1, seconds / 2));
  let requests = 0;
  const sites = await sampled(async () => {
    requests = await loadFromChild(url, request, seconds);
  });
  return { sites, requests };
}

function listening(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }),
  );
}

/** The fake behind its HTTP door, then a bare node:http server answering its answer's bytes. */
async function overHttp(request: BenchRequest, seconds: number, top: number): Promise<void> {
  const fake = await benchFake();
  const door = await listenHttp(fake.behaviour, { port: 0 });
  const url = `${door.origin}/v1${request.path}`;
  const captured = await capture(`${door.origin}/v1`, request);
  const bytes = Buffer.from(captured.body, 'utf8');
  const fakeCount = await countOverHttp(url, request, seconds);
  await door.close();
  print(`${request.label} through the HTTP door`, fakeCount.sites, fakeCount.requests, top);
  const answerHeaders = { ...captured.headers, 'Content-Length': bytes.byteLength };
  const bare = createServer((incoming, res) => {
    incoming.resume();
    res.writeHead(captured.status, answerHeaders);
    res.end(bytes);
  });
  bare.keepAliveTimeout = 120_000;
  const bareUrl = `${await listening(bare)}/v1${request.path}`;
  const bareCount = await countOverHttp(bareUrl, request, seconds);
  bare.close();
  print(`the same answer from a bare node:http server`, bareCount.sites, bareCount.requests, 0);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      request: { type: 'string', default: 'list' },
      requests: { type: 'string', default: '30000' },
      top: { type: 'string', default: '25' },
      http: { type: 'boolean', default: false },
      seconds: { type: 'string', default: '4' },
    },
  });
  const request = benchRequests.find((candidate) => candidate.id === values.request);
  if (request === undefined) throw new Error(`bench/allocations: unknown --request\n${usage}`);
  if (values.http) {
    await overHttp(request, Number(values.seconds), Number(values.top));
    return;
  }
  const count = Number(values.requests);
  const origin = 'http://127.0.0.1:4010';
  const fake = await benchFake(origin);
  const body = new TextEncoder().encode(request.body ?? '');
  const raw: [string, string][] = [
    ['Host', '127.0.0.1:4010'],
    ...Object.entries(benchHeaders),
    ...(request.body === undefined
      ? []
      : [['Content-Length', String(body.byteLength)] as [string, string]]),
  ];
  // Ten clients, as the bench's ten connections; one request object each, as a door makes it.
  const requests: FakeRequest[] = Array.from({ length: 10 }, (_, index) => ({
    method: request.method,
    url: `${origin}/v1${request.path}`,
    connection: `bench-${index}`,
    header: (name) => raw.find(([key]) => key.toLowerCase() === name)?.[1] ?? null,
    headerList: () => raw.map(([key, value]) => [key, value]),
    body: () => (request.body === undefined ? new Uint8Array() : body),
  }));
  const run = async (times: number) => {
    for (let i = 0; i < times; i++) await fake.behaviour.answer(requests[i % 10] as FakeRequest);
  };
  // Warm: the optimising compiler's code allocates less than the interpreter's.
  await run(20_000);
  const sites = await sampled(() => run(count));
  print(request.label, sites, count, Number(values.top));
}

await main();
