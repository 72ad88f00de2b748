/**
 * Every pet a browser's fake stored past the seed, read back by id from a page of its origin:
 * what the tab-fault tests compare with the creates the pages were told succeeded.
 */
import type { Page } from 'playwright-core';

/** A stored pet as these tests read it. */
export interface StoredPet {
  readonly id: number;
  readonly name: string;
}

/**
 * Reads, through `page`, every pet from id 181 (the first after the seed's 180) to `last`, and
 * past it while fewer than 20 ids in a row are missing; any answer but 200 or 404 throws.
 * @example const stored = await storedPetsAfterSeed(page, { api, auth, last: 412 });
 */
export function storedPetsAfterSeed(
  page: Page,
  options: { readonly api: string; readonly auth: string; readonly last: number },
): Promise<StoredPet[]> {
  return page.evaluate(async ({ api, auth, last }) => {
    const found: { id: number; name: string }[] = [];
    let missesInARow = 0;
    for (let id = 181; id <= last || missesInARow < 20; id++) {
      const response = await fetch(`${api}/pets/${id}`, { headers: { Authorization: auth } });
      if (response.status === 200) {
        missesInARow = 0;
        found.push((await response.json()) as { id: number; name: string });
      } else if (response.status === 404) missesInARow += 1;
      else throw new Error(`GET /pets/${id} answered ${response.status}: ${await response.text()}`);
    }
    return found;
  }, options);
}
