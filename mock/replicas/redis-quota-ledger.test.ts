/**
 * The Redis ledger against the rules it copies, on a real redis-server of the test's own
 * (test/support/redis-server.ts), never a mock client: fast-check runs decideQuota (quota.ts, over
 * a plain usage record) and the script on the same random sequences of (key, time step, limits,
 * ban policy), and every decision, every header value and what each key's record holds after
 * must be the same. And the script is exact under concurrency: requests of one key in flight on
 * several connections at once admit exactly the limit, each Remaining value once.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
import type { BanPolicy } from '../base/quota/ban.ts';
import type { Limits } from '../base/quota/plans.ts';
import { decideQuota, type QuotaDecision } from '../base/quota/quota.ts';
import { emptyUsage, type KeyUsage, usageOf } from '../base/quota/rate-limit.ts';
import { finishFounding, joinFleet } from './fleet.ts';
import { FleetLostError, FleetStaleError } from './fleet-state.ts';
import { fleetKey, quotaKeyPattern } from './redis-keys.ts';
import { redisQuotaLedger } from './redis-quota-ledger.ts';
import type { ReplicaRedis } from './replica-redis.ts';

/** The seed of the property: pinned, and QUOTA_SCRIPT_SEED=<n> runs another. */
const seed = Number(process.env.QUOTA_SCRIPT_SEED ?? 52);
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The last moment the fake's clock may show (clock.ts): the end of year 9999 UTC. */
const clockMax = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const { clients } = replicaClients(5);

/** A ledger of the fleet `prefix`, founded or joined on `client`, as a replica that joined sees it. */
async function fleetLedger(client: ReplicaRedis, prefix: string) {
  const { epoch, founded } = await joinFleet(client, prefix, { settings: {} });
  if (founded) await finishFounding(client, prefix, epoch);
  return redisQuotaLedger(client, prefix, { epoch, version: () => '0' });
}

const first = () => clients[0] as ReplicaRedis;

/**
 * One request of a sequence: whose, how far the clock moved since the last (or to the moment the
 * key's last refusal said to retry at, as a client that honours Retry-After to the millisecond,
 * or to the next minute's first millisecond), and its rules.
 */
interface Step {
  readonly keyId: string;
  readonly advanceMs: number | 'to retry time' | 'to next minute';
  readonly limits: Limits;
  readonly policy: BanPolicy;
}

const step: fc.Arbitrary<Step> = fc.record({
  keyId: fc.constantFrom('free-1', 'pro-2', 'x'),
  advanceMs: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 3_000 }) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 2 * MINUTE_MS }) },
    { weight: 1, arbitrary: fc.integer({ min: MINUTE_MS, max: 2 * DAY_MS }) },
    // The clock set back (the control surface may), and times between two milliseconds.
    { weight: 1, arbitrary: fc.integer({ min: -2 * MINUTE_MS, max: -1 }) },
    { weight: 1, arbitrary: fc.constantFrom(0.25, 0.5, 999.75) },
    { weight: 3, arbitrary: fc.constantFrom('to retry time' as const, 'to next minute' as const) },
  ),
  limits: fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom(
        { perMinute: 2, perDay: 5 },
        { perMinute: 3, perDay: 100 },
        { perMinute: 2, perDay: 3 },
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        perMinute: fc.integer({ min: 1, max: 6 }),
        perDay: fc.integer({ min: 1, max: 12 }),
      }),
    },
    // The largest limits a keys file may give (assertLimits): 2^53 - 1, still counted exactly.
    {
      weight: 1,
      arbitrary: fc.constant({
        perMinute: Number.MAX_SAFE_INTEGER,
        perDay: Number.MAX_SAFE_INTEGER,
      }),
    },
  ),
  policy: fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom(
        { threshold: 2, durationSeconds: 90 },
        { threshold: 1, durationSeconds: 5 },
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        threshold: fc.integer({ min: 1, max: 6 }),
        durationSeconds: fc.integer({ min: 1, max: 400 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constant({ threshold: 5, durationSeconds: Number.MAX_SAFE_INTEGER }),
    },
  ),
});

