/**
 * The order of `GET /pets`, which the interface leaves to the server: newest first by default, so
 * a pet an app has just created is in the app's next `GET /pets` and `GET /pets?limit=5` whatever
 * the seed (the interface has no paging past `limit`, at most 100); `oldest-first` is id order.
 */

/** The orders listPets can answer in. */
export const listOrders = ['newest-first', 'oldest-first'] as const;

/** The order of `GET /pets`: by id, descending (`newest-first`) or ascending (`oldest-first`). */
export type ListOrder = (typeof listOrders)[number];
