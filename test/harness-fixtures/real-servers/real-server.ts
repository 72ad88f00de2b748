/**
 * A realistic Pet Store server running on 127.0.0.1 on a free port for one test: where it listens
 * and how to stop it (every socket it still holds is closed, so no test waits on keep-alive).
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running server. */
export interface RealServer {
  /** The base URL to pass as `--base-url` (ends in `/v1`). */
  readonly baseUrl: string;
  /** Epoch ms when the first request arrived (undefined before), to time a run without its start-up. */
  firstRequestAt(): number | undefined;
  close(): Promise<void>;
}

/** Starts `server` listening on 127.0.0.1, port 0, and wraps it as a RealServer. */
export async function listenOnLoopback(server: Server): Promise<RealServer> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let firstRequestAt: number | undefined;
  server.on('request', () => {
    firstRequestAt ??= Date.now();
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    firstRequestAt: () => firstRequestAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
