import { planLimits } from '../../contract/interface-facts.ts';
import { observerCheck } from '../check.ts';
import { answered, answerOf } from './observed-answer.ts';

/** The key's X-RateLimit-Limit is one of its plan's limits. */
export const rateLimitPlanLimits = observerCheck({
  id: 'rateLimit.planLimits',
  title: "X-RateLimit-Limit on answers to the key is its plan's per-minute or per-day limit",
  source: 'Limits, "Rate limits by plan" and X-RateLimit-Limit "Limit applying to the caller"',
  needs: ['plan'],
  appliesTo: answered(
    (response, exchange) =>
      exchange.authenticated && response.headers.get('X-RateLimit-Limit') !== null,
  ),
  judge(exchange, run) {
    if (run.plan === undefined) return undefined;
    const plan = planLimits[run.plan];
    const value = answerOf(exchange).headers.get('X-RateLimit-Limit');
    const allowed: number[] = [plan.perMinute, plan.perDay];
    return allowed.includes(Number(value))
      ? undefined
      : `X-RateLimit-Limit ${value} is neither ${plan.perMinute} (per minute) nor ${plan.perDay} (per day), the ${run.plan} plan's limits`;
  },
  whenUnseen: (run) => ({
    reason: 'no answer to the key carried X-RateLimit-Limit',
    expected: () => run.plan !== undefined,
  }),
});
