/**
 * The requests several checks read (the preflight listing, the full listing, a listed pet read
 * by id), each sent once per run by whichever check asks first, through the run's client.
 */
import { couldNotRun } from '../checks/check.ts';
import type { ListedPetProbe } from '../checks/check-context.ts';
import { getPetRequest, listPetsRequest } from '../checks/requests.ts';
import { pageSize } from '../contract/interface-facts.ts';
import type { ContractClient } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';

/** The shared requests of one run. */
export interface SharedProbes {
  /** `GET /pets` with the key: the preflight. */
  defaultListing(): Promise<Exchange>;
  /** `GET /pets?limit=100` with the key. */
  listing(): Promise<Exchange>;
  /** The first pet of `listing()` read back by id. */
  listedPet(): Promise<ListedPetProbe>;
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= make();
    return pending;
  };
}

/** Creates the shared probes of a run over its client. */
export function createSharedProbes(client: ContractClient): SharedProbes {
  const defaultListing = once(() => client.send(listPetsRequest()));
  const listing = once(() => client.send(listPetsRequest({ limit: pageSize.max })));
  const listedPet = once(async (): Promise<ListedPetProbe> => {
    const full = await listing();
    const rows = full.response?.exact;
    const row = Array.isArray(rows) ? (rows[0] as ListedPetProbe['row'] | undefined) : undefined;
    if (row === undefined || typeof row.id !== 'bigint')
      couldNotRun(
        'GET /pets?limit=100 listed no pet with an id to read back: seed the server, or allow writes (--allow-writes) so the run creates some first',
      );
    return { listing: full, row, byId: await client.send(getPetRequest(row.id)) };
  });
  return { defaultListing, listing, listedPet };
}
