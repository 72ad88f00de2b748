/**
 * Whole answers QA stubs at runtime, as WireMock and Mockoon stubs do (StubInput says what a stub
 * matches and gives). A stub is checked whole before it is kept (a 400 naming the field and its
 * valid values), and the most recently added stub that matches a request answers it, as WireMock
 * picks the most recent of matching stubs.
 */
import { isJsonObject } from '../../../base/contract/lossless-json.ts';
import { operationIds } from '../../../base/contract/schemas.ts';
import type { OperationId } from '../../../base/contract/types.ts';

/** The answer a stub gives. */
export interface StubAnswer {
  /** Any status from 200 to 599 (optional with `drop`, which sends none). */
  readonly status?: number;
  /** A JSON body (any JSON value), sent as `application/json` unless `headers` say otherwise. */
  readonly body?: unknown;
  /** A body sent as it is, byte for byte: malformed JSON, an empty string, text. */
  readonly rawBody?: string;
  /** Headers to add, or to set over the fake's own (`X-RateLimit-Remaining: "-1"`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Headers to leave out, any case (`X-RateLimit-Remaining`, `Content-Type`, `Retry-After`). */
  readonly removeHeaders?: readonly string[];
  /** Held back this long, on the fake's clock as chaos latency is; 0 to 60,000 ms. */
  readonly delayMs?: number;
  /** Drop the connection instead of answering (after `delayMs`). */
  readonly drop?: boolean;
}

/** A stub as given to `force`: which requests it answers, how many times, and its answer. */
export interface StubInput {
  readonly operationId: OperationId;
  /** Only requests with this key (its public id, e.g. `demo-free`). */
  readonly keyId?: string;
  /** Only requests from this client (its `X-Client-Id`, as the client report names it). */
  readonly clientId?: string;
  /** Only requests whose query has each of these parameters with exactly this value. */
  readonly query?: Readonly<Record<string, string>>;
  /** Answers to give; omitted or `null`: every matching request until cleared. */
  readonly count?: number | null;
  readonly answer: StubAnswer;
}

/** A stub as kept: its input checked, its id, the answers left and the rules it breaks. */
export interface StubRule extends StubInput {
  readonly id: string;
  /** Answers left to give; `null`: until cleared. */
  remaining: number | null;
  /** The interface's rules its answer breaks, in words (`stub-breaks.ts`); empty when none. */
  readonly breaks: readonly string[];
}

/** What a stub matches a request on, worked out only when a stub asks for it. */
interface StubMatch {
  readonly keyId: string;
  clientId(): string;
  readonly query: URLSearchParams;
}

/** Most stubs kept at once. */
const maxStubs = 100;
/** Largest body a stub may give, in characters of JSON text or raw body. */
const maxBodyChars = 1_048_576;
/** Most headers a stub adds or removes. */
const maxHeaders = 50;
/** Longest delay, as chaos latency's. */
const maxDelayMs = 60_000;

const stubFields = ['operationId', 'keyId', 'clientId', 'query', 'count', 'answer'];
const answerFields = ['status', 'body', 'rawBody', 'headers', 'removeHeaders', 'delayMs', 'drop'];
/** RFC 9110 section 5.1: a field name is a token. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** RFC 9110 section 5.5: a field value has no CR, LF or NUL (and here no other control but tab). */
const fieldValue = /^[\t\x20-\x7e\x80-\xff]{0,8192}$/;
/** Headers the door writes for the message's framing: a stub that set them would break HTTP. */
const framingHeaders = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'trailer',
  'te',
]);
const keyIdFormat = /^[A-Za-z0-9._-]{1,64}$/;

/** Whether `value` is an integer from `min` to `max`. */
const isIntegerIn = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

function show(value: unknown): string {
  return (JSON.stringify(value) ?? String(value)).slice(0, 80);
}

function unknownFields(value: Record<string, unknown>, known: readonly string[], where: string) {
  const unknown = Object.keys(value).filter((field) => !known.includes(field));
  return unknown.length === 0
    ? undefined
    : `${where}unknown field(s) ${unknown.map((f) => JSON.stringify(f.slice(0, 40))).join(', ')}; a stub takes ${known.join(', ')}`;
}

