/**
 * `npm run soak`: the fake's HTTP door at full speed for SOAK_SECONDS (default 60) with autocannon
 * on loopback, sampling the server's resident memory every 5 s. Passes when every answer was a
 * 2xx and memory is flat: the last third of the samples stays within 15% of the middle third's
 * peak (V8 grows its heap early, then should hold). Writes bench/soak-results.md.
 *
 * Reads only (list, filtered list, get): creates add pets, which is growth by design; `npm run
 * bench` reports the memory creates keep (its scale section).
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { bundleServer } from '../scripts/build-server.ts';
import { waitForBanner } from '../test/support/fake-process.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 60);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 10);
const port = Number(process.env.SOAK_PORT ?? 4390);
const root = new URL('../', import.meta.url);
const key = 'soak-key-with-room';

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-soak-'));
  const keys = join(dir, 'keys.json');
  writeFileSync(
    keys,
    JSON.stringify({
      plans: { soak: { perMinute: 1e12, perDay: 1e12 } },
      keys: [{ id: 'soak', key, plan: 'soak' }],
    }),
  );
  const server = spawn(
    process.execPath,
    [await bundleServer(), '--port', String(port), '--no-staging', '--quiet', '--keys', keys],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await waitForBanner(server);
  const pid = server.pid as number;
  const samples: { at: number; rss: number }[] = [{ at: 0, rss: rssMiB(pid) }];
  const started = Date.now();
  const sampler = setInterval(
    () => samples.push({ at: Math.round((Date.now() - started) / 1000), rss: rssMiB(pid) }),
    5_000,
  );
  const load = loadavg()[0] ?? 0;
  console.log(
    `soak: ${seconds} s, ${connections} connections against http://127.0.0.1:${port}/v1 (pid ${pid})`,
  );
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    headers: { Authorization: `Bearer ${key}` },
    requests: [
      { method: 'GET', path: '/v1/pets?limit=20' },
      { method: 'GET', path: '/v1/pets?status=sold&limit=100' },
      { method: 'GET', path: '/v1/pets/42' },
    ],
  });
  clearInterval(sampler);
  samples.push({ at: seconds, rss: rssMiB(pid) });
  server.kill('SIGTERM');

  const third = Math.max(1, Math.floor(samples.length / 3));
  const middlePeak = Math.max(...samples.slice(third, 2 * third).map((s) => s.rss));
  const lastPeak = Math.max(...samples.slice(2 * third).map((s) => s.rss));
  const flat = lastPeak <= middlePeak * 1.15;
  const clean = result.errors === 0 && result.timeouts === 0 && result.non2xx === 0;
  const verdict = flat && clean ? 'PASS' : 'FAIL';
  const lines = [
    '# Soak results',
    '',
    `Written by \`npm run soak\` on ${new Date().toISOString()}. Machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${load.toFixed(2)} at start.`,
    '',
    `| Duration | Connections | Requests | Mean req/s | p50 ms | p99 ms | Errors | Time-outs | Non-2xx | RSS start → peak → end (MiB) | Verdict |`,
    '|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${seconds} s | ${connections} | ${result.requests.total} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${result.errors} | ${result.timeouts} | ${result.non2xx} | ${samples[0]?.rss.toFixed(0)} → ${Math.max(...samples.map((s) => s.rss)).toFixed(0)} → ${samples.at(-1)?.rss.toFixed(0)} | ${verdict} |`,
    '',
    `Memory is flat when the last third of the samples peaks within 15% of the middle third (${middlePeak.toFixed(1)} MiB → ${lastPeak.toFixed(1)} MiB here). Samples (s: MiB): ${samples.map((s) => `${s.at}: ${s.rss.toFixed(0)}`).join(', ')}.`,
    '',
  ];
  writeFileSync(new URL('bench/soak-results.md', root), lines.join('\n'));
  console.log(lines.join('\n'));
  process.exitCode = verdict === 'PASS' ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 2;
});
