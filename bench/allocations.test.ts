/**
 * `bench/allocations.ts --http`, run as a user runs it: the fake's count through its HTTP door
 * holds the door's own sites, and is more than a bare node:http server's count for the same
 * answer under the same load (the door and the core allocate on top of Node's HTTP stack).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const script = fileURLToPath(new URL('allocations.ts', import.meta.url));

test('--http counts the fake through its HTTP door beside a bare server answering its bytes', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [script, '--request', 'create', '--http', '--seconds', '1', '--top', '200'],
    { timeout: 60_000 },
  );
  const totals = [...stdout.matchAll(/^(.+): (\d+) bytes allocated a request, by site:$/gm)];
  expect(totals.map((match) => match[1])).toEqual([
    'POST /v1/pets through the HTTP door',
    'the same answer from a bare node:http server',
  ]);
  const [fake, bare] = totals.map((match) => Number(match[2]));
  expect(bare).toBeGreaterThan(0);
  expect(fake).toBeGreaterThan(bare as number);
  const fakeSites = stdout.slice(0, stdout.indexOf('the same answer from'));
  expect(fakeSites).toMatch(/ mock\/doors\/http\/http-server\.ts:\d+$/m);
  expect(fakeSites).toMatch(/ node:_http_server:\d+$/m);
}, 90_000);
