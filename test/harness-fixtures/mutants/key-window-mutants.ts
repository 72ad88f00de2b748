/**
 * Single-fault variants of the fake whose rate limiter is keyed by something other than the key
 * (express-rate-limit's default keyGenerator counts the client's address): requests without a
 * valid key, or with another key, draw from the key's window, and another plan's key is told the
 * first key's limit. The run's key is the fake target's default (the Enterprise demo key); the
 * second key is the Pro demo key (300 a minute, 10,000 a day).
 */
import { intercept, rebuild, withHeaders } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';

/** The run's key (fake targets' default) and the second key the mutants that need one use. */
const runKey = 'enterprise-demo-key';
const secondKey = { apiKey: 'pro-demo-key', plan: 'pro' } as const;

/** Spends one request of the run key's window, as a limiter keyed by address would. */
async function spendRunKey(call: Parameters<Parameters<typeof intercept>[1]>[0]): Promise<void> {
  const origin = call.fake.config.origins[0] ?? '';
  await call.forward(
    rebuild(call.request, {
      url: `${origin}${call.fake.config.basePath}/pets?limit=1`,
      headers: new Headers({ Authorization: `Bearer ${runKey}` }),
      body: null,
    }),
  );
}

const isSecondKey = (request: Request) =>
  request.headers.get('Authorization') === `Bearer ${secondKey.apiKey}`;

/** Mutants of per-key windows. */
export const keyWindowMutants: readonly Mutant[] = [
  mutant({
    name: 'keyless-requests-counted',
    fault: "requests without a valid key (answered 401) draw from the key's window",
    expect: 'rateLimit.othersNotCounted',
    wrap: (fake) =>
      intercept(fake, async (call) => {
        const response = await call.forward();
        if (response.status === 401) await spendRunKey(call);
        return response;
      }),
  }),
  mutant({
    name: 'keys-share-a-window',
    fault: "requests with a second key draw from the first key's window",
    expect: 'rateLimit.keysIndependent',
    secondKey,
    wrap: (fake) =>
      intercept(fake, async (call) => {
        if (isSecondKey(call.request)) await spendRunKey(call);
        return call.forward();
      }),
  }),
  mutant({
    name: 'second-key-told-free-limit',
    fault:
      "a Pro key is told X-RateLimit-Limit 60, the Free plan's (a limiter with one limit for all)",
    expect: 'rateLimit.keysIndependent',
    secondKey,
    wrap: (fake) =>
      intercept(fake, async (call) => {
        const response = await call.forward();
        return isSecondKey(call.request)
          ? withHeaders(response, (headers) => {
              headers.set('X-RateLimit-Limit', '60');
              const remaining = Number(headers.get('X-RateLimit-Remaining'));
              headers.set('X-RateLimit-Remaining', String(Math.min(remaining, 59)));
            })
          : response;
      }),
  }),
];
