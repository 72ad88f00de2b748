/**
 * Gateways as Debian 12 ships them (nginx 1.22, Apache httpd 2.4, Caddy 2.6, HAProxy 2.6), each
 * reduced to what it does with a request's size: the longest request line and request head it
 * reads, the largest body it forwards, and the page it answers past each. The limits are the
 * documented defaults; `npm run test:gateways` holds every request-line and body limit here to
 * the real gateway (a request of that size forwarded, one octet more refused with this page,
 * byte for byte). The request-head limits are the documented ones, unmeasured: nothing the
 * harness sends comes near them.
 */

/** An answer a gateway gives itself, instead of forwarding the request. */
export interface Refusal {
  readonly status: number;
  /** Content-Type, when the gateway sends one. */
  readonly contentType?: string;
  readonly body: string;
}

/** One limit: the largest size forwarded, and the answer past it. */
interface Limit {
  readonly max: number;
  readonly refusal: Refusal;
}

/** What a gateway stand-in refuses, and how. */
export interface GatewayModel {
  /** The `Server` header of its own answers. */
  readonly server: string;
  /** The request line (`GET /v1/pets?... HTTP/1.1`, CRLF not counted), in octets. */
  readonly requestLine?: Limit;
  /** The request head: the request line and every header field, each with its CRLF. */
  readonly requestHead?: Limit;
  /** The body, by its Content-Length. */
  readonly body?: Limit;
}

/**
 * nginx's page (src/http/ngx_http_special_response.c, `server_tokens on`): `title` in the head,
 * `heading` (default the title) in the body, then an optional line of detail.
 */
function nginxPage(status: number, title: string, heading = title, detail?: string): Refusal {
  const more = detail === undefined ? '' : `<center>${detail}</center>\r\n`;
  return {
    status,
    contentType: 'text/html',
    body: `<html>\r\n<head><title>${status} ${title}</title></head>\r\n<body>\r\n<center><h1>${status} ${heading}</h1></center>\r\n${more}<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n`,
  };
}

/** Apache httpd's page (modules/http/http_protocol.c, ap_send_error_response). */
function apachePage(status: number, title: string, text: string): Refusal {
  return {
    status,
    contentType: 'text/html; charset=iso-8859-1',
    body: `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">\n<html><head>\n<title>${status} ${title}</title>\n</head><body>\n<h1>${title}</h1>\n<p>${text}</p>\n</body></html>\n`,
  };
}

/**
 * nginx with `large_client_header_buffers <buffers> <size>` and `client_max_body_size <bodyMax>`
 * (ngx_http_core_module: "A request line cannot exceed the size of one buffer, or the 414
 * (Request-URI Too Large) error is returned"; a header field past a buffer, or more than the
 * buffers hold, gets 400; a body past client_max_body_size gets 413). The request line and its
 * CRLF share one buffer: nginx 1.22.1 forwards a line of 8,190 octets and refuses 8,191.
 */
function nginx(buffers: number, bufferSize: number, bodyMax: number): GatewayModel {
  return {
    server: 'nginx/1.22.1',
    requestLine: { max: bufferSize - 2, refusal: nginxPage(414, 'Request-URI Too Large') },
    requestHead: {
      max: buffers * bufferSize,
      refusal: nginxPage(
        400,
        'Request Header Or Cookie Too Large',
        'Bad Request',
        'Request Header Or Cookie Too Large',
      ),
    },
    body: { max: bodyMax, refusal: nginxPage(413, 'Request Entity Too Large') },
  };
}

/** nginx's defaults: `large_client_header_buffers 4 8k`, `client_max_body_size 1m`. */
export const stockNginx = nginx(4, 8192, 1024 * 1024);

/** nginx with `client_max_body_size 1k`: a create with a name of a thousand characters is refused. */
export const nginxSmallBody = nginx(4, 8192, 1024);

/** nginx with `large_client_header_buffers 2 1k`: a request line past 1,022 octets gets 414. */
export const nginxSmallBuffers = nginx(2, 1024, 1024 * 1024);

/**
 * Apache httpd 2.4's defaults (core docs): `LimitRequestLine 8190` (httpd 2.4.68 forwards a line
 * of 8,191 octets, the limit counting its LF, and refuses 8,192 with 414), `LimitRequestFieldSize
 * 8190` per header field (400), and no body limit on a body mod_proxy forwards (Apache
 * 2.4 does not apply `LimitRequestBody` to proxied bodies; its default is 1 GiB since 2.4.54
 * anyway, far past anything the harness sends).
 */
export const stockApache: GatewayModel = {
  server: 'Apache/2.4.68 (Debian)',
  requestLine: {
    max: 8191,
    refusal: apachePage(
      414,
      'Request-URI Too Long',
      "The requested URL's length exceeds the capacity\nlimit for this server.<br />\n",
    ),
  },
};

/**
 * Caddy 2's defaults: no body limit (the `request_body` directive sets one; none by default) and
 * Go's net/http header limit, `http.DefaultMaxHeaderBytes` (1 MiB) plus the 4096 octets of slack
 * net/http reads past it, answered `431 Request Header Fields Too Large` in plain text.
 */
export const stockCaddy: GatewayModel = {
  server: 'Caddy',
  requestHead: {
    max: 1024 * 1024 + 4096,
    refusal: {
      status: 431,
      contentType: 'text/plain; charset=utf-8',
      body: '431 Request Header Fields Too Large',
    },
  },
};

/**
 * Caddy with `request_body { max_size 1KB }` (go-humanize: 1KB is 1,000 octets). The directive's
 * docs promise 413; Caddy 2.6.2's reverse_proxy meets the read error while streaming the body
 * upstream and answers 502 with an empty body, which is what Debian 12's Caddy sent.
 */
export const caddySmallBody: GatewayModel = {
  ...stockCaddy,
  body: { max: 1000, refusal: { status: 502, body: '' } },
};

/**
 * HAProxy 2.6's defaults: the request head must fit `tune.bufsize` (16384) less `tune.maxrewrite`
 * (1024), else `400 Bad request` (its built-in errorfile); no body limit (it streams bodies).
 * HAProxy 2.6.12 counts its own overhead too: it refused a head of about 15,300 octets.
 */
export const stockHaproxy: GatewayModel = {
  server: 'haproxy',
  requestHead: {
    max: 16384 - 1024,
    refusal: {
      status: 400,
      contentType: 'text/html',
      body: '<html><body><h1>400 Bad request</h1>\nYour browser sent an invalid request.\n</body></html>\n',
    },
  },
};
