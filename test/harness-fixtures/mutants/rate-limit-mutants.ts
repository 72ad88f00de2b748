/** Single-fault variants of the fake for rate limiting, shown by a `--rate-limits` run with a small window. */
import { after } from './fault-helpers.ts';
import { intercept, withHeaders, withJson } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';
import { smallWindowFake } from './small-window.ts';

/** Mutants of rate limiting, shown by a `--rate-limits` run with a small window. */
export const rateLimitMutants: readonly Mutant[] = [
  mutant({
    name: 'retry-after-missing',
    fault: '429 answers carry no Retry-After',
    expect: 'rateLimit.retryAfterOn429',
    rateLimits: true,
    fake: smallWindowFake,
    wrap: after((response) =>
      response.status === 429
        ? withHeaders(response, (headers) => headers.delete('Retry-After'))
        : response,
    ),
  }),
  mutant({
    name: 'retry-after-garbage',
    fault: 'Retry-After says "soon"',
    expect: 'rateLimit.retryAfterOn429',
    rateLimits: true,
    fake: smallWindowFake,
    wrap: after((response) =>
      response.status === 429
        ? withHeaders(response, (headers) => headers.set('Retry-After', 'soon'))
        : response,
    ),
  }),
  mutant({
    name: 'limit-not-enforced',
    fault: 'requests past the limit are served (200) instead of 429',
    expect: 'rateLimit.exceededGives429',
    rateLimits: true,
    fake: smallWindowFake,
    wrap: after(async (response) =>
      response.status === 429
        ? withJson(
            withHeaders(response, (headers) => headers.delete('Retry-After')),
            () => [],
            200,
          )
        : response,
    ),
  }),
  mutant({
    name: 'banned-despite-honouring',
    fault: 'after one 429 the key stays refused even when Retry-After is honoured',
    expect: 'rateLimit.servedAfterRetryAfter',
    rateLimits: true,
    fake: smallWindowFake,
    wrap: (fake) => {
      let refused = false;
      return intercept(fake, async (call) => {
        const response = await call.forward();
        if (response.status === 429) refused = true;
        if (!refused || response.status === 401) return response;
        return new Response(
          JSON.stringify({ code: 'temporarily_banned', message: 'banned', status: 429 }),
          {
            status: 429,
            headers: withHeaders(response, (headers) => headers.set('Retry-After', '30')).headers,
          },
        );
      });
    },
  }),
];
