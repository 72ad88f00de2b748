/**
 * The judge of requests served past X-RateLimit-Remaining: 0 (served-past-zero.ts), on answers
 * timed by hand. Limits, rule 1 says the request after Remaining reaches 0 gets 429; a window
 * that refills continuously may serve it anyway, at its rate, from the decision that left it at
 * 0, which may come as early as the request answered 0 was sent.
 */
import { expect, test } from 'vitest';
import { type ServedAnswer, servedPastZeroJudge } from './served-past-zero.ts';

/** Answers of a window of 60 whose Reset lay 10 s ahead: one handed back every 167 ms. */
function judged(answers: readonly Omit<ServedAnswer, 'limit' | 'longestResetSeconds'>[]) {
  const judge = servedPastZeroJudge();
  return answers.map((answer) => judge({ ...answer, limit: 60, longestResetSeconds: 10 }));
}

test('two served past 0 right after an answer of 0 that took 900 ms are a refill, not a violation: counted from when that request was sent', () => {
  // As a busy machine served a GCRA: the answer of 0 left 900 ms after its request was sent, and
  // the next two came 166 ms apart; 1,067 ms of a 60-in-10-s refill hands back up to 7.
  expect(
    judged([
      { remainingBefore: 1, remaining: 0, sentAtMs: 0, answeredAtMs: 900 },
      { remainingBefore: 0, remaining: 0, sentAtMs: 901, answeredAtMs: 903 },
      { remainingBefore: 0, remaining: 0, sentAtMs: 904, answeredAtMs: 1_067 },
    ]),
  ).toEqual([undefined, undefined, undefined]);
});

test('two served past 0 within a few milliseconds of a quick answer of 0 are more than a refill hands back, and the reason quotes the numbers', () => {
  expect(
    judged([
      { remainingBefore: 1, remaining: 0, sentAtMs: 0, answeredAtMs: 5 },
      { remainingBefore: 0, remaining: 0, sentAtMs: 6, answeredAtMs: 8 },
      { remainingBefore: 0, remaining: 0, sentAtMs: 9, answeredAtMs: 12 },
    ]),
  ).toEqual([
    undefined,
    undefined,
    'served (200) 2 times in a row within 12 ms although each previous answer said X-RateLimit-Remaining: 0 (no refill of 60 a window hands back that many)',
  ]);
});

test('an answer with Remaining above 0 ends a run: the next run is counted afresh', () => {
  expect(
    judged([
      { remainingBefore: 1, remaining: 0, sentAtMs: 0, answeredAtMs: 1 },
      { remainingBefore: 0, remaining: 0, sentAtMs: 200, answeredAtMs: 201 },
      { remainingBefore: 0, remaining: 1, sentAtMs: 400, answeredAtMs: 401 },
      { remainingBefore: 1, remaining: 0, sentAtMs: 402, answeredAtMs: 403 },
      { remainingBefore: 0, remaining: 0, sentAtMs: 404, answeredAtMs: 405 },
      { remainingBefore: 0, remaining: 0, sentAtMs: 406, answeredAtMs: 407 },
    ]),
  ).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    'served (200) 2 times in a row within 5 ms although each previous answer said X-RateLimit-Remaining: 0 (no refill of 60 a window hands back that many)',
  ]);
});
