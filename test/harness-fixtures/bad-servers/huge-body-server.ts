/**
 * A server whose answers are too big to read: a 50 MB JSON page of pets (one enormous name), or
 * a body that never ends. The harness must stop reading at `--max-body-bytes`, not hold it all.
 */
import { type BadServer, type BadServerOptions, startBadHttpServer } from './bad-server.ts';

/** Options of a huge-body server. */
export interface HugeBodyOptions extends BadServerOptions {
  /** `sized`: 50 MB with a Content-Length; `endless`: chunked, never finished. */
  readonly kind: 'sized' | 'endless';
}

const chunk = Buffer.alloc(64 * 1024, 'x');
const fiftyMegabytes = 50 * 1024 * 1024;

/** Starts a server whose every answer (from `from` on) is a body too big to read. */
export function startHugeBodyServer(options: HugeBodyOptions): Promise<BadServer> {
  return startBadHttpServer((_request, response) => {
    const head = Buffer.from('[{"id":1,"categoryId":1,"name":"');
    const tail = Buffer.from('"}]');
    response.writeHead(200, {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '58',
      'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
      ...(options.kind === 'sized'
        ? { 'Content-Length': String(head.length + fiftyMegabytes + tail.length) }
        : {}),
    });
    response.write(head);
    let sent = 0;
    // Write as fast as the client reads, until the body is complete or the client gives up.
    const pump = () => {
      while (!response.destroyed) {
        if (options.kind === 'sized' && sent >= fiftyMegabytes) {
          response.end(tail);
          return;
        }
        sent += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', pump);
          return;
        }
      }
    };
    response.on('close', () => response.removeAllListeners('drain'));
    pump();
  }, options);
}
