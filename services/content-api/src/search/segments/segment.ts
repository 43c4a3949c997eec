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

/** Articles per facet value key (0: without a value) of each facet, over a whole segment. */
export type WholeFacetCounts = ReadonlyMap<DictionaryFacet, ReadonlyMap<number, number>>;

/** The columns `facetCounts` counts: the manufacturer and the classification groups. */
export const FACET_COLUMN_NAMES = ['manufacturer', ...Object.values(CLASSIFICATION_COLUMNS)] as const;

/**
 * The whole-segment facet counts of one set of facet columns, computed once on first use and
 * shared by every `Segment` over those columns: a delta that changes prices only (or no facet
 * value) gives a new segment whose facet columns are the same arrays, and its counts are carried
 * over instead of counted again.
 */
export class FacetCountsCell {
  #counts: WholeFacetCounts | undefined;

  /** The counts of `columns`, counted on the first call. */
  of(columns: SegmentColumns): WholeFacetCounts {
    this.#counts ??= countFacets(columns);
    return this.#counts;
  }
}

let countings = 0;

/** Segments whose facets this thread counted so far (for tests and statistics). */
export function facetCountings(): number {
  return countings;
}

function countFacets(columns: SegmentColumns): WholeFacetCounts {
  countings += 1;
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
  return new Map<DictionaryFacet, ReadonlyMap<number, number>>([
    ['manufacturerName', count(columns.manufacturer)],
    ...CLASSIFICATION_FACETS.map((f) => [f, count(columns[CLASSIFICATION_COLUMNS[f]])] as const),
  ]);
}

/** Whether `a` and `b` have the same facet columns (the same arrays, not equal ones). */
export function sameFacetColumns(a: SegmentColumns, b: SegmentColumns): boolean {
  return FACET_COLUMN_NAMES.every((name) => a[name] === b[name]);
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
  /** The facet counts of `columns`, shared with the segments over the same facet columns. */
  readonly facetCountsCell: FacetCountsCell;

  /**
   * `idRank`: one computed before (a search worker's copy of a loaded segment shares the
   * loader's). `facets`: the cell of a segment with the same facet columns (`sameFacetColumns`),
   * whose counts this one then shares.
   */
  constructor(header: SegmentHeader, columns: SegmentColumns, idRank?: Uint32Array, facets?: FacetCountsCell) {
    this.header = header;
    this.base = header.slot * SLOT_SPAN;
    this.columns = columns;
    this.facetCountsCell = facets ?? new FacetCountsCell();
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
  facetCounts(): WholeFacetCounts {
    return this.facetCountsCell.of(this.columns);
  }
}
