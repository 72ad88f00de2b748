/**
 * The matrix's clients that speak Node's http (got, superagent) in process: under msw's
 * `setupServer` (the Node door), where no socket exists and every request is `in-process`. The
 * same rows as client-matrix.test.ts's for them, with the verdicts the README states, on a
 * frozen and a shifted clock and in both Retry-After formats; sources cited there.
 */
import got from 'got';
import superagent from 'superagent';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { RetryAfterFormat } from '../../../base/quota/retry-after.ts';
import { createFakeServer } from '../../../doors/node/node.ts';

// One msw server for the file; each variant's fake has an origin of its own, so their handlers
// (which claim only their own origin) never answer each other's requests.
const { server } = await createFakeServer({ stagingOrigin: false });
beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' });
  vi.spyOn(Math, 'random').mockReturnValue(0.9);
});
afterAll(() => {
  server.close();
  vi.restoreAllMocks();
});

let nextPort = 47_000;
const headers = { Authorization: 'Bearer free-demo-key' };

const clients = {
  // got 16.1.0 core/calculate-retry-delay.js: Retry-After when given, else 2^(n-1) s + noise.
  got: (base: string) => got(`${base}/v1/pets?limit=1`, { headers, retry: { limit: 3 } }).json(),
  // superagent 10.4.2 lib/request-base.js: `.retry(n)` re-sends at once, any method.
  superagent: (base: string) => superagent.get(`${base}/v1/pets?limit=1`).set(headers).retry(8),
};

interface Row {
  readonly client: keyof typeof clients;
  readonly told: boolean;
  readonly count: number;
  readonly retryAfter: string;
  readonly backoff: string;
  readonly verdict: string;
}

const rows: readonly Row[] = [
  {
    client: 'got',
    told: true,
    count: 2,
    retryAfter: 'pass',
    backoff: 'not-applicable',
    verdict: 'pass',
  },
  {
    client: 'got',
    told: false,
    count: 3,
    retryAfter: 'not-applicable',
    backoff: 'pass',
    verdict: 'pass',
  },
  {
    client: 'superagent',
    told: true,
    count: 2,
    retryAfter: 'fail',
    backoff: 'inconclusive',
    verdict: 'fail',
  },
  {
    client: 'superagent',
    told: false,
    count: 8,
    retryAfter: 'not-applicable',
    backoff: 'fail',
    verdict: 'fail',
  },
];

async function runVariant(row: Row, clock: 'frozen' | 'shifted', format: RetryAfterFormat) {
  const { fake } = await createFakeServer({
    origin: `http://127.0.0.1:${nextPort++}`,
    stagingOrigin: false,
    retryAfterFormat: format,
  });
  server.use(...fake.handlers);
  if (clock === 'frozen') {
    fake.control.freezeTime(true);
    fake.control.setTime(Date.UTC(2026, 5, 1, 12));
  } else fake.control.setTime(Date.now() - 180 * 86_400_000);
  if (row.told) fake.control.force('listPets', 503, row.count, 1);
  else fake.control.force('listPets', 500, row.count);
  await clients[row.client](fake.config.origins[0] as string).catch(() => undefined);
  const [client] = fake.control.clients().clients;
  return {
    variant: `${clock} clock, ${format}`,
    connection: client?.recent[0]?.connection,
    retryAfter: client?.rules.retryAfter.verdict,
    backoff: client?.rules.backoff.verdict,
    verdict: client?.verdict,
  };
}

describe.concurrent('got and superagent in process (msw) get the verdicts the README states', () => {
  for (const row of rows)
    test(`${row.client}, ${row.told ? 'told Retry-After: 1' : `own backoff (500 x ${row.count})`}: retryAfter ${row.retryAfter}, backoff ${row.backoff}, verdict ${row.verdict}`, async () => {
      const formats = row.told ? (['seconds', 'http-date'] as const) : (['seconds'] as const);
      const variants = (['frozen', 'shifted'] as const).flatMap((clock) =>
        formats.map((format) => runVariant(row, clock, format)),
      );
      for (const seen of await Promise.all(variants))
        expect(seen).toEqual({
          variant: seen.variant,
          connection: 'in-process',
          retryAfter: row.retryAfter,
          backoff: row.backoff,
          verdict: row.verdict,
        });
    });
});
