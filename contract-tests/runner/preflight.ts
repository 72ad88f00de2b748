/**
 * The first request of every run, `GET /pets` with the key: a server that cannot be reached,
 * refuses the key or has no list endpoint at the base URL is a usage problem (exit 2), not a
 * verdict. Its rate-limit headers tell the planner what the key's window holds.
 */
import { ContractUsageError } from '../base/usage-error.ts';
import { isStopSignal } from '../checks/property.ts';
import type { Exchange } from '../http/exchange.ts';

/** Why the preflight's answer means the run cannot start, or undefined when it can. */
function preflightProblem(baseUrl: string, exchange: Exchange): string | undefined {
  const url = exchange.url;
  if (exchange.fault?.kind === 'oversized')
    return `GET ${url}: ${exchange.fault.message}; raise --max-body-bytes if that is a real page of pets`;
  if (exchange.fault !== undefined) return `cannot reach ${url}: ${exchange.fault.message}`;
  const status = exchange.response?.status;
  if (status === 401 || status === 403)
    return `the server answered ${status} to GET ${url} with PETSTORE_API_KEY: check that the variable holds a valid key for ${baseUrl}`;
  if (status === 404)
    return `the server answered 404 to GET ${url}: check --base-url (it must be the base address, ending in /v1)`;
  return undefined;
}

/** Sends the preflight; throws ContractUsageError when the run cannot start. */
export async function preflight(baseUrl: string, send: () => Promise<Exchange>): Promise<Exchange> {
  let exchange: Exchange;
  try {
    exchange = await send();
  } catch (error) {
    if (isStopSignal(error)) throw new ContractUsageError(`cannot start: ${error.message}`);
    throw error;
  }
  const problem = preflightProblem(baseUrl, exchange);
  if (problem !== undefined) throw new ContractUsageError(problem);
  return exchange;
}
