/**
 * A tiny static file server (Node only, never loaded by the page) for the demo and its test: it
 * serves a fixed set of in-memory files and nothing else, and records every path asked for, so a
 * test can prove the API calls never reached it.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One file to serve: its bytes and content type. */
export interface StaticFile {
  readonly body: string | Uint8Array;
  readonly contentType: string;
  /** More response headers (a test page's Content-Security-Policy). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A listening static server. */
export interface StaticServer {
  readonly server: Server;
  /** E.g. `http://127.0.0.1:53211`. */
  readonly origin: string;
  /** Every request seen, as `METHOD /path?query`, in order. */
  readonly requests: readonly string[];
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/**
 * Serves `files` (keyed by path, e.g. `/demo.js`) on 127.0.0.1; anything else is a 404.
 * @example
 * const site = await serveStatic({ '/': { body: html, contentType: 'text/html' } });
 * await site.close();
 */
export async function serveStatic(
  files: Readonly<Record<string, StaticFile>>,
  port = 0,
): Promise<StaticServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const path = new URL(req.url ?? '/', 'http://static').pathname;
    const file = Object.hasOwn(files, path) ? files[path] : undefined;
    if (file === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Cache-Control': 'no-store',
      // Lets a worker served from a sub-path still control the whole origin.
      'Service-Worker-Allowed': '/',
      ...file.headers,
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const { port: actual } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${actual}`,
    requests,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
