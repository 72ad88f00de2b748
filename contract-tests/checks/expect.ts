/** Assertions over one exchange; each failure carries the exchange for the curl line. */
import type { ShapeCheck } from '../contract/schemas.ts';
import type { Exchange, ReceivedResponse } from '../http/exchange.ts';
import { couldNotRun, fail } from './check.ts';

function answered(exchange: Exchange): ReceivedResponse {
  if (exchange.fault?.kind === 'oversized')
    couldNotRun(
      `${exchange.spec.method} ${exchange.spec.path}: ${exchange.fault.message}; raise --max-body-bytes to judge it`,
    );
  if (exchange.response === undefined)
    fail(`server fault: ${exchange.fault?.message ?? 'no answer'}`, exchange);
  return exchange.response;
}

function bodyPreview(response: ReceivedResponse): string {
  return response.preview();
}

/**
 * Requires one of the given statuses; returns the response.
 * @example expectStatus(exchange, [400], 'a body without name')
 */
export function expectStatus(
  exchange: Exchange,
  expected: readonly number[] | ((status: number) => boolean),
  what: string,
): ReceivedResponse {
  const response = answered(exchange);
  const ok =
    typeof expected === 'function' ? expected(response.status) : expected.includes(response.status);
  if (!ok) {
    const wanted = typeof expected === 'function' ? '' : ` (expected ${expected.join(' or ')})`;
    fail(`${what}: got ${response.status}${wanted}; body: ${bodyPreview(response)}`, exchange);
  }
  return response;
}

/** Requires the body to be JSON matching a shape; returns the parsed body. */
export function expectShape(exchange: Exchange, check: ShapeCheck, what: string): unknown {
  const response = answered(exchange);
  if (response.json === undefined && response.text !== 'null')
    fail(`${what}: the body is not JSON: ${bodyPreview(response)}`, exchange);
  const problem = check(response.json);
  if (problem !== undefined) fail(`${what}: ${problem}; body: ${bodyPreview(response)}`, exchange);
  return response.json;
}

/** Requires a server-side outcome that is not a 5xx or a transport fault. */
export function expectNoFault(exchange: Exchange, what: string): ReceivedResponse {
  const response = answered(exchange);
  if (response.status >= 500)
    fail(`${what}: server error ${response.status}; body: ${bodyPreview(response)}`, exchange);
  return response;
}
