/**
 * A gateway in front of a conforming server that refuses long request lines with its own HTML
 * 414, as nginx does when `large_client_header_buffers 2 1k` is set (a request line past 1 KiB:
 * "414 Request-URI Too Large", text/html, none of the app's headers). Every other request is
 * forwarded unchanged and its answer passed back: one kind of answer is wrong, nothing else.
 */
import { type BadServer, forwardTo, startBadHttpServer } from './bad-server.ts';

/** The longest request line the gateway passes on (nginx's buffer, 1k in this setting). */
const maxRequestLineBytes = 1024;

/** nginx's own 414 page, byte for byte as nginx 1.26 writes it. */
const nginx414 =
  '<html>\r\n<head><title>414 Request-URI Too Large</title></head>\r\n<body>\r\n<center><h1>414 Request-URI Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/**
 * Starts the gateway in front of `target` (a base URL ending in /v1); its own base URL ends in
 * /v1 too, on another port.
 */
export function startHtml414Gateway(target: string): Promise<BadServer> {
  const upstream = new URL(target);
  return startBadHttpServer((request, response) => {
    const line = `${request.method} ${request.url} HTTP/1.1`;
    if (Buffer.byteLength(line) > maxRequestLineBytes) {
      request.resume();
      response.writeHead(414, { 'Content-Type': 'text/html', Server: 'nginx' });
      response.end(nginx414);
      return;
    }
    forwardTo(upstream, request, response, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
  });
}
