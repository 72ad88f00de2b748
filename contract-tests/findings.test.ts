/**
 * One finding per cause, through the doors a user reads: the CLI's report
 * and `--junit` against a gateway whose one HTML 414 breaks four rules, and the proxy's report
 * (text and JSON) in front of a server whose every 429 lacks Retry-After. The FAIL count is the
 * number of things to fix; the summary counts findings and rules apart.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startHtml414Gateway } from '../test/harness-fixtures/bad-servers/html-414-gateway.ts';
import { startQuotaServer } from '../test/harness-fixtures/bad-servers/quota-server.ts';
import { startStatusPageSizeGateway } from '../test/harness-fixtures/bad-servers/status-page-size-gateway.ts';
import { endedAfterEach, runCli, startProxyProcess } from '../test/support/contract-cli-process.ts';
import { httpFakeTarget } from './targets/fake-target.ts';

const key = 'enterprise-demo-key';
const { children, closers } = endedAfterEach();

/** The check ids of a report's FAIL lines, in order. */
const failLines = (output: string) =>
  [...output.matchAll(/^ {2}FAIL {2}(\S+)/gm)].map((match) => match[1]);

test("one answer that breaks four rules is one finding naming them all: a gateway's HTML 414 in front of the fake", async () => {
  const fake = await httpFakeTarget({ virtualTime: false, apiKey: key });
  closers.push(() => fake.close());
  // nginx with `large_client_header_buffers 2 1k`: its own HTML 414 for the one request whose
  // request line passes 1 KiB (errors.largeRequests' long query); everything else reaches the fake.
  const gateway = await startHtml414Gateway(fake.baseUrl);
  closers.push(() => gateway.close());
  const junit = join(mkdtempSync(join(tmpdir(), 'findings-')), 'contract.xml');
  const run = await runCli(
    ['--base-url', gateway.baseUrl, '--seed', '1', '--runs', '1', '--junit', junit],
    { PETSTORE_API_KEY: key },
  );
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.code, output).toBe(1);
  // The 414 is no Error (Errors), not JSON (What the service does), and carries no
  // X-RateLimit-* (Limits, "present on every response"): one answer, one thing to fix.
  expect(failLines(run.stdout), output).toEqual(['errors.largeRequests']);
  const finding = run.stdout.slice(run.stdout.indexOf('  FAIL  errors.largeRequests'));
  expect(finding).toMatch(/got 414 \(text\/html\) that is no Error/);
  expect(finding).toContain('the same answer breaks 3 more rules:');
  for (const rule of ['errors.bodyShape', 'responses.json', 'headers.rateLimitOnEveryResponse'])
    expect(finding).toMatch(new RegExp(`^ {10}${rule.replace('.', '\\.')}: a 414 answer`, 'm'));
  // One curl line for the one answer.
  expect(finding.match(/reproduce: /g)).toHaveLength(1);
  // No rule is reported twice: a broken rule has no line of its own outside its finding.
  expect(run.stdout).not.toMatch(/^ {2}(pass|skip|warn) {2}(errors\.bodyShape|responses\.json) /m);
  expect(run.stdout).toMatch(
    /: 1 finding \(4 rules broken\); rules: \d+ passed, 4 failed, 0 warned;/,
  );
  expect(run.stdout).toContain(
    'the server breaks the interface: 1 finding (4 rules broken) (see FAIL lines above)',
  );
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toMatch(/<testsuites name="petstore-contract" tests="\d+" failures="1"/);
  expect(xml.match(/<failure /g)).toHaveLength(1);
  expect(xml).toContain(
    '<property name="findings" value="1"/><property name="rulesBroken" value="4"/>',
  );
  for (const rule of ['errors.bodyShape', 'responses.json', 'headers.rateLimitOnEveryResponse'])
    expect(xml).toContain(`the same answer breaks ${rule}: a 414 answer`);
}, 60_000);

