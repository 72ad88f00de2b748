/**
 * The request-line probe of errors.largeRequests is as long as it says, whatever the base URL's
 * path: RFC 9112 section 3 recommends that every server accept request lines of 8,000 octets,
 * and the probe must stay inside them behind a gateway that mounts the API under a prefix too.
 */
import { expect, test } from 'vitest';
import { joinUrl } from '../http/target.ts';
import { longRequestLine, requestLineOctets } from './request-size-checks.ts';

for (const baseUrl of [
  'http://127.0.0.1:4010/v1',
  'https://staging.example.com/api/petstore/v1/',
  'http://gateway.example.test/p%C3%A9ts/v1',
])
  test(`the request line sent to ${baseUrl} is ${requestLineOctets} octets, inside RFC 9112's 8,000`, () => {
    const spec = longRequestLine(baseUrl);
    // What fetch puts on the wire: the method, the URL's path and query, the version.
    const url = new URL(joinUrl(baseUrl, spec.path));
    const line = `${spec.method} ${url.pathname}${url.search} HTTP/1.1`;
    expect(Buffer.byteLength(line)).toBe(requestLineOctets);
    expect(requestLineOctets).toBeLessThanOrEqual(8_000);
    expect(spec.auth).toBe('none');
  });
