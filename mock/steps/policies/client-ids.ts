/**
 * Who sent a request, by name: the client id every recorder shows (it reads it off the
 * exchange), worked out once per request.
 */

import type { FakeRequest } from '../../base/messages/fake-request.ts';
import { type Redaction, redacted } from '../../base/messages/redaction.ts';
import type { KeySecrets } from '../../base/quota/plans.ts';
import { type Context, createSlot } from '../../pipeline/pipeline.ts';

/** Names the client of a request (see createClientIds). */
export type ClientIds = (context: Context) => string;

/** The request's client id, once a step has worked it out. */
const clientIdSlot = createSlot<string>('client id');

/**
 * Who sent a request (also on every request-log line): its `X-Client-Id`, else its
 * `User-Agent`, else `-`, at most 64 characters, and never a secret (a client that sent a key or
 * the control token there, raw, percent-encoded or in base64, is shown as `[redacted]`).
 */
export function createClientIds(secretsNow: KeySecrets, redaction: Redaction): ClientIds {
  // A client sends the same header on every request: its id is worked out once per header text
  // while the keys stay the same entries (adding a key or a reset brings new secrets to look for).
  const byHeader = new Map<string, string>();
  let secretsSeen: readonly string[] | undefined;
  return (context) => {
    // Asked by the exchange and by a chaos draw of the same request: worked out once, against
    // the secrets known when the first asked.
    let found = context.get(clientIdSlot);
    if (found !== undefined) return found;
    const raw = clientHeader(context.request);
    const secrets = secretsNow();
    if (secrets !== secretsSeen) {
      byHeader.clear();
      secretsSeen = secrets;
    }
    found = byHeader.get(raw);
    if (found === undefined) {
      found = clientIdFrom(raw, redaction);
      // Bounded: a client that changes its header on every request costs no memory.
      if (byHeader.size >= 256) byHeader.clear();
      byHeader.set(raw, found);
    }
    context.set(clientIdSlot, found);
    return found;
  };
}

/**
 * The client a request's header names (`X-Client-Id`, else `User-Agent`), as every output shows
 * it: printable ASCII only (the id reaches the CLI's summary and the page), at most 64 characters,
 * `-` for none. Not yet redacted.
 */
export function printableClientId(request: Pick<FakeRequest, 'header'>): string {
  return printable(clientHeader(request));
}

/** The header that names the client. Lower-case names: the HTTP door looks headers up as given. */
function clientHeader(request: Pick<FakeRequest, 'header'>): string {
  return request.header('x-client-id') ?? request.header('user-agent') ?? '-';
}

function printable(raw: string): string {
  return (
    raw
      .replace(/[^\x20-\x7e]/g, '?')
      .trim()
      .slice(0, 64) || '-'
  );
}

function clientIdFrom(raw: string, redaction: Redaction): string {
  return redaction.text(raw) === raw ? printable(raw) : redacted;
}
