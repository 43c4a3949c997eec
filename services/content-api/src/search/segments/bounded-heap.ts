import { select, smallest } from './segment-order.js';

/**
 * Keeps the `capacity` smallest numbers offered under `compare` (a max-heap on that order: the
 * root is the largest kept, so most offers cost one comparison once the heap is full).
 */
export class BoundedHeap {
  readonly #items: number[] = [];
  readonly #capacity: number;
  readonly #compare: (a: number, b: number) => number;

  constructor(capacity: number, compare: (a: number, b: number) => number) {
    this.#capacity = capacity;
    this.#compare = compare;
  }

  get size(): number {
    return this.#items.length;
  }

  offer(item: number): void {
    const items = this.#items;
    if (this.#capacity === 0) return;
    if (items.length < this.#capacity) {
      items.push(item);
      this.#up(items.length - 1);
    } else if (this.#compare(item, items[0] ?? 0) < 0) {
      items[0] = item;
      this.#down(0);
    }
  }

  /** The kept items, smallest first. */
  sorted(): number[] {
    return [...this.#items].sort(this.#compare);
  }

  #up(at: number): void {
    const items = this.#items;
    const item = items[at] ?? 0;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.#compare(items[parent] ?? 0, item) >= 0) break;
      items[at] = items[parent] ?? 0;
      at = parent;
    }
    items[at] = item;
  }

  #down(at: number): void {
    const items = this.#items;
    const item = items[at] ?? 0;
    const length = items.length;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= length) break;
      if (child + 1 < length && this.#compare(items[child + 1] ?? 0, items[child] ?? 0) > 0) child += 1;
      if (this.#compare(items[child] ?? 0, item) <= 0) break;
      items[at] = items[child] ?? 0;
      at = child;
    }
    items[at] = item;
  }
}

/**
 * Keeps the `count` smallest of distinct numbers offered, for a loop that offers many: numbers
 * are appended to a buffer of a few times `count`; when it is full a selection keeps the `count`
 * smallest and lowers `bound` to the largest of them. Offers at or above `bound` can never be
 * among the smallest, so a caller tests `value < bound` before offering and most cost that test.
 */
export class SmallestNumbers {
  /** Every number at or above it is known not to be among the smallest (Infinity at first). */
  bound = Infinity;
  readonly #count: number;
  readonly #values: Float64Array;
  #length = 0;

  constructor(count: number) {
    this.#count = count;
    this.#values = new Float64Array(Math.max(4 * count, 1024));
  }

  offer(value: number): void {
    if (value >= this.bound || this.#count === 0) return;
    this.#values[this.#length++] = value;
    if (this.#length === this.#values.length) {
      const values = this.#values;
      select(values, this.#length, this.#count);
      let bound = -Infinity;
      for (let i = 0; i < this.#count; i += 1) if ((values[i] as number) > bound) bound = values[i] as number;
      this.bound = bound;
      this.#length = this.#count;
    }
  }

  /** The smallest numbers offered (at most `count`), ascending. */
  sorted(): Float64Array {
    return smallest(this.#values, this.#length, this.#count);
  }
}
