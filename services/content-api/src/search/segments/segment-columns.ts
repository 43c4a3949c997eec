import { endianness } from 'node:os';

/**
 * The columns a shop's segment keeps per article, position `i` being the article with
 * `seq = slot * SLOT_SPAN + i`. Facet values are keys of the facet dictionary (0: none).
 */
export interface SegmentColumns {
  readonly manufacturer: Uint32Array;
  readonly unspsc7: Uint32Array;
  readonly unspsc9: Uint32Array;
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
  price: Float64Array,
  priceInclSpecialTaxes: Float64Array,
  words: Uint16Array,
  idOrder: Uint32Array,
  descriptionRank: Uint32Array,
};

export const COLUMN_NAMES = Object.keys(COLUMN_TYPES) as readonly ColumnName[];

/**
 * Seq numbers of one segment: slot * SLOT_SPAN + position (positions below 2^32; seqs stay exact doubles up to slot
 * 2^21).
 */
export const SLOT_SPAN = 2 ** 32;

/** Elements per stored chunk of a column: import memory stays bounded by the chunk, not the shop. */
export const COLUMN_CHUNK = 65_536;

/** Byte order the column chunks are stored in (the machine's; checked when loading). */
export const BYTE_ORDER = endianness();

/** The bytes of `array` (native byte order) to store as one chunk. */
export function chunkBytes(array: ColumnArray, length: number): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, length * array.BYTES_PER_ELEMENT);
}

/**
 * Reassembles a column of `size` elements from its chunks in order.
 *
 * @throws RangeError when the chunks do not add up to `size` elements.
 */
export function joinChunks<N extends ColumnName>(
  name: N,
  size: number,
  chunks: readonly Uint8Array[],
): SegmentColumns[N] {
  const type = COLUMN_TYPES[name];
  const column = new type(size) as SegmentColumns[N];
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
  const column = <N extends ColumnName>(name: N) => joinChunks(name, size, chunks.get(name) ?? []);
  return {
    manufacturer: column('manufacturer'),
    unspsc7: column('unspsc7'),
    unspsc9: column('unspsc9'),
    price: column('price'),
    priceInclSpecialTaxes: column('priceInclSpecialTaxes'),
    words: column('words'),
    idOrder: column('idOrder'),
    descriptionRank: column('descriptionRank'),
  };
}
