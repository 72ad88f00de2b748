/** Any server at a base URL: the CLI's `--base-url`. */

import { ContractUsageError } from '../base/usage-error.ts';
import { versionPrefix } from '../contract/interface-facts.ts';
import { directRoute, fullCapabilities, type Target } from '../http/target.ts';

/** Whether a host name is this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Checks a base URL given as `flag` (`--base-url`, `--target`) and returns it without a trailing slash. */
export function normaliseBaseUrl(value: string, flag = '--base-url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ContractUsageError(
      `${flag} must be an absolute http(s) URL such as https://staging.example.com/v1, got "${value}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ContractUsageError(`${flag} must use http or https, got "${url.protocol}"`);
  if (url.username !== '' || url.password !== '')
    throw new ContractUsageError(
      `${flag} must not carry credentials; the key goes in PETSTORE_API_KEY`,
    );
  if (url.search !== '' || url.hash !== '')
    throw new ContractUsageError(`${flag} must not have a query or fragment`);
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(versionPrefix)) {
    throw new ContractUsageError(
      `${flag} must end with the version prefix ${versionPrefix} (the interface's base address includes it), e.g. ${url.origin}${path}${versionPrefix}`,
    );
  }
  return `${url.origin}${path}`;
}

/** A target for a server at `baseUrl`, sent `apiKey` (and `secondApiKey` where a check asks). */
export function urlTarget(baseUrl: string, apiKey: string, secondApiKey?: string): Target {
  const base = normaliseBaseUrl(baseUrl);
  return {
    name: base,
    baseUrl: base,
    apiKey,
    ...(secondApiKey === undefined ? {} : { secondApiKey }),
    loopback: isLoopbackHost(new URL(base).hostname),
    capabilities: fullCapabilities,
    viaPrism: false,
    route: directRoute(base),
    close: async () => {},
  };
}
