/**
 * Reading a JSON request body safely: the content type must be JSON in UTF-8, the body is read
 * with a byte cap (the door never buffers past it), decoded strictly and parsed without losing
 * int64 digits.
 */
import { parseJson } from '../../base/contract/lossless-json.ts';
import { type Answer, errorAnswer } from '../../base/messages/answer.ts';
import type { BodyBytes, FakeRequest } from '../../base/messages/fake-request.ts';
import { createSlot } from '../../pipeline/pipeline.ts';

/** The parsed body, or the error answer to send instead. */
export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly answer: Answer };

/**
 * The request's body as parsed JSON, once a route has read it: the exchange takes it from here
 * instead of decoding and parsing the body again.
 */
export const requestJsonSlot = createSlot<{ readonly value: unknown }>('request JSON');

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** Checks the Content-Type header: `application/json` or `*+json`, charset absent or UTF-8. */
export function checkJsonContentType(header: string | null): string | undefined {
  if (header === null) return 'Content-Type is missing: send application/json';
  if (header === 'application/json') return undefined;
  const [type = '', ...parameters] = header.split(';').map((part) => part.trim());
  if (!JSON_TYPE.test(type))
    return `Content-Type must be application/json, got "${type.slice(0, 100)}"`;
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=').map((part) => part.trim().toLowerCase());
    if (name === 'charset' && value.replace(/^"|"$/g, '') !== 'utf-8') {
      return 'Content-Type charset must be utf-8';
    }
  }
  return undefined;
}

const refused = (answer: Answer): BodyResult => ({ ok: false, answer });

/**
 * Strict UTF-8 (a malformed byte throws). One decoder serves every request: a decode without
 * `stream` keeps no state for the next one.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Reads and parses a JSON body of at most `maxBytes` bytes: at once when the door has the body
 * already, else once it is read.
 */
export function readJsonBody(
  request: FakeRequest,
  maxBytes: number,
): BodyResult | Promise<BodyResult> {
  const typeProblem = checkJsonContentType(request.header('content-type'));
  if (typeProblem !== undefined) return refused(errorAnswer('invalid_content_type', typeProblem));
  const bytes = request.body(maxBytes);
  return bytes instanceof Promise
    ? bytes.then((read) => parseBody(read, maxBytes))
    : parseBody(bytes, maxBytes);
}

function parseBody(bytes: BodyBytes, maxBytes: number): BodyResult {
  if (bytes === 'too-large') {
    return refused(
      errorAnswer('payload_too_large', `The request body must be at most ${maxBytes} bytes.`),
    );
  }
  if (bytes.byteLength === 0)
    return refused(
      errorAnswer('missing_body', 'The request body is required: send a NewPet as JSON.'),
    );
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return refused(errorAnswer('invalid_json', 'The request body is not valid UTF-8.'));
  }
  try {
    return { ok: true, value: parseJson(text) };
  } catch (error) {
    const detail = error instanceof SyntaxError ? `: ${error.message.slice(0, 200)}` : '';
    return refused(errorAnswer('invalid_json', `The request body is not valid JSON${detail}`));
  }
}
