import { endianness } from 'node:os';
import type { ClassificationFacet } from '../search-query.js';

/**
 * The columns a shop's segment keeps per article, position `i` being the article with
 * `seq = slot * SLOT_SPAN + i`. Facet values are keys of the facet dictionary (0: none).
 */
export interface SegmentColumns {
  readonly manufacturer: Uint32Array;
  readonly unspsc7: Uint32Array;
  readonly unspsc9: Uint32Array;
  /**
   * Groups of the first UNSPSC (any version), ECLASS and ETIM classification. Segments stored
   * before these columns existed load them as zeros (no group) until their shop is imported again
   * or the migration that added them filled them (`OPTIONAL_COLUMNS`).
   */
  readonly unspsc: Uint32Array;
  readonly eclass: Uint32Array;
  readonly etim: Uint32Array;
  /** Price of the minimum order quantity, 10^-6 currency units (exact integers below 2^53). */
  readonly price: Float64Array;
  readonly priceInclSpecialTaxes: Float64Array;
  /** Words of the article's search text (its length for ranking), at most 65,535. */
  readonly words: Uint16Array;
  /** Positions in article id order (binary): `idOrder[0]` is the position of the smallest id. */
  readonly idOrder: Uint32Array;
  /**
   * Dense rank of each position's description in code point order within the shop (equal descriptions share a rank).
   */
  readonly descriptionRank: Uint32Array;
}

export type ColumnName = keyof SegmentColumns;
type ColumnArray = SegmentColumns[ColumnName];
type ColumnType = { new (length: number): ColumnArray; readonly BYTES_PER_ELEMENT: number };

/** Element type of every column. */
export const COLUMN_TYPES: { readonly [K in ColumnName]: ColumnType } = {
  manufacturer: Uint32Array,
  unspsc7: Uint32Array,
  unspsc9: Uint32Array,
  unspsc: Uint32Array,
  eclass: Uint32Array,
  etim: Uint32Array,
  price: Float64Array,
  priceInclSpecialTaxes: Float64Array,
  words: Uint16Array,
  idOrder: Uint32Array,
  descriptionRank: Uint32Array,
};

export const COLUMN_NAMES = Object.keys(COLUMN_TYPES) as readonly ColumnName[];

/**
 * Columns added after segments were first stored: a segment without any chunk of one (written
 * by an older release) reads it as zeros, all articles without a value.
 */
export const OPTIONAL_COLUMNS: ReadonlySet<ColumnName> = new Set(['unspsc', 'eclass', 'etim']);

/** The segment column of each classification facet. */
export const CLASSIFICATION_COLUMNS = {
  'UNSPSC-7': 'unspsc7',
  'UNSPSC-9': 'unspsc9',
  UNSPSC: 'unspsc',
  ECLASS: 'eclass',
  ETIM: 'etim',
} as const satisfies Record<ClassificationFacet, ColumnName>;

/**
 * Seq numbers of one segment: slot * SLOT_SPAN + position (positions below 2^32; seqs stay exact doubles up to slot
 * 2^21).
 */
export const SLOT_SPAN = 2 ** 32;

/** Elements per stored chunk of a column: import memory stays bounded by the chunk, not the shop. */
export const COLUMN_CHUNK = 65_536;

/** Byte order the column chunks are stored in (the machine's; checked when loading). */
export const BYTE_ORDER = endianness();

/**
 * A zeroed column of `length` elements over a `SharedArrayBuffer` (decision 0051): search workers
 * read the loaded columns without a copy of their own.
 */
export function sharedColumn<N extends ColumnName>(name: N, length: number): SegmentColumns[N] {
  const type = COLUMN_TYPES[name] as unknown as new (buffer: ArrayBufferLike) => SegmentColumns[N];
  return new type(new SharedArrayBuffer(length * COLUMN_TYPES[name].BYTES_PER_ELEMENT));
}

/** The bytes of `array` (native byte order) to store as one chunk. */
export function chunkBytes(array: ColumnArray, length: number): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, length * array.BYTES_PER_ELEMENT);
}

/**
 * Reassembles a column of `size` elements from its chunks in order (shared: `sharedColumn`).
 *
 * @throws RangeError when the chunks do not add up to `size` elements.
 */
export function joinChunks<N extends ColumnName>(
  name: N,
  size: number,
  chunks: readonly Uint8Array[],
): SegmentColumns[N] {
  const type = COLUMN_TYPES[name];
  const column = sharedColumn(name, size);
  const bytes = new Uint8Array(column.buffer);
  let at = 0;
  for (const chunk of chunks) {
    if (at + chunk.byteLength > bytes.byteLength) throw new RangeError(`column ${name} has more than ${size} elements`);
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  if (at !== bytes.byteLength)
    throw new RangeError(`column ${name} has ${at / type.BYTES_PER_ELEMENT} of ${size} elements`);
  return column;
}

/** Every column of a segment of `size` articles from its chunks by column name, each list in chunk order. */
export function columnsFromChunks(
  size: number,
  chunks: ReadonlyMap<ColumnName, readonly Uint8Array[]>,
): SegmentColumns {
  const column = <N extends ColumnName>(name: N) => {
    const list = chunks.get(name) ?? [];
    return list.length === 0 && OPTIONAL_COLUMNS.has(name) ? sharedColumn(name, size) : joinChunks(name, size, list);
  };
  return {
    manufacturer: column('manufacturer'),
    unspsc7: column('unspsc7'),
    unspsc9: column('unspsc9'),
    unspsc: column('unspsc'),
    eclass: column('eclass'),
    etim: column('etim'),
    price: column('price'),
    priceInclSpecialTaxes: column('priceInclSpecialTaxes'),
    words: column('words'),
    idOrder: column('idOrder'),
    descriptionRank: column('descriptionRank'),
  };
}
