/**
 * One route of the control surface over HTTP (control-handlers.ts): what it is given and what it
 * answers. The control surface's own routes live in control-handlers.ts; a policy with state of
 * its own brings its routes with it (`Policy.routes`), over its own part of `fake.control`.
 */
import { isJsonObject, parseJson } from '../base/contract/lossless-json.ts';
import type { Answer } from '../base/messages/answer.ts';
import type { FakeRequest } from '../base/messages/fake-request.ts';
import { ControlInputError } from './control-input-error.ts';

/** A control request's JSON body. */
export type Body = Record<string, unknown>;

/** A control request, with the largest body the fake reads. */
export interface ControlRequest extends FakeRequest {
  readonly maxBodyBytes: number;
}

/** What a route answers, and what it changed in words for the log (never a secret). */
interface RouteResult {
  readonly body: unknown;
  readonly action?: string;
  /** An answer that is not the body as JSON (a coverage report in Markdown or XML). */
  readonly answer?: Answer;
}

/**
 * A route over a control surface, keyed `METHOD resource` (`'POST force'`): `id` is the one path
 * segment after the resource, for the routes that take one. Bad input throws a ControlInputError.
 */
type ControlRoute<Control> = (
  control: Control,
  request: ControlRequest,
  id: string,
) => Promise<RouteResult>;

/** Routes by `METHOD resource`. */
export type ControlRoutes<Control> = Readonly<Record<string, ControlRoute<Control>>>;

/** Reads a JSON object body with only the given fields; an empty body is `{}`. */
export async function bodyOf(request: ControlRequest, fields: readonly string[]): Promise<Body> {
  const bytes = await request.body(request.maxBodyBytes);
  if (bytes === 'too-large')
    throw new ControlInputError(`body must be at most ${request.maxBodyBytes} bytes`);
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new ControlInputError('body must be JSON');
  }
  if (!isJsonObject(value)) throw new ControlInputError('body must be a JSON object');
  const unknown = Object.keys(value).filter((field) => !fields.includes(field));
  if (unknown.length > 0) {
    throw new ControlInputError(
      `unknown field(s) ${unknown.map((f) => JSON.stringify(f.slice(0, 40))).join(', ')}; this route takes ${fields.length === 0 ? 'none' : fields.join(', ')}`,
    );
  }
  return value as Body;
}
