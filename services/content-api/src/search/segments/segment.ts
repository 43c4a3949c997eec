import type { DictionaryFacet } from './facet-dictionary.js';
import { CLASSIFICATION_FACETS } from '../search-query.js';
import { CLASSIFICATION_COLUMNS, SLOT_SPAN, type SegmentColumns } from './segment-columns.js';

/** What `content_segments` says about a segment. */
export interface SegmentHeader {
  readonly slot: number;
  readonly shopId: string;
  /** Changes with every replacement of the shop's catalog: a reader reloads the columns. */
  readonly generation: string;
  readonly size: number;
  /** Sum of the `words` column (average article length for ranking). */
  readonly wordTotal: number;
}

/**
 * One shop's articles as loaded by a reader: immutable columns (see `SegmentColumns`), the rank
 * of each position in id order, and counts derived lazily. Article `i` has
 * `seq = base + i`.
 */
export class Segment {
  readonly header: SegmentHeader;
  readonly base: number;
  readonly columns: SegmentColumns;
  /** `idRank[i]`: place of position `i` in this shop's id order (inverse of `idOrder`). */
  readonly idRank: Uint32Array;
  #facetCounts: ReadonlyMap<DictionaryFacet, ReadonlyMap<number, number>> | undefined;

  /** `idRank`: one computed before (a search worker's copy of a loaded segment shares the loader's). */
  constructor(header: SegmentHeader, columns: SegmentColumns, idRank?: Uint32Array) {
    this.header = header;
    this.base = header.slot * SLOT_SPAN;
    this.columns = columns;
    if (idRank) {
      this.idRank = idRank;
      return;
    }
    // Shared like the columns (decision 0051).
    const rank = new Uint32Array(new SharedArrayBuffer(header.size * Uint32Array.BYTES_PER_ELEMENT));
    const order = columns.idOrder;
    for (let r = 0; r < order.length; r += 1) rank[order[r] ?? 0] = r;
    this.idRank = rank;
  }

  get shopId(): string {
    return this.header.shopId;
  }

  get size(): number {
    return this.header.size;
  }

  /** Articles per facet value key (0: without a value) over the whole segment (computed once, on first use). */
  facetCounts(): ReadonlyMap<DictionaryFacet, ReadonlyMap<number, number>> {
    if (!this.#facetCounts) {
      const count = (column: Uint32Array) => {
        let max = 0;
        for (const value of column) if (value > max) max = value;
        const tally = new Uint32Array(max + 1);
        for (const value of column) tally[value] = (tally[value] ?? 0) + 1;
        const counts = new Map<number, number>();
        // Key 0 (no value) is counted too: those articles are the facet's '' bucket.
        for (let key = 0; key < tally.length; key += 1) {
          const n = tally[key] ?? 0;
          if (n > 0) counts.set(key, n);
        }
        return counts;
      };
      this.#facetCounts = new Map<DictionaryFacet, ReadonlyMap<number, number>>([
        ['manufacturerName', count(this.columns.manufacturer)],
        ...CLASSIFICATION_FACETS.map((f) => [f, count(this.columns[CLASSIFICATION_COLUMNS[f]])] as const),
      ]);
    }
    return this.#facetCounts;
  }
}
