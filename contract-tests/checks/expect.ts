/** Assertions over one exchange; each failure carries the exchange for the curl line. */
import type { ShapeCheck } from '../contract/schemas.ts';
import type { Exchange, ReceivedResponse } from '../http/exchange.ts';
import { couldNotRun, fail, type StatelessJudge } from './check.ts';

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
 * Why an answer's status is not one of `expected`, or undefined when it is: the words a failure
 * gives, whether an active check or a judge on the proxy finds it.
 * @example statusProblem(response, [401], 'GET /pets without a key')
 */
export function statusProblem(
  response: ReceivedResponse,
  expected: readonly number[] | ((status: number) => boolean),
  what: string,
): string | undefined {
  const ok =
    typeof expected === 'function' ? expected(response.status) : expected.includes(response.status);
  if (ok) return undefined;
  const wanted = typeof expected === 'function' ? '' : ` (expected ${expected.join(' or ')})`;
  return `${what}: got ${response.status}${wanted}; body: ${bodyPreview(response)}`;
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
  const problem = statusProblem(response, expected, what);
  if (problem !== undefined) fail(problem, exchange);
  return response;
}

/**
 * Requires an exchange the check sent to obey the rule its judge holds every exchange to (the
 * same judge the proxy runs). With `what`, the check sent it to show the rule, so an answer that
 * cannot show it (a 401 to a create with the key) fails too.
 * @example expectJudged(exchange, requiredFieldsJudge, 'POST /pets without name')
 */
export function expectJudged(exchange: Exchange, judges: StatelessJudge, what?: string): void {
  if (!judges.appliesTo(exchange)) {
    if (what === undefined) return;
    const response = answered(exchange);
    fail(
      `${what}: got ${response.status}, an answer that cannot show the rule; body: ${bodyPreview(response)}`,
      exchange,
    );
  }
  const problem = judges.judge(exchange);
  if (problem !== undefined) fail(problem, exchange);
}

/** Why an answer's body is not JSON matching a shape, or undefined when it is. */
export function shapeProblem(
  response: ReceivedResponse,
  check: ShapeCheck,
  what: string,
): string | undefined {
  if (response.json === undefined && response.text !== 'null')
    return `${what}: the body is not JSON: ${bodyPreview(response)}`;
  const problem = check(response.json);
  return problem === undefined ? undefined : `${what}: ${problem}; body: ${bodyPreview(response)}`;
}

/** Requires the body to be JSON matching a shape; returns the parsed body. */
export function expectShape(exchange: Exchange, check: ShapeCheck, what: string): unknown {
  const response = answered(exchange);
  const problem = shapeProblem(response, check, what);
  if (problem !== undefined) fail(problem, exchange);
  return response.json;
}

/** Requires a server-side outcome that is not a 5xx or a transport fault. */
export function expectNoFault(exchange: Exchange, what: string): ReceivedResponse {
  const response = answered(exchange);
  if (response.status >= 500)
    fail(`${what}: server error ${response.status}; body: ${bodyPreview(response)}`, exchange);
  return response;
}
