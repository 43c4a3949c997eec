import type { ClassificationFields } from '../article-index-fields.js';
import type { DictionaryFacet } from './facet-dictionary.js';
import { chunkBytes, COLUMN_CHUNK, SLOT_SPAN, type ColumnName, type SegmentColumns } from './segment-columns.js';

/** Stores one chunk of a column: `(slot, name, chunk)` -> bytes (a view, valid during the call only). */
export type ChunkWriter = (slot: number, name: ColumnName, chunk: number, data: Buffer) => void;

/** One article's values in the segment columns. */
export interface SegmentRow {
  readonly manufacturer: number;
  readonly unspsc7: number;
  readonly unspsc9: number;
  readonly unspsc: number;
  readonly eclass: number;
  readonly etim: number;
  readonly price: number;
  readonly priceInclSpecialTaxes: number;
  readonly words: number;
}

/** Facet value keys as the writers hand them out: a new value is added, with its label. */
export interface FacetKeys {
  keyOf(facet: DictionaryFacet, value: string | null | undefined, label?: string): number;
}

/** What the classification columns are built from (an article's index fields, or a stored row's). */
export type ClassificationValues = ClassificationFields;

/**
 * The classification columns of a segment row: the group of each classification facet as a key
 * of `keys`, a group new to the dictionary added with the name the catalog gave it.
 */
export function classificationKeys(
  keys: FacetKeys,
  values: ClassificationValues,
): Pick<SegmentRow, 'unspsc7' | 'unspsc9' | 'unspsc' | 'eclass' | 'etim'> {
  const names = values.groupNames;
  return {
    unspsc7: keys.keyOf('UNSPSC-7', values.unspsc7, names['UNSPSC-7']),
    unspsc9: keys.keyOf('UNSPSC-9', values.unspsc9, names['UNSPSC-9']),
    unspsc: keys.keyOf('UNSPSC', values.unspsc, names.UNSPSC),
    eclass: keys.keyOf('ECLASS', values.eclass, names.ECLASS),
    etim: keys.keyOf('ETIM', values.etim, names.ETIM),
  };
}

/** Most words counted for one article (the `words` column is 16 bits). */
export const MAX_WORDS = 65_535;

/**
 * Builds a shop's segment while its articles stream in: positions are handed out in order
 * (`nextSeq`), values go into one chunk per column, written when full, so memory stays at one
 * chunk whatever the shop's size.
 */
export class SegmentBuilder {
  readonly slot: number;
  readonly #write: ChunkWriter;
  readonly #manufacturer = new Uint32Array(COLUMN_CHUNK);
  readonly #unspsc7 = new Uint32Array(COLUMN_CHUNK);
  readonly #unspsc9 = new Uint32Array(COLUMN_CHUNK);
  readonly #unspsc = new Uint32Array(COLUMN_CHUNK);
  readonly #eclass = new Uint32Array(COLUMN_CHUNK);
  readonly #etim = new Uint32Array(COLUMN_CHUNK);
  readonly #price = new Float64Array(COLUMN_CHUNK);
  readonly #priceIncl = new Float64Array(COLUMN_CHUNK);
  readonly #words = new Uint16Array(COLUMN_CHUNK);
  #size = 0;
  #wordTotal = 0;

  constructor(slot: number, write: ChunkWriter) {
    if (!Number.isSafeInteger(slot * SLOT_SPAN + SLOT_SPAN)) throw new RangeError(`segment slot ${slot} is too large`);
    this.slot = slot;
    this.#write = write;
  }

  /** Articles added so far. */
  get size(): number {
    return this.#size;
  }

  get wordTotal(): number {
    return this.#wordTotal;
  }

  /** Seq of the next article added. */
  get nextSeq(): number {
    return this.slot * SLOT_SPAN + this.#size;
  }

