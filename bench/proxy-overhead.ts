/**
 * The latency `petstore-contract proxy` adds: the same `GET /v1/pets?limit=20` sent one at a
 * time over one kept-alive connection, straight to the fake and through the proxy (started as a
 * user starts it: the CLI in its own process), in alternating rounds. Reports p50 and p99 of each
 * and what the proxy adds: the `proxy` section of `npm run bench` (`npm run bench -- --only proxy`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort, startServer } from './processes.ts';
import { benchHeaders } from './requests.ts';
import { baseUrl, fakeSpec } from './servers.ts';
import { percentileOfSorted, Samples } from './stats.ts';

const contractCli = fileURLToPath(new URL('../contract-tests/cli.ts', import.meta.url));

/** Latencies of one path, in ms. */
export interface LatencySummary {
  readonly p50: number;
  readonly p99: number;
}

/** What the section measured. */
export interface ProxyOverheadResult {
  readonly requests: number;
  readonly direct: LatencySummary;
  readonly viaProxy: LatencySummary;
  /** viaProxy minus direct, at each percentile. */
  readonly added: LatencySummary;
  /** Exchanges the proxy judged, from its report (should equal the requests through it). */
  readonly judged: number;
}

function get(agent: Agent, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: benchHeaders }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function startProxy(target: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [contractCli, 'proxy', '--target', target, '--port', String(port)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`bench: the proxy did not start: ${output}`)),
      30_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(' -> ')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { child, base: `http://127.0.0.1:${port}/v1` };
}

/**
 * Measures the proxy's added latency over `rounds` rounds of `perRound` requests each way.
 * @example await measureProxyOverhead({ rounds: 5, perRound: 400 })
 */
export async function measureProxyOverhead(
  sizing: { rounds: number; perRound: number },
  log: (line: string) => void = () => {},
): Promise<ProxyOverheadResult> {
  const port = await freePort();
  const fake = await startServer(fakeSpec(port));
  const target = baseUrl('fake', port);
  const proxy = await startProxy(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const direct = new Samples();
  const viaProxy = new Samples();
  const path = '/pets?limit=20';
  try {
    // Warm both paths (JIT, connections) before measuring.
    for (let i = 0; i < 200; i++) {
      await get(agent, `${target}${path}`);
      await get(agent, `${proxy.base}${path}`);
    }
    for (let round = 0; round < sizing.rounds; round++) {
      for (const [samples, base] of [
        [direct, target],
        [viaProxy, proxy.base],
      ] as const) {
        for (let i = 0; i < sizing.perRound; i++) {
          const started = performance.now();
          await get(agent, `${base}${path}`);
          samples.push(performance.now() - started);
        }
      }
      log(`bench: proxy overhead round ${round + 1}/${sizing.rounds}`);
    }
    const report = (await (
      await fetch(`${proxy.base.replace(/\/v1$/, '')}/__contract/report?format=json`)
    ).json()) as { judged: number };
    const summary = (samples: Samples): LatencySummary => {
      const sorted = samples.sorted();
      return { p50: percentileOfSorted(sorted, 50), p99: percentileOfSorted(sorted, 99) };
    };
    const d = summary(direct);
    const v = summary(viaProxy);
    log(
      `bench: proxy adds ${(v.p50 - d.p50).toFixed(3)} ms at p50 and ${(v.p99 - d.p99).toFixed(3)} ms at p99 (direct ${d.p50.toFixed(3)} / ${d.p99.toFixed(3)} ms, through it ${v.p50.toFixed(3)} / ${v.p99.toFixed(3)} ms)`,
    );
    return {
      requests: direct.length,
      direct: d,
      viaProxy: v,
      added: { p50: v.p50 - d.p50, p99: v.p99 - d.p99 },
      judged: report.judged,
    };
  } finally {
    agent.destroy();
    proxy.child.kill('SIGTERM');
    await once(proxy.child, 'exit');
    await fake.stop();
  }
}
