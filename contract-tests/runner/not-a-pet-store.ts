/**
 * Whether anything at the base URL answers as a Pet Store at all. A stub whose paths lack the
 * version prefix, a gateway's own pages, a web server's default site: each answers every request
 * alike, and a run against it lists every rule as broken without saying why. When the preflight's
 * answer is not one a Pet Store gives (an HTML page, a body naming another product, a body that
 * is not JSON, JSON that is neither pets nor an Error) and the run's first `GET /pets` without a
 * key (auth.missingKey's first request), which the interface answers 401 with an Error, is no Pet
 * Store's either, the run says so before its findings, which stay: they are true of what answers
 * there. It costs no request of its own.
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

/** Whether an exchange is `GET /pets` without a key: the second answer the hint compares. */
function isKeylessListing(exchange: Exchange): boolean {
  const { spec } = exchange;
  return spec.method === 'GET' && spec.path === '/pets' && spec.auth === 'none';
}

/**
 * Watches a run for what tells a wrong address from a server that breaks rules: `say` is called
 * once, with the lines to print, when the preflight's answer is foreign and so is the first
 * answer to `GET /pets` without a key; never when either could be a Pet Store's.
 * @example const watch = watchForNotAPetStore(baseUrl, preflight, print); client.watch(watch)
 */
export function watchForNotAPetStore(
  baseUrl: string,
  preflight: Exchange,
  say: (lines: readonly string[]) => void,
): (exchange: Exchange) => void {
  const keyed = preflight.response;
  const why = keyed === undefined ? undefined : foreignness(keyed);
  let done = keyed === undefined || why === undefined;
  return (exchange) => {
    if (done || !isKeylessListing(exchange) || keyed === undefined) return;
    done = true;
    const other = exchange.response;
    const otherWhy = other === undefined ? undefined : foreignness(other);
    if (other === undefined || otherWhy === undefined) return;
    const path = new URL(preflight.url).pathname;
    const same =
      other.status === keyed.status && other.text === keyed.text
        ? 'the same answer'
        : `${quoted(other)} (${otherWhy})`;
    say([
      `${toolName}: nothing at ${baseUrl} answers as a Pet Store: GET ${path} with the key got ${quoted(keyed)} (${why}), and without a key ${same}. The findings below are true of what answers there, but check:`,
      `${toolName}:   that --base-url is the service's base address, ending in its version prefix (/v1): the interface's paths (/pets...) are relative to it`,
      `${toolName}:   that PETSTORE_API_KEY is a key of that server`,
      `${toolName}:   whether a gateway or proxy in front answers instead of the service`,
    ]);
  };
}
