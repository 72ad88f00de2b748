import { expect, test } from 'vitest';
import { petStatuses } from '../contract/interface-facts.ts';
import { edgeNameExamples } from './new-pet.ts';

test('edgeNameExamples: each edge name is sent with a different status, every status once (pairwise with status)', () => {
  const statuses = edgeNameExamples('contract-x-', true).map((example) => example.sent?.status);
  expect(new Set(statuses)).toEqual(new Set(petStatuses));
  // Without the empty name (a remote run), the two others still differ.
  const remote = edgeNameExamples('contract-x-', false).map((example) => example.sent?.status);
  expect(new Set(remote).size).toBe(remote.length);
});
