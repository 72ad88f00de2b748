/**
 * The CLI, run as a user runs it, through stand-ins of nginx, Apache httpd, Caddy and HAProxy as
 * Debian ships them (real-servers/gateway-models.ts) in front of the conforming express app.
 * RFC 9112 section 3 recommends that every server accept request lines of
 * 8,000 octets, and the interface states no length limit on a pet's name: a stock gateway, which
 * refuses neither, must pass a default and a `--rate-limits` run (no false alarm), and a gateway
 * set to refuse a request the interface allows must still be caught, the finding naming
 * `errors.largeRequests` and the setting. `npm run test:gateways` runs the same cases
 * (real-servers/gateway-cases.ts) against the real gateways.
 */
import { expect, test } from 'vitest';
import { freeKey } from '../test/harness-fixtures/real-servers/api-keys.ts';
import { startExpressRateLimitServer } from '../test/harness-fixtures/real-servers/express-rate-limit-server.ts';
import { caseTitle, gatewayCases } from '../test/harness-fixtures/real-servers/gateway-cases.ts';
import {
  type GatewayModel,
  nginxSmallBody,
  type Refusal,
  stockApache,
  stockHaproxy,
  stockNginx,
} from '../test/harness-fixtures/real-servers/gateway-models.ts';
import { startGatewayStandIn } from '../test/harness-fixtures/real-servers/gateway-stand-in.ts';
import { runCli } from '../test/support/contract-cli-process.ts';
import { requestLineOctets } from './checks/request-size-checks.ts';

/**
 * Longest a run may take from spawn to exit: Node's start-up (seconds on a busy 2-core machine),
 * about 70 requests to a loopback server, and for `--rate-limits` one window of the app (10 s,
 * real-servers/rate-limit-window.ts) and its waits. Generous: the machine may be shared.
 */
const boundMs = { default: 70_000, rateLimits: 90_000 };

/** RFC 9112 section 3: request lines every server is recommended to accept, in octets. */
const recommendedRequestLine = 8_000;

for (const gatewayCase of gatewayCases)
  for (const run of gatewayCase.runs) {
    const flags = run.flags.length === 0 ? 'default run' : run.flags.join(' ');
    const verdict = run.code === 0 ? 'passes' : 'is caught';
    const killAfterMs = run.flags.includes('--rate-limits') ? boundMs.rateLimits : boundMs.default;
    test.concurrent(
      `a stand-in of ${caseTitle(gatewayCase)} in front of a conforming app ${verdict} (${flags})`,
      async ({ onTestFinished }) => {
        const gateway = await startGatewayStandIn(gatewayCase.standIn, startExpressRateLimitServer);
        onTestFinished(() => gateway.close());
        const result = await runCli(
          ['--base-url', gateway.baseUrl, '--seed=17', ...run.flags],
          { PETSTORE_API_KEY: freeKey },
          { killAfterMs },
        );
        const output = `${result.stdout}\n${result.stderr}`;
        expect(result.killed, `still running after ${killAfterMs} ms:\n${output}`).toBe(false);
        expect(result.code, output).toBe(run.code);
        if (run.code === 0) {
          expect(result.stdout, output).toMatch(
            /the server conforms to the interface in all \d+ checks that ran/,
          );
          expect(result.stdout, output).not.toMatch(/^ {2}FAIL /m);
          // Every probe reached the app through the gateway: the longest line the run sent is
          // the request-line probe's, inside the RFC's figure.
          expect(gateway.longestRequestLine()).toBe(requestLineOctets);
        } else
          expect(result.stdout, output).toContain(
            'petstore-contract: the server breaks the interface',
          );
        if (run.says !== undefined) expect(output).toMatch(run.says);
        expect(gateway.longestRequestLine()).toBeLessThanOrEqual(recommendedRequestLine);
        expect(output).not.toContain(freeKey);
        expect(output).not.toMatch(/\n\s+at \S|Unhandled|internal error|harness error/);
      },
      killAfterMs + 15_000,
    );
  }

/** A `GET` whose request line (`GET <path> HTTP/1.1`) is `octets` long, and its answer. */
async function requestLineOf(baseUrl: string, octets: number): Promise<Response> {
  const path = `${new URL(baseUrl).pathname}/pets?limit=20&contract-padding=`;
  const padding = 'x'.repeat(octets - `GET ${path} HTTP/1.1`.length);
  return fetch(`${baseUrl}/pets?limit=20&contract-padding=${padding}`);
}

/** A `POST /pets` with a body of `octets` and no key, and its answer. */
function bodyOf(baseUrl: string, octets: number): Promise<Response> {
  const body = `{"name":"${'x'.repeat(octets - 26)}","categoryId":1}`;
  expect(Buffer.byteLength(body)).toBe(octets);
  return fetch(`${baseUrl}/pets`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
}

/** Expects `response` to be the model's refusal, byte for byte. */
async function expectRefusal(response: Response, refusal: Refusal | undefined): Promise<void> {
  if (refusal === undefined) throw new Error('the model has no such limit');
  expect(response.status).toBe(refusal.status);
  expect(response.headers.get('Content-Type')).toBe(refusal.contentType ?? null);
  expect(await response.text()).toBe(refusal.body);
}

// The stand-ins are no pushovers: each refuses just past its gateway's limit, with its page (the
// edges `npm run test:gateways` finds on the real gateways), and a 9 KiB probe of
// errors.largeRequests is refused by a stock nginx and a stock Apache httpd, which is why
// the probe stays inside RFC 9112's 8,000 octets.
test('the stand-ins forward up to their stock limits and refuse just past them, with their own pages', async ({
  onTestFinished,
}) => {
  const start = async (model: GatewayModel) => {
    const gateway = await startGatewayStandIn(model, startExpressRateLimitServer);
    onTestFinished(() => gateway.close());
    return gateway.baseUrl;
  };
  const [nginx, apache, haproxy, smallBody] = await Promise.all([
    start(stockNginx),
    start(stockApache),
    start(stockHaproxy),
    start(nginxSmallBody),
  ]);
  // nginx: `large_client_header_buffers 4 8k`, the line and its CRLF in one 8 KiB buffer.
  expect((await requestLineOf(nginx, 8190)).status).toBe(401);
  await expectRefusal(await requestLineOf(nginx, 8191), stockNginx.requestLine?.refusal);
  await expectRefusal(await requestLineOf(nginx, 9 * 1024), stockNginx.requestLine?.refusal);
  // Apache httpd: `LimitRequestLine 8190`.
  expect((await requestLineOf(apache, 8191)).status).toBe(401);
  await expectRefusal(await requestLineOf(apache, 8192), stockApache.requestLine?.refusal);
  await expectRefusal(await requestLineOf(apache, 9 * 1024), stockApache.requestLine?.refusal);
  // HAProxy: the whole head within tune.bufsize - tune.maxrewrite.
  const head = await fetch(`${haproxy}/pets`, { headers: { 'X-Padding': 'x'.repeat(15_400) } });
  await expectRefusal(head, stockHaproxy.requestHead?.refusal);
  // nginx `client_max_body_size 1k`: a create with a name of a thousand characters gets 413.
  expect((await bodyOf(smallBody, 1024)).status).toBe(401);
  await expectRefusal(await bodyOf(smallBody, 1025), nginxSmallBody.body?.refusal);
  // Stock nginx (1m) forwards the 256 KiB body the harness sends.
  expect((await bodyOf(nginx, 256 * 1024)).status).toBe(401);
});