test("a fault of the page size that only a status query shows is limitRespected's finding, seen in statusFilter's requests: a gateway that drops limit when status is given", async () => {
  const fake = await httpFakeTarget({ virtualTime: false, apiKey: key });
  closers.push(() => fake.close());
  const gateway = await startStatusPageSizeGateway(fake.baseUrl);
  closers.push(() => gateway.close());
  const junit = join(mkdtempSync(join(tmpdir(), 'findings-')), 'contract.xml');
  const run = await runCli(['--base-url', gateway.baseUrl, '--seed', '1', '--junit', junit], {
    PETSTORE_API_KEY: key,
  });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.code, output).toBe(1);
  // The pets of GET /pets?status=available&limit=1 all have status available: the broken rule
  // is the page size (GET /pets, query limit), whichever check sent the listing.
  expect(failLines(run.stdout), output).toEqual(['listPets.limitRespected']);
  expect(run.stdout).toMatch(/^ {2}pass {2}listPets\.statusFilter /m);
  const finding = run.stdout.slice(run.stdout.indexOf('  FAIL  listPets.limitRespected'));
  expect(finding).toMatch(/^ {8}status=\w+&limit=\d+ returned 20 pets$/m);
  expect(finding).toContain(
    '        rule: GET /pets, query limit (minimum 1, maximum 100) (openapi/interface.md)',
  );
  expect(finding).toMatch(/^ {8}seen in: a request of listPets\.statusFilter; /m);
  // Its replay runs the check that sent the listing beside the rule's own.
  expect(finding).toMatch(
    /replay: .* --seed=1 --only listPets\.statusFilter,listPets\.limitRespected$/m,
  );
  expect(run.stdout).toMatch(/: 1 finding \(1 rule broken\); rules: \d+ passed, 1 failed, /);
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toMatch(/<testsuites name="petstore-contract" tests="\d+" failures="1"/);
  expect(xml).toMatch(
    /<failure message="status=\w+&amp;limit=\d+ returned 20 pets" type="listPets.limitRespected">/,
  );
  expect(xml).toContain('seen in: a request of listPets.statusFilter; ');
}, 60_000);

test('the same fault on every answer is one finding with its count: a proxy in front of a server whose every 429 lacks Retry-After', async () => {
  // Every answer is a 429 with X-RateLimit-* and an Error body, but no Retry-After (Errors, 429
  // row: "the client backs off and retries after the time given in the Retry-After header").
  const server = await startQuotaServer((_index, now) => ({
    status: 429,
    headers: {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.ceil(now / 1000) + 30),
    },
  }));
  closers.push(() => server.close());
  // An app of its own: five listings with its key, then the proxy's JSON report, printed.
  const app = `const headers = { Authorization: 'Bearer app-key-1' };
for (let i = 0; i < 5; i++) await (await fetch(process.env.PETSTORE_PROXY_URL + '/pets?limit=' + (i + 1), { headers })).text();
const origin = new URL(process.env.PETSTORE_PROXY_URL).origin;
console.log('REPORT ' + JSON.stringify(await (await fetch(origin + '/__contract/report?format=json')).json()));`;
  const proxy = await startProxyProcess(
    ['--target', server.baseUrl, '--', process.execPath, '--input-type=module', '-e', app],
    children,
  );
  const [code] = (await once(proxy.child, 'close')) as [number];
  const output = proxy.output();
  expect(code, output).toBe(1);
  expect(failLines(output), output).toEqual(['rateLimit.retryAfterOn429']);
  expect(output).toMatch(
    /FAIL {2}rateLimit\.retryAfterOn429 .*\n\s+a 429 with Retry-After null\n\s+seen on 5 answers \(the first is shown\): one rule, one thing to fix/,
  );
  expect(output).toMatch(/5 exchanges judged; 1 finding \(1 rule broken\); rules: /);
  const report = JSON.parse(/^REPORT (.*)$/m.exec(output)?.[1] ?? '{}') as {
    findings: { rules: string[]; failure: string }[];
    results: { id: string; status: string; occurrences?: number }[];
  };
  expect(report.findings).toEqual([
    expect.objectContaining({
      rules: ['rateLimit.retryAfterOn429'],
      failure: 'a 429 with Retry-After null',
    }),
  ]);
  expect(report.results.find((result) => result.id === 'rateLimit.retryAfterOn429')).toMatchObject({
    status: 'fail',
    occurrences: 5,
  });
}, 60_000);
