/**
 * A gateway in front of a conforming server that reads every int64 past 2^53 one off in what it
 * answers to GET (2^53 + 1 as 2^53, 2^63 - 1 as 2^63 - 2, -2^63 as -2^63 + 1), and passes
 * everything else unchanged: a create's 201 is right, the pet read back is not. Only a reader
 * that keeps every digit sees it: a JSON parser that rounds to a double reads each pair as the
 * same number (Node 20's, whose reviver has no source text).
 */
import { type BadServer, forwardTo, startBadHttpServer } from './bad-server.ts';

/** Each value as the server holds it, and as the gateway answers it. */
const offByOne: readonly (readonly [string, string])[] = [
  ['9007199254740993', '9007199254740992'],
  ['9223372036854775807', '9223372036854775806'],
  ['-9223372036854775808', '-9223372036854775807'],
];

/** Starts the gateway in front of `target` (a base URL ending in /v1). */
export function startInt64OffByOneGateway(target: string): Promise<BadServer> {
  const upstream = new URL(target);
  return startBadHttpServer((request, response) => {
    forwardTo(upstream, request, response, async (answer) => {
      const { 'content-length': _, ...headers } = answer.headers;
      let text = '';
      for await (const chunk of answer) text += chunk;
      if (request.method === 'GET')
        for (const [held, answered] of offByOne)
          text = text.replaceAll(new RegExp(`(?<![\\d-])${held}(?!\\d)`, 'g'), answered);
      response.writeHead(answer.statusCode ?? 502, headers);
      response.end(text);
    });
  });
}
