/**
 * The Pact recorder and interface coverage are bounded in bytes whatever clients send, tested
 * against `npm start` on a real port: a page's cross-site `no-cors` POSTs (text/plain, no key,
 * 1 MB bodies of made-up field names), kept whole, would grow the fake by hundreds of MiB and its
 * pact text past what `GET /__control/pact` can answer; a key holder's flood of distinct
 * large bodies, or of distinct query names, fills at most `maxPactBytes`. `/__control/pact`
 * answers 200 throughout.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import {
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../test/support/fake-process.ts';
import { maxAnonymousInteractions, maxPactBytes, type PactFile } from './pact/pact-step.ts';

afterEach(stopFakeProcesses);

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** A body of about `bytes` bytes: a JSON object of made-up field names, unique to `tag`. */
function floodBody(tag: string, bytes: number): Buffer {
  const fields: string[] = [];
  let size = 2;
  for (let index = 0; size < bytes; index++) {
    const field = `"${tag}-field-${index}-${'x'.repeat(40)}":${index}`;
    fields.push(field);
    size += field.length + 1;
  }
  return Buffer.from(`{${fields.join(',')}}`);
}

async function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<number> {
  const sent = request({ host: '127.0.0.1', port, path, method: 'POST', headers });
  sent.end(body);
  const [answer] = (await once(sent, 'response')) as [IncomingMessage];
  answer.resume();
  await once(answer, 'end');
  return answer.statusCode ?? 0;
}

async function pactOf(port: number): Promise<{ status: number; text: string; pact: PactFile }> {
  const answer = await fetch(`http://127.0.0.1:${port}/__control/pact`);
  const text = await answer.text();
  return { status: answer.status, text, pact: JSON.parse(text) as PactFile };
}

test("a page's keyless flood of 1 MB bodies with made-up field names keeps nothing of them", async () => {
  const port = await freePort();
  const { child } = await startFakeProcess(['--port', String(port), '--no-staging', '--quiet']);
  const before = rssMiB(child.pid as number);
  // As a cross-site `no-cors` fetch sends it: text/plain, no key, an Origin of another site.
  const headers = { 'Content-Type': 'text/plain', Origin: 'https://evil.example' };
  for (let start = 0; start < 300; start += 4)
    await Promise.all(
      [0, 1, 2, 3].map(async (offset) => {
        const status = await post(
          port,
          '/v1/pets',
          headers,
          floodBody(`p${start + offset}`, 1_000_000),
        );
        expect(status).toBe(401);
      }),
    );
  // Query names a page can vary too: each a new shape, yet at most a few keyless ones are kept.
  for (let index = 0; index < 200; index++)
    await (await fetch(`http://127.0.0.1:${port}/v1/pets?made-up-${index}=1`)).text();
  const { status, text, pact } = await pactOf(port);
  expect(status).toBe(200);
  expect(pact.interactions.length).toBeLessThanOrEqual(maxAnonymousInteractions);
  expect(text.length).toBeLessThan(1024 * 1024);
  expect(text).not.toContain('field-1-');
  expect((pact.metadata.petstoreFake as { notRecorded: number }).notRecorded).toBeGreaterThan(0);
  const coverage = await (await fetch(`http://127.0.0.1:${port}/__control/coverage`)).text();
  expect(coverage.length).toBeLessThan(256 * 1024);
  // The request journal keeps every request, 2048 characters of each body (a copy, never a view
  // of the megabyte it was cut from), within its 2 MiB.
  const journal = await (await fetch(`http://127.0.0.1:${port}/__control/requests`)).json();
  expect(journal.total).toBe(500);
  expect(journal.requests[journal.requests.length - 1].body).toHaveLength(2048);
  // 300 MB went through: kept, it would be hundreds of MiB.
  expect(rssMiB(child.pid as number) - before).toBeLessThan(150);
}, 90_000);

test("a key holder's flood of distinct large bodies and query names fills at most maxPactBytes, and the pact still answers", async () => {
  const port = await freePort();
  const { child } = await startFakeProcess(['--port', String(port), '--no-staging', '--quiet']);
  const headers = {
    Authorization: 'Bearer enterprise-demo-key',
    'Content-Type': 'application/json',
  };
  for (let start = 0; start < 120; start += 4)
    await Promise.all(
      [0, 1, 2, 3].map((offset) =>
        post(port, '/v1/pets', headers, floodBody(`k${start + offset}`, 1_000_000)),
      ),
    );
  const key = { Authorization: 'Bearer enterprise-demo-key' };
  for (let start = 0; start < 1100; start += 50)
    await Promise.all(
      Array.from({ length: 50 }, async (_, offset) => {
        const answer = await fetch(
          `http://127.0.0.1:${port}/v1/pets?name-${start + offset}-${'y'.repeat(2000)}=1`,
          { headers: key },
        );
        await answer.text();
      }),
    );
  const { status, text, pact } = await pactOf(port);
  expect(status).toBe(200);
  expect(text.length).toBeLessThan(maxPactBytes + 256 * 1024);
  // Each large body is kept as its shape: its first 32 fields, not its thousands.
  const bodies = pact.interactions
    .map((each) => each.request.body?.content)
    .filter((content): content is Record<string, unknown> => typeof content === 'object');
  expect(bodies.length).toBeGreaterThan(100);
  for (const body of bodies) expect(Object.keys(body).length).toBeLessThanOrEqual(32);
  // More shapes than it keeps: the rest are counted, and the file says so.
  expect((pact.metadata.petstoreFake as { notRecorded: number }).notRecorded).toBeGreaterThan(0);
  expect(rssMiB(child.pid as number)).toBeLessThan(400);
}, 90_000);
