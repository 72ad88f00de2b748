/** A server slower than the harness's `--timeout`: it answers too late, or never finishes. */
import {
  answerEmptyList,
  type BadServer,
  type BadServerOptions,
  startBadHttpServer,
} from './bad-server.ts';

/** Options of a slow server. */
export interface SlowServerOptions extends BadServerOptions {
  /**
   * `late`: the whole answer, well-formed, after `delayMs`; `stalled`: a 200 head at once, then
   * a body that never ends.
   */
  readonly mode: 'late' | 'stalled';
  /** How late a `late` answer is (default 2000 ms). */
  readonly delayMs?: number;
}

/** Starts a slow server. */
export function startSlowServer(options: SlowServerOptions): Promise<BadServer> {
  return startBadHttpServer((_request, response) => {
    if (options.mode === 'stalled') {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      response.write('[{"id":1,');
      return;
    }
    const timer = setTimeout(() => answerEmptyList(response), options.delayMs ?? 2000);
    response.on('close', () => clearTimeout(timer));
  }, options);
}
