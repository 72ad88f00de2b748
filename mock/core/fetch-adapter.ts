/**
 * Between the Fetch API and the behaviour core: a `Request` read as a FakeRequest, an Answer
 * written as a `Response`. `fake.fetch` and the msw handlers both use it, so they cannot differ.
 */
import type { Answer } from '../base/messages/answer.ts';
import type { BodyBytes, FakeRequest } from '../base/messages/fake-request.ts';

/** Reads a Fetch body whole, stopping (and cancelling the stream) once it passes `maxBytes`. */
async function readCapped(request: Request, maxBytes: number): Promise<BodyBytes> {
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

/** A Fetch `Request` as the core reads it. */
export function fromFetchRequest(request: Request): FakeRequest {
  // A Fetch body can be read once; the Pact recorder reads it again after the route did.
  let read: Promise<BodyBytes> | undefined;
  return {
    method: request.method,
    url: request.url,
    header: (name) => request.headers.get(name),
    headerList: () => [...request.headers],
    body: (maxBytes) => {
      read ??= readCapped(request, maxBytes);
      return read;
    },
  };
}

/** An answer as a Fetch `Response`; a HEAD request's has no body (its headers are the GET's). */
export function toFetchResponse(answer: Answer, method: string): Response {
  const body = method === 'HEAD' ? null : (answer.body ?? null);
  return new Response(body, { status: answer.status, headers: answer.headers });
}
