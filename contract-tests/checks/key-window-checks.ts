/**
 * Two keys, two windows: X-RateLimit-* describe "the limit applying to the caller" and "requests
 * remaining in the current window" of the key (Limits: rate limits by plan, rate limit headers),
 * so another key's requests must not draw from it, and each key is told its own plan's limit. A
 * limiter keyed by client address (express-rate-limit's default keyGenerator) breaks both; with
 * one key only, `rateLimit.othersNotCounted` (an observer) looks at requests without a valid key.
 */
import { planLimits } from '../contract/interface-facts.ts';
import type { Exchange } from '../http/exchange.ts';
import { secondKeyPlaceholder } from '../http/exchange.ts';
import { integerHeader } from '../http/pacer.ts';
import { activeCheck, couldNotRun, fail, notExercised, priorities } from './check.ts';
import type { CheckContext } from './check-context.ts';
import { expectStatus } from './expect.ts';
import { listPetsRequest } from './requests.ts';
import { judgeWindowDrop, type WindowReading, windowReading } from './window-drop.ts';

/** The cheapest read: one pet. */
const probe = (auth: Parameters<typeof listPetsRequest>[1] = 'key') =>
  listPetsRequest({ limit: 1 }, auth);

/** The window reading of a 200 to `who`; the check could not run without one. */
function reading(exchange: Exchange, who: string): WindowReading {
  expectStatus(exchange, [200], `GET /pets?limit=1 with ${who}`);
  const found = windowReading(exchange.response?.headers, exchange.sentAtEpochMs);
  if (found === undefined)
    couldNotRun(
      `the answer to ${who} had no X-RateLimit-Remaining to compare (see headers.rateLimitOnEveryResponse)`,
    );
  return found;
}

/**
 * Fails when the key's Remaining fell by more than the one request the key itself sent between
 * `before` and `after`; passes saying how it read the window when a larger fall could have shown,
 * else ends not exercised with the reason.
 */
function judgeDrop(
  context: CheckContext,
  before: WindowReading,
  after: WindowReading,
  exchange: Exchange,
): void {
  const others = '2 with the second key';
  const drop = judgeWindowDrop(before, after, others);
  if (drop.kind === 'hidden')
    notExercised(`the second key's requests could not have shown in the key's window: ${drop.why}`);
  if (drop.kind === 'drop') fail(drop.problem, exchange);
  context.note(`${drop.inferred} across ${others}`);
}

/** Two keys have two windows, each with its plan's limit. */
export const rateLimitKeysIndependent = activeCheck({
  id: 'rateLimit.keysIndependent',
  title:
    "a second key's requests do not draw from the first key's window, and its X-RateLimit-Limit is its own plan's (--plan2)",
  source:
    'Limits, "Rate limits by plan"; rate limit headers: X-RateLimit-Limit "limit applying to the caller"',
  needs: ['secondKey', 'semantics', 'rateLimits'],
  // Right after the first keyless requests (auth.missingKey, errors.largeRequests): before the
  // first listing, every request is a reading.
  priority: priorities.auth,
  cost: { fixed: 4, perRun: 0 },
  async run(context) {
    const second = { header: `Bearer ${secondKeyPlaceholder}` } as const;
    const before = reading(await context.send(probe()), 'the key');
    const answers = [await context.send(probe(second)), await context.send(probe(second))];
    for (const answer of answers) {
      if (answer.response?.status === 401)
        couldNotRun(
          'the server refused PETSTORE_API_KEY_2 (401): set it to a second valid key, or unset it',
        );
      reading(answer, 'the second key');
    }
    const plan = context.choices.plan2;
    if (plan !== undefined) {
      const limits = planLimits[plan];
      for (const answer of answers) {
        const limit = integerHeader(answer.response?.headers, 'X-RateLimit-Limit');
        if (limit !== limits.perMinute && limit !== limits.perDay)
          fail(
            `X-RateLimit-Limit ${limit ?? '(none)'} on answers to the second key is neither ${limits.perMinute} (per minute) nor ${limits.perDay} (per day), the ${plan} plan's limits (--plan2 ${plan})`,
            answer,
          );
      }
    }
    const exchange = await context.send(probe());
    judgeDrop(context, before, reading(exchange, 'the key'), exchange);
  },
});