/** Checks a header map (names RFC 9110 tokens, values without CR/LF, no framing header). */
function checkHeaders(value: unknown, fail: (problem: string) => never): Record<string, string> {
  if (!isJsonObject(value))
    fail('answer.headers must be an object of header names to string values');
  const entries = Object.entries(value);
  if (entries.length > maxHeaders) fail(`answer.headers must name at most ${maxHeaders} headers`);
  for (const [name, text] of entries) {
    if (!token.test(name))
      fail(`answer.headers: ${show(name)} is not a header name (RFC 9110 token characters)`);
    if (framingHeaders.has(name.toLowerCase()))
      fail(
        `answer.headers: ${name} is the door's own (message framing); a stub may not set ${[...framingHeaders].join(', ')}`,
      );
    if (typeof text !== 'string' || !fieldValue.test(text))
      fail(
        `answer.headers.${name} must be a string of at most 8192 characters without CR, LF or NUL, got ${show(text)}`,
      );
  }
  return { ...(value as Record<string, string>) };
}

/** Checks a stub's answer whole. */
function checkAnswer(value: unknown, fail: (problem: string) => never): StubAnswer {
  if (!isJsonObject(value))
    fail(
      'answer must be an object with status, and optionally body or rawBody, headers, removeHeaders, delayMs, drop',
    );
  const unknown = unknownFields(value, answerFields, 'answer: ');
  if (unknown !== undefined) fail(unknown);
  const { status, body, rawBody, headers, removeHeaders, delayMs, drop } = value;
  if (drop !== undefined && typeof drop !== 'boolean')
    fail(`answer.drop must be true or false, got ${show(drop)}`);
  if (drop === true) {
    const sent = ['status', 'body', 'rawBody', 'headers', 'removeHeaders'].filter(
      (field) => value[field] !== undefined,
    );
    if (sent.length > 0)
      fail(
        `answer.drop sends no answer, so it takes no ${sent.join(', ')}: give drop and optionally delayMs`,
      );
  } else if (!isIntegerIn(status, 200, 599))
    fail(`answer.status must be an integer from 200 to 599, got ${show(status)}`);
  if (body !== undefined && rawBody !== undefined)
    fail('answer takes body (JSON) or rawBody (text sent as it is), not both');
  if (rawBody !== undefined && typeof rawBody !== 'string')
    fail(`answer.rawBody must be a string, got ${show(rawBody)}`);
  const text = rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
  if (body !== undefined && text === undefined)
    fail('answer.body must be a JSON value (object, array, string, number, boolean or null)');
  if (text !== undefined && text.length > maxBodyChars)
    fail(`answer.body and answer.rawBody must be at most ${maxBodyChars} characters`);
  if ((status === 204 || status === 304) && text !== undefined)
    fail(`answer.status ${String(status)} has no body (RFC 9110): leave out body and rawBody`);
  if (delayMs !== undefined && !isIntegerIn(delayMs, 0, maxDelayMs))
    fail(`answer.delayMs must be an integer from 0 to ${maxDelayMs}, got ${show(delayMs)}`);
  if (
    removeHeaders !== undefined &&
    (!Array.isArray(removeHeaders) ||
      removeHeaders.length > maxHeaders ||
      !removeHeaders.every((name) => typeof name === 'string' && token.test(name)))
  )
    fail(
      `answer.removeHeaders must be a list of at most ${maxHeaders} header names, got ${show(removeHeaders)}`,
    );
  return {
    ...(drop === true ? { drop: true } : { status: status as number }),
    ...(body === undefined ? {} : { body }),
    ...(rawBody === undefined ? {} : { rawBody: rawBody as string }),
    ...(headers === undefined ? {} : { headers: checkHeaders(headers, fail) }),
    ...(removeHeaders === undefined ? {} : { removeHeaders: [...(removeHeaders as string[])] }),
    ...(delayMs === undefined ? {} : { delayMs: delayMs as number }),
  };
}

