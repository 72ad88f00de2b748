/**
 * A request's body as the HTTP door reads it from Node's IncomingMessage, whole, before the core
 * answers: at once when it came with its headers, else from its pieces, up to a cap.
 */
import type { IncomingMessage } from 'node:http';
import type { BodyBytes } from '../../base/messages/fake-request.ts';

/** The body of a request that has none. */
export const noBody = new Uint8Array();

/**
 * The body, when the stream holds it whole. Node's parser pushes a body that came in the packet
 * of its headers just after emitting the request: one microtask later it is in the stream's
 * buffer, and `read()` takes it with no listener, resume or 'data' event (a create's body nearly
 * always comes so).
 */
export function bufferedBody(incoming: IncomingMessage, declared: number): BodyBytes | undefined {
  if (declared !== incoming.readableLength) return undefined;
  return declared === 0 ? noBody : ((incoming.read() as Buffer | null) ?? noBody);
}

/**
 * Reads a body that arrives in pieces (or has no Content-Length) whole, up to `maxBytes`. The
 * door reads a body before answering rather than letting the core stream it: an answer that does
 * not need it (a 401) would otherwise leave it half-read on a kept-alive socket, and the next
 * request would be parsed from its middle.
 */
export function readStreamedBody(incoming: IncomingMessage, maxBytes: number): Promise<BodyBytes> {
  // Listeners rather than `for await`: an async iterator costs promises and stream bookkeeping
  // on every request, a share of a create worth saving (bench/optimisations.md).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', reject);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        settle();
        // As leaving a `for await` does: the rest is not read.
        incoming.destroy();
        resolve('too-large');
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      settle();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
    };
    const onClose = () => {
      settle();
      reject(
        incoming.errored ?? new Error('petstore-fake: the request closed before its body ended'),
      );
    };
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', reject);
    incoming.once('close', onClose);
  });
}
