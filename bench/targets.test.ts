/**
 * The p99 target's verdict and the numbers its reason quotes, from a throughput result shaped as a
 * contended run of the table in bench/optimisations.md ("Missed targets and why"): the fake's worst
 * request, its rounds, the bare ceiling's p99 on that request in the same rounds, and the load
 * generator's own collection pauses. And the replicas' targets: the CPU ratio judged on one
 * replica and two alike, and the exact count.
 */
import { expect, test } from 'vitest';
import { type ReplicaCell, type ReplicasResult, replicaRequests } from './replicas.ts';
import { benchRequests } from './requests.ts';
import type { TargetId } from './servers.ts';
import { checkTargets } from './targets.ts';
import type { Cell, ThroughputResult } from './throughput.ts';

const cell = (p99RoundsMs: readonly number[]): Cell => ({
  requestsPerSecond: 20_000,
  p50Ms: 0.3,
  p99Ms: [...p99RoundsMs].sort((a, b) => a - b)[1] ?? Number.NaN,
  p99RoundsMs,
  loadGeneratorGcRoundsMs: p99RoundsMs.map((ms) => ms * 20),
  cpuUsPerRequest: 30,
  rpsSpread: { min: 19_000, max: 21_000 },
  unexpected: 0,
  errors: 0,
  rounds: p99RoundsMs.length,
});

function throughput(
  fakeRounds: Record<string, readonly number[]>,
  connections = 10,
): ThroughputResult {
  const cells: Record<string, Partial<Record<TargetId, Cell>>> = {};
  for (const request of benchRequests)
    cells[request.id] = {
      fake: cell(fakeRounds[request.id] ?? [1.0, 1.1, 1.2]),
      ceiling: cell(request.id === 'list-sold' ? [1.06, 2.2, 0.98] : [0.7, 0.8, 0.9]),
    };
  return {
    targets: ['fake', 'ceiling'],
    requests: benchRequests,
    cells,
    bodyBytes: {},
    prismBodyBytes: {},
    connections,
    durationSeconds: 3,
    wiremockSkipped: undefined,
    residentAfterStart: {},
    residentAfterLoad: {},
    petsAfterLoad: undefined,
  };
}

const p99Of = (result: ThroughputResult) =>
  checkTargets({ throughput: result }).find((check) => check.target.startsWith('fake p99'));

test('a worst p99 over 2 ms is MISSED, with its rounds and the ceiling in the same rounds quoted', () => {
  const check = p99Of(throughput({ 'list-sold': [2.38, 4.51, 0.81] }));
  expect(check?.verdict).toBe('MISSED');
  expect(check?.measured).toBe(
    "worst 2.38 ms (rounds 2.38, 4.51, 0.81) on `GET /v1/pets?status=sold&limit=100`; the bare ceiling's in the same rounds 1.06 ms (rounds 1.06, 2.20, 0.98); the load generator paused for its own collections 48, 90, 16 ms in the fake's rounds; every request: 1.10, 2.38, 1.10, 1.10",
  );
});

test('the median of the rounds is judged, not the worst round', () => {
  const check = p99Of(throughput({ create: [1.2, 4.5, 1.9] }));
  expect(check?.verdict).toBe('MET');
  expect(check?.measured).toMatch(/^worst 1\.90 ms \(rounds 1\.20, 4\.50, 1\.90\) on `POST/);
});

test('a run at another connection count gives no verdict', () => {
  const check = p99Of(throughput({}, 50));
  expect(check).toMatchObject({ verdict: 'N/A', measured: 'run used 50 connections' });
});

const replicaCell = (replicaCpuUs: number, redisCpuUs: number): ReplicaCell => ({
  requestsPerSecond: 5_000,
  rpsSpread: { min: 4_000, max: 6_000 },
  p99Ms: 5,
  replicaCpuUs,
  redisCpuUs,
  totalCpuUs: replicaCpuUs + (Number.isNaN(redisCpuUs) ? 0 : redisCpuUs),
  callsPerRequest: {},
  roundTrips: 4,
});

function replicas(two: ReplicaCell, admitted = 100): ReplicasResult {
  return {
    requests: replicaRequests,
    setups: ['memory', 'one', 'two'],
    cells: Object.fromEntries(
      replicaRequests.map((request) => [
        request.id,
        { memory: replicaCell(20, Number.NaN), one: replicaCell(35, 20), two },
      ]),
    ),
    sequentialRoundTrips: {},
    commandSources: {},
    exactness: { limitPerMinute: 100, connections: 20, sent: 1_000, admitted, statuses: {} },
    rounds: 3,
    seconds: 3,
    connections: 10,
    loadBefore: [0, 0, 0],
    loadAfter: [0, 0, 0],
  };
}

test('replica CPU within 3x for one replica but not two is MISSED, both fleets quoted', () => {
  const checks = checkTargets({ replicas: replicas(replicaCell(50, 25)) });
  const list = checks.find((check) => check.target.startsWith('replica + Redis CPU'));
  expect(list).toEqual({
    target: "replica + Redis CPU per request <= 3x the in-memory fake's on `GET /v1/pets?limit=20`",
    measured:
      'in memory 20.0 µs; one replica 35.0 + Redis 20.0 = 55.0 µs = 2.75x; two replicas 50.0 + Redis 25.0 = 75.0 µs = 3.75x',
    verdict: 'MISSED',
  });
});

test('the exact count is MET only when the admitted equal the limit', () => {
  const exact = (admitted: number) =>
    checkTargets({ replicas: replicas(replicaCell(30, 20), admitted) }).find((check) =>
      check.target.includes('exactly'),
    )?.verdict;
  expect([exact(100), exact(101)]).toEqual(['MET', 'MISSED']);
});

test('no replica targets when the section did not run', () => {
  expect(checkTargets({}).filter((check) => check.target.includes('replica'))).toEqual([]);
});
