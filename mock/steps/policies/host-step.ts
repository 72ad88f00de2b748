/**
 * Which `Host` values the fake answers. A page on a name the attacker controls can point that
 * name at 127.0.0.1 (DNS rebinding) and then read and drive the fake as its own origin; the
 * browser still sends the attacker's name as `Host`, so answering only the fake's own names
 * (Vite's `server.allowedHosts`, webpack-dev-server's `allowedHosts`) stops it.
 */

import { errorAnswer } from '../../base/messages/answer.ts';
import type { Step } from '../../pipeline/pipeline.ts';

/** The host name of a `Host` header value, lower case, without its port. */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * Why a request's Host is refused, or `undefined` when it is answered. No Host at all is
 * answered: in-process doors (msw in Node or a service worker) carry none, and the HTTP door's
 * parser refuses an HTTP/1.1 request without one.
 */
export function hostProblem(header: string | null, allowed: readonly string[]): string | undefined {
  if (header === null) return undefined;
  const name = hostName(header);
  const ok = allowed.some((entry) =>
    entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry,
  );
  if (ok) return undefined;
  return `Host "${header.slice(0, 100)}" is not one this fake answers to (allowed: ${allowed.join(', ')}); add it with --allowed-hosts or the allowedHosts option.`;
}

/**
 * The pipeline step: a request on a Host the fake does not answer to gets 403
 * `host_not_allowed`. One step, run by every pipeline that answers on the fake's names: the
 * interface's, the CORS preflight's and the control surface's.
 */
export function hostStep(allowedHosts: readonly string[]): Step {
  // Clients send the same Host on every request: the last one's verdict is kept, which spares a
  // trimmed, lower-cased copy of it per request.
  let lastHost: string | null | undefined;
  let lastProblem: string | undefined;
  return (context, next) => {
    const host = context.request.header('host');
    if (host !== lastHost) {
      lastProblem = hostProblem(host, allowedHosts);
      lastHost = host;
    }
    return lastProblem === undefined ? next() : errorAnswer('host_not_allowed', lastProblem);
  };
}
