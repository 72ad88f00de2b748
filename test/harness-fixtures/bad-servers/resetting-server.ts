/** A server that drops connections: before answering, or halfway through an answer. */
import { type BadServer, type BadServerOptions, startBadHttpServer } from './bad-server.ts';

/** Options of a resetting server. */
export interface ResettingServerOptions extends BadServerOptions {
  /**
   * `on-request`: destroys the socket as soon as a request arrives; `mid-response`: after a 200
   * head and part of the body.
   */
  readonly when: 'on-request' | 'mid-response';
}

/** Starts a resetting server. */
export function startResettingServer(options: ResettingServerOptions): Promise<BadServer> {
  return startBadHttpServer((request, response) => {
    if (options.when === 'on-request') {
      request.socket.destroy();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
    response.write('[{"id":1,"name":', () => request.socket.destroy());
  }, options);
}
