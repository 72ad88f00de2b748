/** Turns a recorded request into a curl command a user can paste, with the key left as a variable. */
import { type Exchange, keyPlaceholder } from './exchange.ts';

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Double-quotes text, escaping everything the shell would expand except `$PETSTORE_API_KEY`. */
function withKeyVariable(text: string): string {
  const parts = text.split(keyPlaceholder).map((part) => part.replace(/["\\$`]/g, '\\$&'));
  return `"${parts.join(keyPlaceholder)}"`;
}

/** Runs of padding at least this long are written as a shell expression, not spelt out. */
const longRun = /x{1024,}/;

/**
 * Quotes text for the shell; a long run of `x` (the padding of a large request) becomes
 * `$(head -c N /dev/zero | tr '\0' x)`, so a 256 KiB body stays a one-line command.
 */
function quoted(text: string): string {
  if (!longRun.test(text)) return singleQuoted(text);
  const literal = (part: string) => part.replace(/["\\$`]/g, '\\$&');
  let out = '';
  let at = 0;
  for (const match of text.matchAll(new RegExp(longRun, 'g'))) {
    out += `${literal(text.slice(at, match.index))}$(head -c ${match[0].length} /dev/zero | tr '\\0' x)`;
    at = match.index + match[0].length;
  }
  return `"${out}${literal(text.slice(at))}"`;
}

/**
 * A curl line reproducing the request.
 * @example toCurl(exchange) // curl -sS -i -X POST 'http://host/v1/pets' -H "Authorization: Bearer $PETSTORE_API_KEY" ...
 */
export function toCurl(exchange: Pick<Exchange, 'spec' | 'url'>): string {
  const { spec } = exchange;
  const parts = ['curl -sS -i'];
  if (spec.method !== 'GET' || spec.body !== undefined) parts.push(`-X ${spec.method}`);
  parts.push(quoted(exchange.url));
  if (spec.auth === 'key')
    parts.push(`-H ${withKeyVariable(`Authorization: Bearer ${keyPlaceholder}`)}`);
  else if (spec.auth !== 'none')
    parts.push(`-H ${withKeyVariable(`Authorization: ${spec.auth.header}`)}`);
  if (spec.body !== undefined) {
    parts.push(`-H ${singleQuoted(`Content-Type: ${spec.contentType ?? 'application/json'}`)}`);
    parts.push(`--data-raw ${quoted(spec.body)}`);
  }
  return parts.join(' ');
}
