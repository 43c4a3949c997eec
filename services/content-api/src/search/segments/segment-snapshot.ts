import { compareCodePoints } from '../code-point-order.js';
import type { FacetDictionary } from './facet-dictionary.js';
import { SLOT_SPAN } from './segment-columns.js';
import type { Segment } from './segment.js';

/**
 * The catalog a reader searches: the segments of one content version and the facet dictionary.
 * Global id order follows from the segments: every id of shop `s` starts with `s:` and shop ids
 * hold no `:`, so the ids of a shop form one block, blocks ordered by `shopId + ':'`.
 */
export class SegmentSnapshot {
  readonly hash: string | undefined;
  readonly dictionary: FacetDictionary;
  /** In slot order, which is seq order. */
  readonly segments: readonly Segment[];
  readonly articleCount: number;
  /** Average `words` over all articles (at least 1). */
  readonly averageWords: number;
  readonly #bySlot: (Segment | undefined)[] = [];
  readonly #idOffsetBySlot: number[] = [];
  /** Segments in global id order. */
  readonly inIdOrder: readonly Segment[];

  constructor(hash: string | undefined, segments: readonly Segment[], dictionary: FacetDictionary) {
    this.hash = hash;
    this.dictionary = dictionary;
    this.segments = [...segments].sort((a, b) => a.header.slot - b.header.slot);
    for (const segment of this.segments) this.#bySlot[segment.header.slot] = segment;
    this.inIdOrder = [...this.segments].sort((a, b) => compareCodePoints(`${a.shopId}:`, `${b.shopId}:`));
    let offset = 0;
    let words = 0;
    for (const segment of this.inIdOrder) {
      this.#idOffsetBySlot[segment.header.slot] = offset;
      offset += segment.size;
      words += segment.header.wordTotal;
    }
    this.articleCount = offset;
    this.averageWords = offset === 0 ? 1 : Math.max(1, words / offset);
  }

  /** The segment holding `seq`, if any. */
  segmentOf(seq: number): Segment | undefined {
    return this.#bySlot[Math.floor(seq / SLOT_SPAN)];
  }

  segmentAt(slot: number): Segment | undefined {
    return this.#bySlot[slot];
  }

  /** The segment in `slot`. @throws RangeError when the slot is empty (a seq of another snapshot). */
  segmentIn(slot: number): Segment {
    const segment = this.#bySlot[slot];
    if (segment === undefined) throw new RangeError(`no segment in slot ${slot}`);
    return segment;
  }

  /** Place of the segment's first article in global id order. */
  idOffset(segment: Segment): number {
    return this.#idOffsetBySlot[segment.header.slot] ?? 0;
  }
}
