/**
 * The ceiling: a bare node:http server that answers each benchmarked request with the fake's own
 * answer, captured once: its status, headers and body bytes, and nothing else. No Fetch objects,
 * no routing beyond one Map lookup: the most a Node process can serve of these answers on this
 * machine, for scale.
 *
 * Run as a child: `node bench/ceiling-server.ts --port <n> --bodies <file>`, where the file maps
 * `"<METHOD> <path>"` to `{ "status": 200, "headers": { ... }, "body": "..." }`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

/** One canned answer. */
export interface CannedResponse {
  readonly status: number;
  /** The fake's headers but the ones Node writes itself (Content-Length, Date, Connection). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const { values } = parseArgs({
  options: { port: { type: 'string' }, bodies: { type: 'string' } },
  strict: true,
});
if (values.port === undefined || values.bodies === undefined) {
  console.error('ceiling-server: usage: node bench/ceiling-server.ts --port <n> --bodies <file>');
  process.exit(2);
}
const canned = JSON.parse(readFileSync(values.bodies, 'utf8')) as Record<string, CannedResponse>;
const answers = new Map(
  Object.entries(canned).map(([key, { status, headers: captured, body }]) => {
    const bytes = Buffer.from(body, 'utf8');
    const headers = { ...captured, 'Content-Length': bytes.byteLength };
    return [key, { status, headers, bytes }] as const;
  }),
);
const notFound = Buffer.from('{"code":"route_not_found","message":"ceiling","status":404}');

const server = createServer((request, response) => {
  const answer = answers.get(`${request.method} ${request.url}`);
  request.resume(); // drain any request body
  if (answer === undefined) {
    response.writeHead(404, { 'Content-Type': 'application/json' });
    response.end(notFound);
    return;
  }
  response.writeHead(answer.status, answer.headers);
  response.end(answer.bytes);
});
// A client that pauses between batches (the in-process section does) must find its kept-alive
// socket still open: Node's 5 s default races with the client reusing it ("fetch failed").
server.keepAliveTimeout = 120_000;
server.listen(Number(values.port), '127.0.0.1');
