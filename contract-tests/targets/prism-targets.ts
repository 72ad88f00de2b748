/**
 * Prism as a second opinion. `viaPrism` puts `prism proxy --errors` in front of a target: the
 * requests that obey the document go through Prism, which validates both sides of the exchange;
 * requests that break the document on purpose (no key, bad body...) go straight to the target,
 * since Prism would answer those itself. `prismMockTarget` checks `prism mock` of the document:
 * shapes only, no state, keys or rate limits.
 */
import { versionPrefix } from '../contract/interface-facts.ts';
import type { RequestSpec } from '../http/exchange.ts';
import { startPrism } from './prism-process.ts';
import { joinUrl, type Target } from './target.ts';

/**
 * Whether Prism can judge a request: it reads JSON and path ids as JS numbers and refuses
 * integers past 2^53 (valid int64 values) with its own 422, so those go straight to the target.
 */
function prismCanJudge(spec: RequestSpec): boolean {
  const digitRuns = `${spec.path} ${spec.body ?? ''}`.match(/-?\d{16,}/g) ?? [];
  return digitRuns.every((digits) => {
    const value = BigInt(digits);
    return value < 2n ** 53n && value > -(2n ** 53n);
  });
}

/**
 * Wraps a target so that conforming requests pass through `prism proxy --errors`. Prism runs in
 * its own process, so the target must be reachable over the network (the fake's HTTP door, not
 * the in-process fake).
 */
export async function viaPrism(target: Target): Promise<Target> {
  const prism = await startPrism('proxy', [target.baseUrl, '--errors']);
  return {
    ...target,
    name: `${target.name} via prism proxy`,
    viaPrism: true,
    route(spec) {
      const direct = target.route(spec);
      if (!spec.conforming || !prismCanJudge(spec)) return direct;
      return {
        sendUrl: joinUrl(prism.origin, spec.path),
        reproUrl: direct.reproUrl,
        fallbackUrl: direct.sendUrl,
      };
    },
    close: async () => {
      await prism.stop();
      await target.close();
    },
  };
}

/** Starts `prism mock` of the document and targets it; any bearer key is accepted there. */
export async function prismMockTarget(): Promise<Target> {
  const prism = await startPrism('mock', []);
  return {
    name: `prism mock (${prism.origin})`,
    baseUrl: `${prism.origin}${versionPrefix}`,
    apiKey: 'prism-mock-accepts-any-key',
    loopback: true,
    capabilities: {
      semantics: false,
      rateLimits: false,
      missingReasons: {
        semantics:
          'prism mock answers from the document alone: no stored pets, any bearer key accepted, its own errors for requests outside the document',
        rateLimits:
          'prism mock enforces no rate limits (its X-RateLimit-* values are placeholders)',
      },
    },
    viaPrism: false,
    route(spec) {
      // Prism ignores the path of servers[].url: it serves /pets, not /v1/pets.
      const url = joinUrl(prism.origin, spec.path);
      return { sendUrl: url, reproUrl: url };
    },
    close: () => prism.stop(),
  };
}