/** Checks a stub whole; `fail` throws the error its caller answers with (a 400, a session error). */
export function checkStub(value: unknown, fail: (problem: string) => never): StubInput {
  if (!isJsonObject(value)) fail('a stub must be an object with operationId and answer');
  const unknown = unknownFields(value, stubFields, '');
  if (unknown !== undefined) fail(unknown);
  const { operationId, keyId, clientId, query, count, answer } = value;
  if (!operationIds.includes(operationId as OperationId))
    fail(`operationId must be one of: ${operationIds.join(', ')}; got ${show(operationId)}`);
  if (keyId !== undefined && (typeof keyId !== 'string' || !keyIdFormat.test(keyId)))
    fail(`keyId must be a key's id (1 to 64 of A-Z a-z 0-9 . _ -), got ${show(keyId)}`);
  if (
    clientId !== undefined &&
    (typeof clientId !== 'string' || clientId.length < 1 || clientId.length > 200)
  )
    fail(`clientId must be a string of 1 to 200 characters, got ${show(clientId)}`);
  if (query !== undefined) {
    const entries = isJsonObject(query) ? Object.entries(query) : undefined;
    if (
      entries === undefined ||
      entries.length > 20 ||
      !entries.every(
        ([name, text]) =>
          name.length >= 1 && name.length <= 200 && typeof text === 'string' && text.length <= 2000,
      )
    )
      fail(
        `query must be an object of at most 20 parameter names to string values, got ${show(query)}`,
      );
  }
  if (count !== undefined && count !== null && !isIntegerIn(count, 1, 1_000_000))
    fail(
      `count must be an integer from 1 to 1000000, or null for every answer until cleared, got ${show(count)}`,
    );
  if (answer === undefined)
    fail(
      'answer is required: {"status": 200, "body": ...} (the positional form takes status, not answer)',
    );
  return {
    operationId: operationId as OperationId,
    ...(keyId === undefined ? {} : { keyId: keyId as string }),
    ...(clientId === undefined ? {} : { clientId: clientId as string }),
    ...(query === undefined ? {} : { query: { ...(query as Record<string, string>) } }),
    count: (count as number | null | undefined) ?? null,
    answer: checkAnswer(answer, fail),
  };
}

/** Whether a stub answers a request from `who`. */
function matches(stub: StubRule, who: StubMatch): boolean {
  if (stub.keyId !== undefined && stub.keyId !== who.keyId) return false;
  if (stub.query !== undefined)
    for (const [name, value] of Object.entries(stub.query))
      if (who.query.get(name) !== value) return false;
  return stub.clientId === undefined || stub.clientId === who.clientId();
}

/** Creates an empty set of stubs; too many stubs throw through `fail`. */
export function createStubbedAnswers(fail: (problem: string) => never) {
  let rules: StubRule[] = [];
  let made = 0;
  return {
    /** Keeps a checked stub, first in line. */
    add(stub: StubInput, breaks: readonly string[]): StubRule {
      if (rules.length >= maxStubs)
        fail(`at most ${maxStubs} stubs at once; clear them first (DELETE /__control/force)`);
      made += 1;
      const rule: StubRule = { id: `stub-${made}`, ...stub, remaining: stub.count ?? null, breaks };
      rules.unshift(rule);
      return rule;
    },
    /** The stub that answers a request of `operationId` from `who`, spending one of its answers. */
    take(operationId: OperationId, who: StubMatch): StubRule | undefined {
      const rule = rules.find((each) => each.operationId === operationId && matches(each, who));
      if (rule === undefined) return undefined;
      if (rule.remaining !== null) {
        rule.remaining -= 1;
        if (rule.remaining <= 0) rules = rules.filter((each) => each !== rule);
      }
      return rule;
    },
    /** The stubs kept, the one that answers first first. */
    list: () => rules.map((rule) => ({ ...rule })),
    clear: () => {
      rules = [];
    },
    /** Replaces every stub with copies of `rules` (from `list()` of stubs that were checked). */
    replace(given: readonly StubRule[]): void {
      rules = given.map((rule) => ({ ...rule }));
      made = Math.max(made, ...given.map((rule) => Number(rule.id.slice(5)) || 0));
    },
    /** How many stubs are kept: none costs a request nothing. */
    size: () => rules.length,
  };
}
