import { expect } from 'vitest';
import { fleetTarget, startReplicaFleet } from '../test/support/replica-fleet.ts';
import { expectOnlyOptInsSkipped, runContractSuite } from './suite.case.ts';

let forwarded: () => readonly number[] = () => [];

// The suite every door passes, against three replicas of one fake behind a front that sends
// each request to the next replica: one Pet Store, whichever replica answers.
runContractSuite({
  door: 'three replicas on Redis behind a round-robin front',
  newTarget: async () => {
    const fleet = await startReplicaFleet();
    forwarded = () => fleet.front.forwarded();
    return fleetTarget(fleet, { apiKey: 'enterprise-demo-key', secondApiKey: 'pro-demo-key' });
  },
  client: { seed: 20_261_202, budget: 5000 },
  options: { runs: 10, plan2: 'pro' },
  afterRun: (result) => {
    expectOnlyOptInsSkipped(result);
    // Every replica answered a share of the run.
    const counts = forwarded();
    expect(counts).toHaveLength(3);
    for (const count of counts) expect(count).toBeGreaterThan(50);
  },
});
