/**
 * `npm start`'s exit summary: the clock the waits were read on when it is not real time, and
 * an inconclusive rule's reason beside a failed rule's problem.
 */
import { expect, test } from 'vitest';
import { createFake } from '../../../core/fake.ts';
import { formatClientReport } from './client-report-step.ts';

test('the summary says a frozen clock and why a verdict is inconclusive', async () => {
  const fake = await createFake();
  fake.control.freezeTime(true);
  fake.control.setTime(Date.now() - 179 * 86_400_000 - 3_600_000 - 1000);
  fake.control.force('listPets', 503, 1, 1);
  const res = await fake.fetch('http://127.0.0.1:4010/v1/pets', {
    headers: { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'gave-up' },
  });
  await res.body?.cancel();
  const lines = formatClientReport(fake.control.clients()).split('\n');
  expect(lines[1]).toMatch(
    // Days and hours, not a count of ms such as `-15470879364 ms`.
    /^ {2}\(fake clock frozen, \d+ d \d+ h behind real time: each wait is read on both clocks, the longer counts\)$/,
  );
  expect(lines.slice(2)).toEqual([
    '  demo-free  gave-up  INCONCLUSIVE  1 requests, 1 failures answered',
    '    ? Retry-After: the client never sent a request after a Retry-After (it gave up): nothing to judge; a retry after it would decide',
  ]);
});
