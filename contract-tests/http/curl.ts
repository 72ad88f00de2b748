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

/**
 * A curl line reproducing the request.
 * @example toCurl(exchange) // curl -sS -i -X POST 'http://host/v1/pets' -H "Authorization: Bearer $PETSTORE_API_KEY" ...
 */
export function toCurl(exchange: Pick<Exchange, 'spec' | 'url'>): string {
  const { spec } = exchange;
  const parts = ['curl -sS -i'];
  if (spec.method !== 'GET' || spec.body !== undefined) parts.push(`-X ${spec.method}`);
  parts.push(singleQuoted(exchange.url));
  if (spec.auth === 'key')
    parts.push(`-H ${withKeyVariable(`Authorization: Bearer ${keyPlaceholder}`)}`);
  else if (spec.auth !== 'none')
    parts.push(`-H ${withKeyVariable(`Authorization: ${spec.auth.header}`)}`);
  if (spec.body !== undefined) {
    parts.push(`-H ${singleQuoted(`Content-Type: ${spec.contentType ?? 'application/json'}`)}`);
    parts.push(`--data-raw ${singleQuoted(spec.body)}`);
  }
  return parts.join(' ');
}
