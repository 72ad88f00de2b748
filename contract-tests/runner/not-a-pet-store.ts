/**
 * Whether anything at the base URL answers as a Pet Store at all. A stub whose paths lack the
 * version prefix, a gateway's own pages, a web server's default site: each answers every request
 * alike, and a run against it lists every rule as broken without saying why. When the preflight's
 * answer is not one a Pet Store gives (an HTML page, a body naming another product, a body that
 * is not JSON, JSON that is neither pets nor an Error) and the same request without a key, which
 * the interface answers 401 with an Error, is no Pet Store's either, the run says so before its
 * findings, which stay: they are true of what answers there.
 */
import { toolName } from '../base/usage-error.ts';
import { checkError, checkPets } from '../contract/schemas.ts';
import type { Exchange, ReceivedResponse } from '../http/exchange.ts';

/** What other products write in the answers they give for a path they do not serve. */
const otherProducts: readonly { readonly name: string; readonly says: RegExp }[] = [
  { name: 'a Specmatic stub', says: /No matching REST stub/i },
  { name: 'WireMock', says: /Request was not matched|no stub mappings/i },
  { name: 'Kong', says: /no Route matched with those values/i },
  { name: 'AWS API Gateway', says: /Missing Authentication Token/ },
  { name: 'nginx', says: /<center>nginx|Welcome to nginx/i },
  { name: 'Apache httpd', says: /<address>Apache|Apache\/\d/i },
  { name: 'express', says: /Cannot (GET|POST) \// },
  { name: 'Spring Boot', says: /Whitelabel Error Page/ },
];

/** Why an answer is none a Pet Store gives, or undefined when it could be one. */
function foreignness(response: ReceivedResponse): string | undefined {
  const product = otherProducts.find((other) => other.says.test(response.text));
  if (product !== undefined) return `it names ${product.name}`;
  const type = response.headers.get('Content-Type') ?? '';
  if (/^text\/html/i.test(type) || /^\s*<(!doctype|html)/i.test(response.text))
    return 'an HTML page';
  if (response.json === undefined) return 'not JSON';
  if (checkPets(response.json) === undefined || checkError(response.json) === undefined)
    return undefined;
  return 'JSON that is neither a list of pets nor an Error';
}

/** One answer as the hint quotes it: status, Content-Type and the start of the body. */
function quoted(response: ReceivedResponse): string {
  const type = response.headers.get('Content-Type') ?? 'no Content-Type';
  return `${response.status} ${type.split(';')[0]} "${response.preview(80)}"`;
}

/**
 * The lines that tell the user nothing at `baseUrl` answers as a Pet Store, or undefined when the
 * preflight's answer could be one's. `withoutKey` sends the preflight's request without a key,
 * only when the preflight's answer was foreign: every answer alike is what tells a wrong address
 * from a server that breaks one rule.
 * @example await notAPetStore(baseUrl, preflight, () => client.send(listPetsRequest({}, 'none')))
 */
export async function notAPetStore(
  baseUrl: string,
  preflight: Exchange,
  withoutKey: () => Promise<Exchange>,
): Promise<string[] | undefined> {
  const keyed = preflight.response;
  const why = keyed === undefined ? undefined : foreignness(keyed);
  if (keyed === undefined || why === undefined) return undefined;
  const other = (await withoutKey()).response;
  const otherWhy = other === undefined ? undefined : foreignness(other);
  if (other === undefined || otherWhy === undefined) return undefined;
  const path = new URL(preflight.url).pathname;
  const same =
    other.status === keyed.status && other.text === keyed.text
      ? 'the same answer'
      : `${quoted(other)} (${otherWhy})`;
  return [
    `${toolName}: nothing at ${baseUrl} answers as a Pet Store: GET ${path} with the key got ${quoted(keyed)} (${why}), and without a key ${same}. The findings below are true of what answers there, but check:`,
    `${toolName}:   that --base-url is the service's base address, ending in its version prefix (/v1): the interface's paths (/pets...) are relative to it`,
    `${toolName}:   that PETSTORE_API_KEY is a key of that server`,
    `${toolName}:   whether a gateway or proxy in front answers instead of the service`,
  ];
}
