/**
 * A stub's headers, written last: the headers it adds (over the fake's own, in any case) and
 * those it removes, once every step that writes headers (X-RateLimit-*, getPet's deprecation,
 * CORS) has written its own, so a stub can answer without `X-RateLimit-Remaining` or with a
 * `Retry-After` of its choosing.
 */
import type { Step } from '../../../pipeline/pipeline.ts';
import { stubSlot } from './injected-failure-step.ts';

/** The step: applies the headers of the stub that answered the request, if one did. */
export const stubHeadersStep: Step = {
  after(context, answer) {
    const stub = context.get(stubSlot);
    if (stub === undefined) return answer;
    const { headers } = answer;
    const dropped = new Set(
      [...(stub.removeHeaders ?? []), ...Object.keys(stub.headers ?? {})].map((name) =>
        name.toLowerCase(),
      ),
    );
    for (const name of Object.keys(headers))
      if (dropped.has(name.toLowerCase())) delete headers[name];
    Object.assign(headers, stub.headers);
    return answer;
  },
};
