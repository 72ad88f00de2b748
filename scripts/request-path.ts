/**
 * Which of our files run for one warm `GET /v1/pets` with a valid key through the HTTP door, and
 * how many calls each sees: V8's precise coverage with call counts, reset just before the request
 * and read just after it, so start-up and warm-up do not count. The README's architecture section
 * quotes its output.
 *
 * Usage: node scripts/request-path.ts
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { createFake } from '../mock/core/fake.ts';
import { listenHttp } from '../mock/doors/http/http-server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const fake = await createFake();
const door = await listenHttp(fake.behaviour, { port: 0 });
const get = async () => {
  const response = await fetch(`${door.origin}/v1/pets`, {
    headers: { Authorization: 'Bearer enterprise-demo-key' },
  });
  await response.text();
};
// Warm: the first requests compile code paths a later request only runs.
for (let round = 0; round < 50; round++) await get();

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await session.post('Profiler.takePreciseCoverage');
await get();
const { result } = await session.post('Profiler.takePreciseCoverage');
session.disconnect();

const calls = new Map<string, number>();
for (const script of result) {
  if (!script.url.startsWith('file:')) continue;
  const path = fileURLToPath(script.url);
  // The fake's files only: not this script, not the packages under it.
  if (!path.startsWith(`${root}mock/`)) continue;
  const count = script.functions.reduce((sum, fn) => sum + (fn.ranges[0]?.count ?? 0), 0);
  if (count > 0) calls.set(path.slice(root.length), count);
}
for (const [file, count] of [...calls].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`${String(count).padStart(5)}  ${file}`);
console.log(`${calls.size} of the fake's files ran for one GET /v1/pets through the HTTP door`);
await door.close();
