/**
 * Prism as a second opinion. `viaPrism` puts `prism proxy` in front of a target: every request
 * goes through it, Prism forwards it unchanged in meaning and reports what breaks the document
 * in an `sl-violations` header, which the `prism.exchangesValid` observer judges. Nothing else in
 * the harness knows Prism is there. `prismMockTarget` checks `prism mock` of the document: shapes
 * only, no state, keys or rate limits.
 */
import { versionPrefix } from '../contract/interface-facts.ts';
import { wireRequestsHeader } from '../http/client.ts';
import { answerViolations, roundedByPrism } from '../http/prism-violations.ts';
import { type Capabilities, joinUrl, type Target } from '../http/target.ts';
import { startPrism } from './prism-process.ts';

/**
 * Whether Prism forwards a request faithfully. It reads JSON numbers and path ids as JS numbers,
 * so integers past 2^53 (valid int64 values) come out rounded; and it never answers a request
 * whose JSON body does not parse (it waits until the client gives up).
 */
function prismCarries(url: string, body: string): boolean {
  if (body !== '') {
    try {
      JSON.parse(body);
    } catch {
      return false;
    }
  }
  const digitRuns = `${url} ${body}`.match(/-?\d{16,}/g) ?? [];
  return digitRuns.every((digits) => {
    const value = BigInt(digits);
    return value < 2n ** 53n && value > -(2n ** 53n);
  });
}

/**
 * Wraps a target so that every request passes through `prism proxy`. Prism runs in its own
 * process, so the target must be reachable over the network (the fake's HTTP door, not the
 * in-process fake). Requests Prism would not carry faithfully go straight to the target, and a
 * GET whose answer Prism rounded is re-read from it (and counted: see `wireRequestsHeader`).
 */
export async function viaPrism(target: Target): Promise<Target> {
  const prism = await startPrism('proxy', [target.baseUrl]);
  const base = target.fetch ?? fetch;
  const toPrism = (url: string) => joinUrl(prism.origin, url.slice(target.baseUrl.length));
  const viaPrismFetch: typeof fetch = async (input, init) => {
    const url = String(input);
    const body = typeof init?.body === 'string' ? init.body : '';
    if (!url.startsWith(target.baseUrl) || !prismCarries(url, body)) return base(input, init);
    const answer = await base(toPrism(url), init);
    const method = (init?.method ?? 'GET').toUpperCase();
    // A GET whose answer Prism rounded is read again from the target itself.
    if (method !== 'GET' || !(answerViolations(answer.headers) ?? []).some(roundedByPrism))
      return answer;
    await answer.body?.cancel();
    const direct = await base(input, init);
    const headers = new Headers(direct.headers);
    headers.set(wireRequestsHeader, '2');
    return new Response(direct.body, { status: direct.status, headers });
  };
  return {
    ...target,
    name: `${target.name} via prism proxy`,
    viaPrism: true,
    fetch: viaPrismFetch,
    maxWireRequestsPerSend: 2,
    close: async () => {
      await prism.stop();
      await target.close();
    },
  };
}

/** What `prism mock` can be judged on: shapes only (no pets kept, any key, no rate limits). */
export const prismMockCapabilities: Capabilities = {
  semantics: false,
  rateLimits: false,
  selfTest: 'prism mock of openapi/petstore.yaml',
  missingReasons: {
    semantics:
      'prism mock answers from the document alone: no stored pets, any bearer key accepted, its own errors for requests outside the document',
    rateLimits: 'prism mock enforces no rate limits (its X-RateLimit-* values are placeholders)',
  },
};

/** Starts `prism mock` of the document and targets it; any bearer key is accepted there. */
export async function prismMockTarget(): Promise<Target> {
  const prism = await startPrism('mock', []);
  return {
    name: `prism mock (${prism.origin})`,
    baseUrl: `${prism.origin}${versionPrefix}`,
    apiKey: 'prism-mock-accepts-any-key',
    loopback: true,
    capabilities: prismMockCapabilities,
    viaPrism: false,
    route(spec) {
      // Prism ignores the path of servers[].url: it serves /pets, not /v1/pets.
      const url = joinUrl(prism.origin, spec.path);
      return { sendUrl: url, reproUrl: url };
    },
    close: () => prism.stop(),
  };
}
