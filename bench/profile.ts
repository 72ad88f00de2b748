/**
 * Where the fake's time and memory go under load: starts the fake as the bench does (the bundle
 * of `npm start`, Enterprise limits out of reach) with `node --cpu-prof`, warms it up as the
 * side-by-side section does, loads one request for a while, stops it and prints the functions
 * with the most self time, and its resident memory before and after.
 *
 * V8 samples on wall-clock time: the socket write (`writeUtf8String`, often the largest share of
 * the samples) also holds the time the fake waits for a core while the load generator it just woke
 * runs on this 2-core machine. Compare changes by the CPU per request the first line prints.
 *
 *   node bench/profile.ts --request create --seconds 6
 *   node bench/profile.ts --request list-sold --top 25 --keep /tmp/profiles
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleServer, serverBundlePath } from '../scripts/build-server.ts';
import { benchLoad } from './load.ts';
import { freePort, residentBytes, startServer } from './processes.ts';
import { benchRequests, createRequest } from './requests.ts';
import { baseUrl, profiledFakeSpec, projectRoot } from './servers.ts';
import { bundleSources, type CpuProfile, type SourceOf } from './stage-attribution.ts';

/**
 * Self time per function (name, and its source file and line through the bundle's source map),
 * largest first, as shares of all samples.
 */
function selfTimes(profile: CpuProfile, sourceOf: SourceOf): { name: string; share: number }[] {
  const bundleUrl = new URL(`file://${serverBundlePath}`).href;
  const nodeName = new Map<number, string>();
  for (const { id, callFrame } of profile.nodes) {
    const source =
      callFrame.url === bundleUrl
        ? sourceOf(callFrame.lineNumber, callFrame.columnNumber)
        : undefined;
    const where =
      source !== undefined
        ? ` ${source.file}:${source.line}`
        : callFrame.url === ''
          ? ''
          : ` ${basename(callFrame.url)}:${callFrame.lineNumber + 1}`;
    nodeName.set(id, `${callFrame.functionName || '(anonymous)'}${where}`);
  }
  const time = new Map<string, number>();
  let total = 0;
  for (const [index, sample] of profile.samples.entries()) {
    const delta = profile.timeDeltas[index] ?? 0;
    const name = nodeName.get(sample) ?? '?';
    time.set(name, (time.get(name) ?? 0) + delta);
    total += delta;
  }
  return [...time.entries()]
    .map(([name, spent]) => ({ name, share: total === 0 ? 0 : spent / total }))
    .sort((a, b) => b.share - a.share);
}

const usage = `Usage: node bench/profile.ts [--request ${benchRequests.map((r) => r.id).join('|')}] [--seconds n] [--top n] [--keep dir]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      request: { type: 'string', default: 'create' },
      seconds: { type: 'string', default: '6' },
      top: { type: 'string', default: '20' },
      keep: { type: 'string' },
    },
  });
  const request = benchRequests.find((candidate) => candidate.id === values.request);
  if (request === undefined) throw new Error(`bench/profile: unknown --request\n${usage}`);
  const seconds = Number(values.seconds);
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'petstore-profile-'));
  await bundleServer();
  const port = await freePort();
  const server = await startServer(profiledFakeSpec(port, dir));
  const load = benchLoad(baseUrl('fake', port), server.pid, 10);
  const mib = (bytes: number | undefined) =>
    bytes === undefined ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  try {
    // A few creates fill the sold page (81 sold pets in the default seed), as the bench's warm-up
    // does; the rest of the profile is the request under study.
    await load(createRequest, { amount: 100 });
    const before = residentBytes(server.pid);
    const result = await load(request, { durationSeconds: seconds });
    console.log(
      `${request.label}: ${result.requestsPerSecond.toFixed(0)} req/s, ${result.serverCpuUsPerRequest?.toFixed(0) ?? 'n/a'} µs CPU/req, p99 ${result.p99Ms.toFixed(2)} ms; resident ${mib(before)} before, ${mib(residentBytes(server.pid))} after`,
    );
  } finally {
    await server.stop();
  }
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`bench/profile: no profile written in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  console.log('self time (100 creates of warm-up included):');
  for (const { name, share } of selfTimes(
    profile,
    bundleSources(serverBundlePath, readFileSync(`${serverBundlePath}.map`, 'utf8'), projectRoot),
  ).slice(0, Number(values.top)))
    console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
  if (values.keep === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(`profile kept: ${join(dir, file)}`);
}

await main();