/** Where a sequence starts: the time of today's tests, a day's or a minute's edge, or any time the clock may show. */
const start = fc.oneof(
  fc.constant(Date.UTC(2026, 11, 2, 23, 59, 58, 500)),
  fc.integer({ min: 0, max: clockMax - 3 * DAY_MS }),
  // The day's last minute, where the minute and the day end together.
  fc
    .tuple(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: MINUTE_MS }))
    .map(([days, before]) => days * DAY_MS - before),
);

test(`the script decides as decideQuota on every sequence: verdicts, X-RateLimit-* values, Retry-After times, bans and the records after (seed ${seed}; QUOTA_SCRIPT_SEED=<n> runs another)`, async () => {
  const seen = { admitted: 0, limited: 0, banned: 0, started: 0 };
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      start,
      fc.array(step, { minLength: 1, maxLength: 80, size: 'max' }),
      async (t0, steps) => {
        run += 1;
        // A fleet of its own for each run: no run sees another's keys.
        const prefix = `property-${run}`;
        // Runs take turns on the connections, as a fleet's replicas do.
        const ledger = await fleetLedger(clients[run % clients.length] as ReplicaRedis, prefix);
        const records = new Map<string, KeyUsage>();
        const retryTimes = new Map<string, number>();
        let now = t0;
        for (const { keyId, advanceMs, limits, policy } of steps) {
          if (advanceMs === 'to retry time') now = retryTimes.get(keyId) ?? now;
          else if (advanceMs === 'to next minute')
            now = (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS;
          else now += advanceMs;
          now = Math.min(clockMax, Math.max(0, now));
          const expected = decideQuota(usageOf(records, keyId), limits, now, policy);
          const decided: QuotaDecision = await ledger.decide(keyId, limits, now, policy);
          expect(decided).toEqual(expected);
          if (decided.verdict !== 'admitted') retryTimes.set(keyId, decided.retryAtMs);
          seen[decided.verdict] += 1;
          if (decided.verdict === 'banned' && decided.started) seen.started += 1;
        }
        for (const [keyId, record] of records) expect(await ledger.read(keyId)).toEqual(record);
      },
    ),
    { seed, numRuns: 150 },
  );
  // The sequences reach every branch of the decision, many times over.
  expect(seen.admitted).toBeGreaterThan(2_000);
  expect(seen.limited).toBeGreaterThan(400);
  expect(seen.banned).toBeGreaterThan(200);
  expect(seen.started).toBeGreaterThan(100);
}, 120_000);

test('50 decisions of one key in flight at once over 5 connections admit exactly the limit in each window, each Remaining value once', async () => {
  const limits = { perMinute: 20, perDay: 1_000 };
  // A ban would end the second window's test: this policy never bans in it.
  const policy = { threshold: 1_000, durationSeconds: 60 };
  const ledgers = await Promise.all(clients.map((client) => fleetLedger(client, 'exact')));
  // The fake's clock, pinned: one minute window, then the next.
  const windowStart = Date.UTC(2026, 11, 2, 12, 0, 0);
  for (const now of [windowStart + 5_000, windowStart + MINUTE_MS + 5_000]) {
    const decisions = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        (ledgers[index % ledgers.length] as (typeof ledgers)[number]).decide(
          'free-1',
          limits,
          now,
          policy,
        ),
      ),
    );
    const admitted = decisions.filter((decision) => decision.verdict === 'admitted');
    expect(admitted).toHaveLength(limits.perMinute);
    expect(admitted.map((decision) => decision.rateLimit.remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: limits.perMinute }, (_, remaining) => remaining),
    );
    expect(decisions.filter((decision) => decision.verdict === 'limited')).toHaveLength(30);
  }
  // Both windows counted in the day: 40 of its 1,000.
  expect(await (await fleetLedger(first(), 'exact')).read('free-1')).toMatchObject({
    day: { count: 40 },
    minute: { count: 20 },
  });
});

