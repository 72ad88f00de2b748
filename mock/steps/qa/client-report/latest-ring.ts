/**
 * The latest items of a stream, up to a capacity: a new one takes the oldest one's place, where
 * an array's `shift()` would move every item on every request (bench/optimisations.md).
 */
export class LatestRing<Item> {
  readonly #items: Item[] = [];
  /** Where the oldest item is once the ring is full (the next push goes there). */
  #oldest = 0;
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** How many items it holds (at most its capacity). */
  get size(): number {
    return this.#items.length;
  }

  /** Adds the newest item, in the oldest one's place when the ring is full. */
  push(item: Item): void {
    if (this.#items.length < this.#capacity) {
      this.#items.push(item);
      return;
    }
    this.#items[this.#oldest] = item;
    this.#oldest = this.#oldest + 1 === this.#capacity ? 0 : this.#oldest + 1;
  }

  /** The item `index` places after the oldest (0: the oldest). */
  at(index: number): Item {
    const items = this.#items;
    return items[(this.#oldest + index) % items.length] as Item;
  }

  /** Every item, the newest first. */
  newestFirst(): Item[] {
    const items = this.#items;
    return [...items.slice(this.#oldest), ...items.slice(0, this.#oldest)].reverse();
  }
}
