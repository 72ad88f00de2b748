/**
 * Where the fake's core allocates, per request: runs one benchmarked request through the behaviour
 * core in process (no HTTP, no Fetch objects: what every door hands the core), with V8's sampling
 * heap profiler counting collected objects too, and prints the bytes allocated per request, in
 * all and by the function that allocated them. Every byte a request allocates is memory the
 * caches must take in and the young generation must sweep: in a server, cutting them bought more
 * CPU than cutting instructions did (bench/optimisations.md).
 *
 *   node bench/allocations.ts --request list
 *   node bench/allocations.ts --request create --requests 50000 --top 40
 */
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import type { FakeRequest } from '../mock/base/messages/fake-request.ts';
import { createFake } from '../mock/fake.ts';
import { benchHeaders, benchRequests } from './requests.ts';

interface HeapNode {
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly HeapNode[];
}

const usage = `Usage: node bench/allocations.ts [--request ${benchRequests.map((r) => r.id).join('|')}] [--requests n] [--top n]`;

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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      request: { type: 'string', default: 'list' },
      requests: { type: 'string', default: '30000' },
      top: { type: 'string', default: '25' },
    },
  });
  const request = benchRequests.find((candidate) => candidate.id === values.request);
  if (request === undefined) throw new Error(`bench/allocations: unknown --request\n${usage}`);
  const count = Number(values.requests);
  const origin = 'http://127.0.0.1:4010';
  // As the bench runs the fake: every recorder on, the bench key's limits out of reach.
  const fake = await createFake({
    origin,
    stagingOrigin: false,
    controlAccess: 'open',
    enterpriseLimits: { perMinute: 1e9, perDay: 1e12 },
    listOrder: 'oldest-first',
  });
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
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  await run(count);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
    profile: { head: HeapNode };
  };
  session.disconnect();
  const sites = bytesBySite(profile.head, new URL('..', import.meta.url).href);
  const total = [...sites.values()].reduce((sum, bytes) => sum + bytes, 0);
  console.log(`${request.label}: ${Math.round(total / count)} bytes allocated a request, by site:`);
  for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`${String(Math.round(bytes / count)).padStart(7)}  ${site}`);
}

await main();
