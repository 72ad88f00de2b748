/**
 * Reading a JSON request body safely: the content type must be JSON in UTF-8, the body is read
 * with a byte cap (never buffered past it), decoded strictly and parsed without losing int64
 * digits.
 */
import { parseJson } from '../contract/lossless-json.ts';
import { errorResponse } from '../core/errors.ts';

/** The parsed body, or the error response to send instead. */
export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly response: Response };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** Checks the Content-Type header: `application/json` or `*+json`, charset absent or UTF-8. */
export function checkJsonContentType(header: string | null): string | undefined {
  if (header === null) return 'Content-Type is missing: send application/json';
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

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array | 'too-large'> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return 'too-large';
  if (request.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return 'too-large';
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Reads and parses a JSON body of at most `maxBytes` bytes. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const typeProblem = checkJsonContentType(request.headers.get('content-type'));
  if (typeProblem !== undefined)
    return { ok: false, response: errorResponse('invalid_content_type', typeProblem) };
  const bytes = await readCapped(request, maxBytes);
  if (bytes === 'too-large') {
    return {
      ok: false,
      response: errorResponse(
        'payload_too_large',
        `The request body must be at most ${maxBytes} bytes.`,
      ),
    };
  }
  if (bytes.byteLength === 0)
    return {
      ok: false,
      response: errorResponse(
        'missing_body',
        'The request body is required: send a NewPet as JSON.',
      ),
    };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return {
      ok: false,
      response: errorResponse('invalid_json', 'The request body is not valid UTF-8.'),
    };
  }
  try {
    return { ok: true, value: parseJson(text) };
  } catch (error) {
    const detail = error instanceof SyntaxError ? `: ${error.message.slice(0, 200)}` : '';
    return {
      ok: false,
      response: errorResponse('invalid_json', `The request body is not valid JSON${detail}`),
    };
  }
}
