/**
 * The test helper's own refusals: no matching client, and nothing to judge. (Its message for a
 * client that broke the rule is checked in client-compliance.test.ts.)
 */
import { expect, test } from 'vitest';
import { createFake } from '../../../core/fake.ts';
import { ClientComplianceError, expectClientCompliance } from './expect-client-compliance.ts';

const api = 'http://127.0.0.1:4010/v1';

test('a client that never sent a request fails with the clients the fake did see', async () => {
  const fake = await createFake();
  await fake.fetch(`${api}/pets`, {
    headers: { Authorization: 'Bearer pro-demo-key', 'X-Client-Id': 'web' },
  });
  expect(() => expectClientCompliance(fake, { clientId: 'mobile' })).toThrow(
    'petstore-fake: no client for client "mobile" has sent a request with a key (clients seen: demo-pro/web)',
  );
});

test('nothing to judge fails unless requireEvidence is false', async () => {
  const fake = await createFake();
  await fake.fetch(`${api}/pets`, {
    headers: { Authorization: 'Bearer pro-demo-key', 'X-Client-Id': 'web' },
  });
  let thrown: unknown;
  try {
    expectClientCompliance(fake, { keyId: 'demo-pro' });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ClientComplianceError);
  expect((thrown as Error).message).toMatch(
    /^petstore-fake: nothing to judge for key demo-pro: no Retry-After was sent/,
  );
  expect((thrown as ClientComplianceError).clients.map((c) => c.verdict)).toEqual([
    'not-applicable',
  ]);
  expect(expectClientCompliance(fake, { keyId: 'demo-pro', requireEvidence: false })).toHaveLength(
    1,
  );
});
