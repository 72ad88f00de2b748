import { expect, test } from 'vitest';
import { brokenRulesIn, runCli } from '../test/support/contract-cli-process.ts';
import {
  fleetTarget,
  type ReplicaFleet,
  startReplicaFleet,
} from '../test/support/replica-fleet.ts';
import { expectOnlyOptInsSkipped, runContractSuite } from './suite.case.ts';

let fleet: ReplicaFleet | undefined;

// The suite every door passes, against three replicas of one fake behind a front that sends
// each request to the next replica: one Pet Store, whichever replica answers.
runContractSuite({
  door: 'three replicas on Redis behind a round-robin front',
  newTarget: async () => {
    fleet = await startReplicaFleet();
    return fleetTarget(fleet, { apiKey: 'enterprise-demo-key', secondApiKey: 'pro-demo-key' });
  },
  client: { seed: 20_261_202, budget: 5000 },
  options: { runs: 10, plan2: 'pro' },
  afterRun: expectOnlyOptInsSkipped,
});

test('the journal of any replica holds the whole run, numbered across the fleet, and names each of the three replicas as answering a share of it', async () => {
  if (fleet === undefined) throw new Error('the suite started no fleet');
  const journal = await fleet.control.requests({ limit: 1000 });
  const seqs = journal.requests.map((entry) => entry.seq);
  expect(new Set(seqs).size).toBe(seqs.length);
  const byReplica = new Map<string, number>();
  for (const { connection } of journal.requests) {
    const replica = connection.slice(0, connection.indexOf(' '));
    byReplica.set(replica, (byReplica.get(replica) ?? 0) + 1);
  }
  expect(byReplica.size).toBe(3);
  for (const count of byReplica.values()) expect(count).toBeGreaterThan(50);
  // The run's requests, not only this replica's third (control calls are not journalled).
  expect(journal.total).toBe(journal.requests.length);
  expect(journal.total).toBeGreaterThan(150);
});

test('the harness, run as CI runs it against a base URL with a Free key, finds the three replicas behind the front one conforming Pet Store', async () => {
  const fleet = await startReplicaFleet();
  try {
    const run = await runCli(['--base-url', fleet.url, '--seed=17'], {
      PETSTORE_API_KEY: 'free-demo-key',
      PETSTORE_API_KEY_2: 'pro-demo-key',
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(brokenRulesIn(run.stdout)).toEqual([]);
    // Every replica answered some of the run.
    for (const count of fleet.front.forwarded()) expect(count).toBeGreaterThan(5);
  } finally {
    await fleet.close();
  }
}, 120_000);
