/**
 * Where a request to the proxy goes: its own report, the target, or a refusal the proxy answers
 * itself, with why it does not forward it. The proxy keeps the promises of the server behind it:
 * only `Host` names that name it, only paths under the target's base path, no dot segment however
 * encoded (a control surface beside the API, such as the fake's `/__control/`, is never reached
 * through it).
 */
import type { IncomingMessage } from 'node:http';
import { hostProblem } from '../../mock/internal/entry.ts';
import { dotSegmentProblem } from '../http/plain-path.ts';

/** A request the proxy answers itself, as an Error body. */
export interface ProxyRefusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** Where `request` goes, for a proxy answering `allowedHosts` in front of `basePath`. */
export function proxyRoute(
  request: IncomingMessage,
  allowedHosts: readonly string[],
  basePath: string,
): 'report' | 'forward' | ProxyRefusal {
  const host = request.headers.host;
  const wrongHost = hostProblem(host ?? null, allowedHosts);
  if (wrongHost !== undefined)
    return {
      status: 403,
      code: 'host_not_allowed',
      message: `Host "${String(host).slice(0, 100)}" is not one this proxy answers to (allowed: ${allowedHosts.join(', ')}); add it with --allowed-hosts.`,
    };
  const target = request.url ?? '';
  const path = target.split('?')[0] ?? '';
  // Its own report, read only: anything else at that path is neither answered nor forwarded.
  if (path === '/__contract/report' && request.method === 'GET') return 'report';
  const under = path === basePath || path.startsWith(`${basePath}/`);
  if (!target.startsWith('/') || !under)
    return {
      status: 404,
      code: 'not_forwarded',
      message: `forwards only paths under ${basePath || '/'}; ${path.slice(0, 100)} is not one.`,
    };
  const dots = dotSegmentProblem(path);
  if (dots !== undefined || path.includes('\\'))
    return {
      status: 400,
      code: 'bad_request',
      message: `the path has ${dots ?? 'a backslash'}; it is not forwarded.`,
    };
  return 'forward';
}
