/**
 * A/B for optimisations: runs the fake's CLI from several checkouts of the project (git
 * worktrees, or copies with one change each) on the same requests, in interleaved rounds, and
 * prints req/s, p50, p99 and server CPU per request for each, with the change against the first.
 * This is how the numbers in bench/optimisations.md were taken. A checkout other than `.` runs
 * from its sources (servers.ts): compare two commits as two worktrees, so both run alike.
 *
 * @example
 * git worktree add /tmp/before <commit>
 * node bench/compare.ts --rounds 7 before=/tmp/before after=.
 * node bench/compare.ts small-young=.#--max-semi-space-size=2 default=.
 */
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleServer } from '../scripts/build-server.ts';
import { type LoadResult, runLoad } from './load.ts';
import { BenchError, freePort, type RunningServer, startServer } from './processes.ts';
import { benchHeaders, benchRequests } from './requests.ts';
import { baseUrl, fakeSpec, isThisCheckout, projectRoot } from './servers.ts';
import { median } from './stats.ts';

const usage = `Usage: node bench/compare.ts [options] <name>=<project root>[#<node flag>,...] ...

  --duration <s>      seconds per run (default 3)
  --rounds <n>        interleaved rounds (default 5)
  --connections <n>   concurrent connections (default 10)
  --requests <ids>    any of: ${benchRequests.map((request) => request.id).join(', ')} (default list,get)
  --node-flags <f>    flags for every variant's node, e.g. "--max-semi-space-size=32";
                      one variant's own flags follow its root after #`;

function fail(message: string): never {
  console.error(`compare: ${message}\n\n${usage}`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    requests: { type: 'string', default: 'list,get' },
    'node-flags': { type: 'string', default: '' },
    help: { type: 'boolean', default: false },
  },
  allowPositionals: true,
  strict: true,
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const variants = positionals.map((arg) => {
  const equals = arg.indexOf('=');
  const name = equals < 0 ? undefined : arg.slice(0, equals);
  const [root, flags] = arg.slice(equals + 1).split('#');
  if (name === undefined || name === '' || root === undefined || root === '')
    fail(`expected <name>=<project root>[#<node flag>,...], got "${arg}"`);
  return { name, root: resolve(root), flags: (flags ?? '').split(',').filter(Boolean) };
});
if (variants.length === 0) fail('name at least one variant');
const requests = benchRequests.filter((request) =>
  (values.requests as string).split(',').includes(request.id),
);
if (requests.length === 0)
  fail(`--requests takes any of ${benchRequests.map((r) => r.id).join(', ')}`);
const seconds = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const nodeFlags = (values['node-flags'] as string).split(' ').filter(Boolean);

const running: { name: string; server: RunningServer; port: number }[] = [];
try {
  // This checkout runs as its bundle (servers.ts): build it from the sources as they are.
  if (variants.some((variant) => isThisCheckout(variant.root))) await bundleServer();
  for (const variant of variants) {
    const port = await freePort();
    const spec = fakeSpec(port, [], variant.root);
    // npm start's own flags first (this checkout's bundle has them), so a variant's win.
    const flags = [...(spec.nodeFlags ?? []), ...nodeFlags, ...variant.flags];
    console.log(
      `${variant.name}: ${['node', ...flags, relative(projectRoot, spec.script)].join(' ')}`,
    );
    running.push({
      name: variant.name,
      server: await startServer({ ...spec, nodeFlags: flags, name: variant.name }),
      port,
    });
  }
  const results = new Map<string, LoadResult[]>();
  for (let round = 0; round <= rounds; round++) {
    for (const request of requests) {
      const order = running.map((_, i) => running[(i + round) % running.length]);
      for (const entry of order) {
        if (entry === undefined) continue;
        const result = await runLoad({
          url: `${baseUrl('fake', entry.port)}${request.path}`,
          method: request.method,
          headers: benchHeaders,
          ...(request.body === undefined ? {} : { body: request.body }),
          connections,
          durationSeconds: round === 0 ? 1 : seconds,
          serverPid: entry.server.pid,
        });
        if (result.non2xx > 0 || result.errors > 0)
          throw new BenchError(
            `${entry.name}: ${request.label}: ${JSON.stringify(result.statuses)}`,
          );
        // Round 0 warms every variant up and is not counted.
        if (round > 0) {
          const key = `${request.id} ${entry.name}`;
          results.set(key, [...(results.get(key) ?? []), result]);
        }
      }
    }
    if (round > 0) console.error(`compare: round ${round}/${rounds} done`);
  }
  console.log(
    `\n${rounds} interleaved rounds of ${seconds} s, ${connections} connections${nodeFlags.length > 0 ? `, node ${nodeFlags.join(' ')}` : ''}\n`,
  );
  // The CPU of each round beside the median: a change is within the noise when its median stands
  // inside the first variant's range of rounds.
  console.log(
    '| Request | Variant | req/s | p50 ms | p99 ms | CPU µs/req | CPU min-max of rounds | CPU vs first |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const request of requests) {
    let firstCpu: number | undefined;
    for (const { name } of running) {
      const runs = results.get(`${request.id} ${name}`) ?? [];
      const cpus = runs.map((run) => run.serverCpuUsPerRequest ?? Number.NaN);
      const cpu = median(cpus);
      firstCpu ??= cpu;
      const delta = ((cpu / firstCpu - 1) * 100).toFixed(1);
      console.log(
        `| ${request.label} | ${name} | ${median(runs.map((run) => run.requestsPerSecond)).toFixed(0)} | ${median(runs.map((run) => run.p50Ms)).toFixed(2)} | ${median(runs.map((run) => run.p99Ms)).toFixed(2)} | ${cpu.toFixed(0)} | ${Math.min(...cpus).toFixed(0)}-${Math.max(...cpus).toFixed(0)} | ${name === running[0]?.name ? '' : `${Number(delta) > 0 ? '+' : ''}${delta}%`} |`,
      );
    }
  }
} finally {
  await Promise.all(running.map(({ server }) => server.stop()));
}
