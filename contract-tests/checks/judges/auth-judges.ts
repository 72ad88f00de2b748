/**
 * What the authentication checks judge, on any request to one of the interface's operations
 * whoever sent it: no Authorization, or one that is not `Bearer <API_KEY>`, gets 401
 * (Authentication, "Failure": "Missing or invalid API key gives 401 with an Error body"; the
 * Error body is errors.bodyShape's).
 */
import type { Exchange, ReceivedResponse } from '../../http/exchange.ts';
import type { StatelessJudge } from '../check.ts';
import { statusProblem } from '../expect.ts';
import { authorizationForm, requestLine } from './seen-request.ts';

/**
 * HTTP's own refusals of a request too large to read (RFC 9110 sections 15.5.14-15, RFC 6585
 * section 5): they come before any header is looked at, so they say nothing of the key.
 */
const sizeRefusals = new Set([413, 414, 431]);

/** Whether the exchange is an answered request to one of the interface's operations. */
function toOperation(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return exchange.spec.operationId !== 'other' && status !== undefined && !sizeRefusals.has(status);
}

/** 401 without Authorization. */
export const missingKeyJudge: StatelessJudge = {
  appliesTo: (exchange) =>
    toOperation(exchange) && authorizationForm(exchange.spec.auth) === 'none',
  judge: (exchange) =>
    statusProblem(
      exchange.response as ReceivedResponse,
      [401],
      `${requestLine(exchange)} without a key`,
    ),
  unseen: 'no request without Authorization was seen',
};

/** 401 for an Authorization that is not `Bearer <API_KEY>`. */
export const malformedHeaderJudge: StatelessJudge = {
  appliesTo: (exchange) =>
    toOperation(exchange) && authorizationForm(exchange.spec.auth) === 'malformed',
  judge: (exchange) => {
    const { auth } = exchange.spec;
    const header = typeof auth === 'object' ? auth.header : '';
    return statusProblem(
      exchange.response as ReceivedResponse,
      [401],
      `${requestLine(exchange)} with Authorization "${header}"`,
    );
  },
  unseen: 'no request with an Authorization that is not "Bearer <API_KEY>" was seen',
};
