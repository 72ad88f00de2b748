/**
 * Prism's `Prefer: code=<status>` request header, as the fake's own (the real service ignores
 * it): an error status the operation can give comes as the fake would give it (a 429 with
 * Retry-After and the caller's X-RateLimit-*, a 401 with its challenge...), spends no quota,
 * changes nothing and is marked (`injected: 'prefer'`); its success status runs the request as
 * usual. Prism's grammar is read here (RFC 7240; prism-http-server's getHttpConfigFromRequest.js:
 * `code` must be three digits, else 422); `example=` and `dynamic=` choose among a document's
 * examples, which a fake with a store has no use for, and are ignored. A status the operation
 * cannot give is a 400 naming those it can (Prism's 404 "Requested status code ... is not defined
 * in the document", NegotiatorHelpers.js, would read as a missing pet).
 */
import { ConfigError } from '../../../base/config-error.ts';
import { openapiDocument } from '../../../base/contract/openapi.generated.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import type { Answer } from '../../../base/messages/answer.ts';
import { type ErrorCode, errorTemplates } from '../../../base/messages/errors.ts';
import { type KeyUsage, peekRateLimit } from '../../../base/quota/rate-limit.ts';
import type { PolicyCommandLine } from '../../../pipeline/config/policy-command-line.ts';
import type { Context, Step } from '../../../pipeline/pipeline.ts';
import { callerSlot, callerUsage, invalidTokenChallenge } from '../../policies/auth.ts';
import type { Refuse } from '../../policies/refusal.ts';
import { routeSlot } from '../../routes/route.ts';
import { forceableStatuses } from './forced-responses.ts';

/** Prefer's own option, which joins createFake's: `prefer: false` ignores the header, as the real service does. */
export interface PreferOptions {
  /** Whether `Prefer: code=<status>` forces an answer (default true; `--no-prefer`). */
  readonly prefer?: boolean;
}

/**
 * The error each status is given with: the forced answers' own table (a 400 is the operation's
 * own kind, badRequestCodes below).
 */
const errorCodes: Readonly<Record<number, ErrorCode>> = forceableStatuses;
const badRequestCodes: Record<OperationId, ErrorCode> = {
  listPets: 'invalid_query',
  createPet: 'invalid_body',
  getPet: 'invalid_id',
};

/**
 * What `code=` can ask of each operation: its success first, then the errors it lists in the
 * document that the fake gives from its own steps (400, 401, 404, 429; a Host, a time-out or a
 * size limit are the door's, not a request's), and the 5xx the fake gives when QA forces them.
 */
const statusesOf = {} as Record<OperationId, number[]>;
for (const methods of Object.values(openapiDocument.paths))
  for (const operation of Object.values(methods)) {
    const { operationId, responses } = operation as {
      operationId: OperationId;
      responses: Record<string, unknown>;
    };
    const listed = Object.keys(responses).map(Number);
    const success = listed.find((status) => status < 300) as number;
    const errors = listed.filter(
      (status) => status === 400 || (status !== success && errorCodes[status] !== undefined),
    );
    statusesOf[operationId] = [success, ...errors, 500, 502, 503, 504];
  }

/** The `code` preference of a Prefer header (RFC 7240: comma-separated, names any case), if any. */
function preferredCode(header: string): string | undefined {
  for (const preference of header.split(',')) {
    const [head = ''] = preference.split(';');
    const at = head.indexOf('=');
    if (at < 0 || head.slice(0, at).trim().toLowerCase() !== 'code') continue;
    return head
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

/** The step, after authentication: a Prefer'd error answers at once, as the fake would give it. */
export function preferStep({ refuse }: { readonly refuse: Refuse }, options: PreferOptions): Step {
  const enabled = options.prefer ?? true;
  if (typeof enabled !== 'boolean')
    throw new ConfigError('prefer', `must be true or false, got ${String(enabled)}`);

  const answerWith = (
    context: Context,
    code: ErrorCode,
    message: string,
    usage: KeyUsage,
  ): Answer => {
    const { limits } = context.need(callerSlot);
    const peek = peekRateLimit(usage, limits, context.now);
    const limited = code === 'rate_limited';
    const retries = limited || code === 'service_unavailable';
    return {
      ...refuse(context, code, {
        // A 429 as the rate limit gives it: nothing left, and Retry-After until the window resets.
        rateLimit: limited ? { ...peek, remaining: 0 } : peek,
        message,
        ...(retries ? { retryAtMs: limited ? peek.reset * 1000 : context.now + 1000 } : {}),
        ...(code === 'unauthorized'
          ? { headers: { 'WWW-Authenticate': invalidTokenChallenge } }
          : {}),
      }),
      injected: 'prefer',
    };
  };
  const answer = (context: Context, code: ErrorCode, message: string): Answer | Promise<Answer> => {
    const usage = callerUsage(context);
    return usage instanceof Promise
      ? usage.then((read) => answerWith(context, code, message, read))
      : answerWith(context, code, message, usage);
  };

  // Off, the step is not there at all: a request pays nothing for it.
  if (!enabled) return (_context, next) => next();
  return (context, next) => {
    const header = context.request.header('prefer');
    if (header === null) return next();
    const wanted = preferredCode(header);
    const { operationId } = context.need(routeSlot).route;
    if (wanted === undefined || operationId === undefined) return next();
    const [success, ...errors] = statusesOf[operationId];
    const status = /^\d{3}$/.test(wanted) ? Number(wanted) : undefined;
    if (status === success) return next();
    if (status === undefined || !errors.includes(status))
      return answer(
        context,
        'bad_request',
        `Prefer: code=${wanted.slice(0, 20)} is no status ${operationId} can give; it gives ${statusesOf[operationId].join(', ')} (the fake's own use of Prism's header).`,
      );
    const code = status === 400 ? badRequestCodes[operationId] : (errorCodes[status] as ErrorCode);
    const template = errorTemplates[code].message.replace(' (forced).', '.');
    return answer(context, code, `${template} (Prefer: code=${status})`);
  };
}

/** `npm start --no-prefer`: the header is ignored, as the real service ignores it. */
preferStep.commandLine = {
  flags: [
    {
      name: 'no-prefer',
      value: '',
      help: [
        "ignore Prism's Prefer: code=<status> request header, as the real",
        'service does (docs/qa.md: The Prefer header)',
      ],
      option: 'prefer',
      reads: 'off',
    },
  ],
} satisfies PolicyCommandLine;