test("clear removes every usage hash of its fleet and no other fleet's: the next decision starts afresh", async () => {
  const limits = { perMinute: 1, perDay: 10 };
  const policy = { threshold: 5, durationSeconds: 60 };
  const now = Date.UTC(2026, 11, 2, 12, 0, 0);
  const ours = await fleetLedger(first(), 'cleared');
  const theirs = await fleetLedger(first(), 'cleared-not');
  for (let index = 0; index < 700; index++) await ours.decide(`key-${index}`, limits, now, policy);
  await theirs.decide('key-1', limits, now, policy);
  expect((await ours.decide('key-1', limits, now, policy)).verdict).toBe('limited');
  expect(await first().keys(quotaKeyPattern('cleared'))).toHaveLength(700);
  await ours.clear();
  expect(await first().keys(quotaKeyPattern('cleared'))).toEqual([]);
  expect(await first().keys(quotaKeyPattern('cleared-not'))).toHaveLength(1);
  expect((await ours.decide('key-1', limits, now, policy)).verdict).toBe('admitted');
  expect((await theirs.decide('key-1', limits, now, policy)).verdict).toBe('limited');
});

test('a prefix that would change a hash tag or a reset scan is refused in one line naming the characters allowed', () => {
  for (const prefix of ['', 'a{b}', 'pets*', 'a b'])
    expect(() => redisQuotaLedger(first(), prefix, { epoch: '', version: () => '0' })).toThrow(
      /^petstore-fake: redis prefix must be 1 to 64 characters of A-Z a-z 0-9 \. _ : -/,
    );
});

test('a usage record written is the one read back and the one the next decision starts from', async () => {
  const ledger = await fleetLedger(first(), 'written');
  const now = Date.UTC(2026, 11, 2, 12, 0, 30);
  const minuteStart = Date.UTC(2026, 11, 2, 12, 0, 0);
  const usage = {
    minute: { start: minuteStart, count: 59 },
    day: { start: Date.UTC(2026, 11, 2), count: 100 },
    violations: 0,
    retryAt: 0,
    bannedUntil: 0,
  };
  expect(await ledger.read('free-1')).toEqual(emptyUsage());
  await ledger.write('free-1', usage);
  expect(await ledger.read('free-1')).toEqual(usage);
  const limits = { perMinute: 60, perDay: 1000 };
  const policy = { threshold: 5, durationSeconds: 60 };
  expect(await ledger.decide('free-1', limits, now, policy)).toMatchObject({
    verdict: 'admitted',
    rateLimit: { remaining: 0 },
  });
  expect((await ledger.decide('free-1', limits, now, policy)).verdict).toBe('limited');
});

test('a replica whose copy is older than the fleet, or whose fleet Redis lost, decides nothing and is told which', async () => {
  const { epoch } = await joinFleet(first(), 'checked', { settings: {} });
  let version = '0';
  const ledger = redisQuotaLedger(first(), 'checked', { epoch, version: () => version });
  const limits = { perMinute: 60, perDay: 1000 };
  const policy = { threshold: 5, durationSeconds: 60 };
  const now = Date.UTC(2026, 11, 2, 12, 0, 30);
  expect((await ledger.decide('free-1', limits, now, policy)).verdict).toBe('admitted');
  // Another replica saved a change of the clock or keys: the fleet's version moved.
  await first().hSet(fleetKey('checked'), 'version', '1');
  await expect(ledger.decide('free-1', limits, now, policy)).rejects.toBeInstanceOf(
    FleetStaleError,
  );
  expect((await ledger.read('free-1')).minute.count).toBe(1);
  version = '1';
  expect((await ledger.decide('free-1', limits, now, policy)).rateLimit.remaining).toBe(58);
  // The record gone (a flush, a Redis restarted without persistence): nothing is counted.
  await first().del(fleetKey('checked'));
  await expect(ledger.decide('free-1', limits, now, policy)).rejects.toBeInstanceOf(FleetLostError);
  expect((await ledger.read('free-1')).minute.count).toBe(2);
});
