/**
 * The conforming express 5 + express-rate-limit server with a query-builder bug in its listing:
 * when `limit` is given, the `status` filter is dropped (the page size replaces the filter
 * instead of joining it). `GET /pets?status=sold` and `GET /pets?limit=5` are right;
 * `GET /pets?status=sold&limit=5` returns pets of every status, against GET /pets, rule 2.
 */
import { startExpressRateLimitServer } from './express-rate-limit-server.ts';
import { createPetStore, type PetStore } from './pet-store.ts';
import type { RealServer } from './real-server.ts';

/** Starts the server. */
export function startStatusDroppedWithLimitServer(): Promise<RealServer> {
  const store = createPetStore();
  const buggy: PetStore = {
    ...store,
    listPets: (query) => store.listPets(query.limit === undefined ? query : { limit: query.limit }),
  };
  return startExpressRateLimitServer(buggy);
}
