/**
 * `petstore-fake/connect`: the control surface of a fake that runs in another process (one a
 * runner's global set-up started with `startFake`, or `npx petstore-fake`), from a test file,
 * over HTTP: every function of `fake.control`, each returning a promise, as the browser door's
 * `fake.control` does. It imports no msw and ships as CommonJS too, so a Jest test file loads it
 * with `require` and no flags.
 */
import { parseJson, stringifyJson } from '../../base/contract/lossless-json.ts';
import { type RemoteControl, remoteControl } from '../../core/remote-control.ts';
import type { ControlReply } from '../../pipeline/control-call.ts';

export type { RemoteControl } from '../../core/remote-control.ts';
export { ControlInputError } from '../../pipeline/control-input-error.ts';

/** How to reach the control surface. */
export interface ConnectFakeOptions {
  /** The control token (`PETSTORE_CONTROL_TOKEN`, StartFakeOptions' `controlAccess.token`), sent as X-Control-Token. */
  readonly token?: string;
  /** The fetch to send with (default the global one). */
  readonly fetch?: typeof fetch;
  /** How long one call may take before it fails, in milliseconds (default 30 000). */
  readonly timeoutMs?: number;
}

/** The largest reply read: a journal or a snapshot of a full store fits many times over. */
const maxReplyBytes = 256 * 1024 * 1024;

/** The reply's text, read up to maxReplyBytes; a longer one is refused, never held. */
async function cappedText(answer: Response, controlUrl: string): Promise<string> {
  const tooLong = () =>
    new Error(`${prefix(controlUrl)}: the reply is longer than ${maxReplyBytes} bytes`);
  if (Number(answer.headers.get('content-length') ?? 0) > maxReplyBytes) {
    await answer.body?.cancel();
    throw tooLong();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of answer.body ?? []) {
    size += chunk.byteLength;
    if (size > maxReplyBytes) throw tooLong();
    chunks.push(chunk);
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(whole);
}

/** The start of a connectFake error, naming where it was sent. */
const prefix = (controlUrl: string) => `petstore-fake: connectFake(${controlUrl})`;

/** Reads the control surface's answer to one call as a reply, or throws saying what went wrong. */
async function replyOf(answer: Response, controlUrl: string): Promise<ControlReply> {
  const text = await cappedText(answer, controlUrl);
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    body = undefined;
  }
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (answer.status === 200 && (fields.kind === 'value' || fields.kind === 'error'))
    return fields as ControlReply;
  // The control surface refuses with 400 and 403: a 401 is the API's key check (a URL under
  // /v1), a 404 the API's or another server's.
  const hint =
    (answer.status === 401 || answer.status === 404) && fields.code !== 'control_not_found'
      ? `; pass the control surface's URL (startFake's \`controlUrl\`, e.g. http://127.0.0.1:4010/__control), not the API's`
      : '';
  const said = typeof fields.message === 'string' ? `: ${fields.message}` : '';
  throw new Error(
    `${prefix(controlUrl)}: the control surface answered ${answer.status}${said}${hint}`,
  );
}

/** A fake in another process, as a test file meets it: its control surface, over HTTP. */
export interface ConnectedFake {
  /** `fake.control` of that fake: each function returns a promise (hand the whole to `expectRequests`). */
  readonly control: RemoteControl;
  /** Where the calls go, without a trailing slash. */
  readonly controlUrl: string;
}

/**
 * The fake whose control surface is at `controlUrl` (startFake's `controlUrl`), over HTTP.
 * @example
 * const fake = connectFake(process.env.PETSTORE_CONTROL_URL, { token: process.env.PETSTORE_CONTROL_TOKEN });
 * await fake.control.reset();
 */
export function connectFake(controlUrl: string, options: ConnectFakeOptions = {}): ConnectedFake {
  const base = String(controlUrl ?? '').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(base))
    throw new TypeError(
      `${prefix(String(controlUrl))}: give the control surface's http(s) URL, e.g. http://127.0.0.1:4010/__control (startFake's \`controlUrl\`)`,
    );
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.token !== undefined) headers['X-Control-Token'] = options.token;
  const control = remoteControl(async (method, args) => {
    let answer: Response;
    try {
      answer = await send(`${base}/call`, {
        method: 'POST',
        headers,
        body: stringifyJson({ method, args }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError')
        throw new Error(`${prefix(base)}: ${method} had no answer within ${timeoutMs} ms`, {
          cause: error,
        });
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new Error(
        `${prefix(base)}: cannot reach the fake: ${cause ?? (error as Error).message}; is it running?`,
        { cause: error },
      );
    }
    return replyOf(answer, base);
  });
  return { control, controlUrl: base };
}
