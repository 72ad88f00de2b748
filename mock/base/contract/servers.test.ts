/**
 * The `servers` of openapi/petstore.yaml give clients a base URL they can use as it stands: the
 * fake's production and staging origins with `/v1`. A URL with a template variable
 * (`{origin}/v1`) gives a generated client none: @hey-api/openapi-ts takes a client's default
 * `baseUrl` from `servers` through `getBaseUrl` of @hey-api/shared, which returns nothing for a
 * URL holding `{` (its `src/utils/url.ts`). The generator itself cannot run here (it needs
 * TypeScript 5's compiler API, and this repository has TypeScript 7), so its rule is run on the
 * document; then openapi-fetch, given each server's URL, reaches the fake through the Node door.
 */
import { getBaseUrl } from '@hey-api/shared';
import createClient from 'openapi-fetch';
import { expect, test } from 'vitest';
import { createFakeServer } from '../../doors/node/node.ts';
import { openapiDocument } from './openapi.generated.ts';
import type { Pet } from './types.ts';

/** The part of the document this test calls, as openapi-typescript would generate it. */
interface paths {
  '/pets': {
    get: {
      parameters: { query?: { limit?: number } };
      responses: { 200: { content: { 'application/json': Pet[] } } };
    };
  };
}

const servers = openapiDocument.servers.map((server) => ({ url: server.url }));

test("hey-api's base-URL rule finds a base URL in every server entry: production first, then staging", () => {
  // `getBaseUrl(n, ir)` is what hey-api's client plugins call for `baseUrl: n` (default 0).
  expect(servers.map((_, index) => getBaseUrl(index, { servers }))).toEqual([
    'http://127.0.0.1:4010/v1',
    'http://127.0.0.1:4011/v1',
  ]);
  // The rule itself: a templated URL, as the document had it, gives none.
  expect(getBaseUrl(0, { servers: [{ url: '{origin}/v1' }] })).toBeUndefined();
});

test('an openapi-fetch client on each server URL of the document gets its pets from the fake', async () => {
  const { server } = await createFakeServer();
  server.listen({ onUnhandledFrame: 'error' });
  try {
    for (const { url } of servers) {
      const client = createClient<paths>({
        baseUrl: url,
        headers: { Authorization: 'Bearer free-demo-key' },
      });
      const { data, response } = await client.GET('/pets', { params: { query: { limit: 2 } } });
      expect([url, response.status, data?.length]).toEqual([url, 200, 2]);
    }
  } finally {
    server.close();
  }
});