  /** Adds the article at `nextSeq`. */
  add(row: SegmentRow): void {
    if (this.#size === SLOT_SPAN - 1) throw new RangeError('a shop holds at most 2^32 - 1 articles');
    const at = this.#size % COLUMN_CHUNK;
    const words = Math.min(row.words, MAX_WORDS);
    this.#manufacturer[at] = row.manufacturer;
    this.#unspsc7[at] = row.unspsc7;
    this.#unspsc9[at] = row.unspsc9;
    this.#unspsc[at] = row.unspsc;
    this.#eclass[at] = row.eclass;
    this.#etim[at] = row.etim;
    this.#price[at] = row.price;
    this.#priceIncl[at] = row.priceInclSpecialTaxes;
    this.#words[at] = words;
    this.#size += 1;
    this.#wordTotal += words;
    if (at === COLUMN_CHUNK - 1) this.#flush();
  }

  /**
   * Adds `size` articles at once, article `i` with the values at `i` of each column (as `add`
   * would, without a row per article). Words are at most `MAX_WORDS` in a `Uint16Array`.
   */
  addColumns(columns: Pick<SegmentColumns, keyof SegmentRow>, size: number): void {
    if (this.#size + size >= SLOT_SPAN) throw new RangeError('a shop holds at most 2^32 - 1 articles');
    for (let from = 0; from < size;) {
      const at = this.#size % COLUMN_CHUNK;
      const to = Math.min(size, from + COLUMN_CHUNK - at);
      this.#manufacturer.set(columns.manufacturer.subarray(from, to), at);
      this.#unspsc7.set(columns.unspsc7.subarray(from, to), at);
      this.#unspsc9.set(columns.unspsc9.subarray(from, to), at);
      this.#unspsc.set(columns.unspsc.subarray(from, to), at);
      this.#eclass.set(columns.eclass.subarray(from, to), at);
      this.#etim.set(columns.etim.subarray(from, to), at);
      this.#price.set(columns.price.subarray(from, to), at);
      this.#priceIncl.set(columns.priceInclSpecialTaxes.subarray(from, to), at);
      this.#words.set(columns.words.subarray(from, to), at);
      const words = columns.words;
      for (let i = from; i < to; i += 1) this.#wordTotal += words[i] as number;
      this.#size += to - from;
      from = to;
      if (this.#size % COLUMN_CHUNK === 0) this.#flush();
    }
  }

  /**
   * Writes the last chunks, the id order (positions in article id order, streamed by the caller
   * from the id index) and the description ranks (by position).
   *
   * @throws RangeError when `idOrder` does not hold every position once or the ranks are not one per article.
   */
  finish(idOrder: Iterable<number>, descriptionRank: Uint32Array): void {
    if (descriptionRank.length !== this.#size)
      throw new RangeError(`${descriptionRank.length} description ranks for ${this.#size} articles`);
    if (this.#size % COLUMN_CHUNK !== 0) this.#flush();
    for (let from = 0; from < this.#size; from += COLUMN_CHUNK) {
      const length = Math.min(COLUMN_CHUNK, this.#size - from);
      this.#write(
        this.slot,
        'descriptionRank',
        from / COLUMN_CHUNK,
        chunkBytes(descriptionRank.subarray(from, from + length), length),
      );
    }
    const chunk = new Uint32Array(COLUMN_CHUNK);
    let n = 0;
    for (const position of idOrder) {
      chunk[n % COLUMN_CHUNK] = position;
      n += 1;
      if (n % COLUMN_CHUNK === 0)
        this.#write(this.slot, 'idOrder', n / COLUMN_CHUNK - 1, chunkBytes(chunk, COLUMN_CHUNK));
    }
    if (n % COLUMN_CHUNK !== 0)
      this.#write(this.slot, 'idOrder', Math.floor(n / COLUMN_CHUNK), chunkBytes(chunk, n % COLUMN_CHUNK));
    if (n !== this.#size) throw new RangeError(`id order lists ${n} of ${this.#size} articles`);
  }

  #flush(): void {
    const length = this.#size % COLUMN_CHUNK || COLUMN_CHUNK;
    const chunk = Math.floor((this.#size - 1) / COLUMN_CHUNK);
    const columns: readonly [ColumnName, Parameters<typeof chunkBytes>[0]][] = [
      ['manufacturer', this.#manufacturer],
      ['unspsc7', this.#unspsc7],
      ['unspsc9', this.#unspsc9],
      ['unspsc', this.#unspsc],
      ['eclass', this.#eclass],
      ['etim', this.#etim],
      ['price', this.#price],
      ['priceInclSpecialTaxes', this.#priceIncl],
      ['words', this.#words],
    ];
    for (const [name, buffer] of columns) this.#write(this.slot, name, chunk, chunkBytes(buffer, length));
  }
}
