import type { CatalogHeader } from '../model/catalog-header.js';
import type { UnkeptElements } from './unkept-elements.js';

type Field = Exclude<keyof CatalogHeader, 'generationDate'>;

/** The header's leaf elements kept, by their path below `BMECAT/HEADER`. */
const FIELDS: ReadonlyMap<string, Field> = new Map([
  ['GENERATOR_INFO', 'generatorInfo'],
  ['CATALOG/CATALOG_ID', 'catalogId'],
  ['CATALOG/CATALOG_VERSION', 'catalogVersion'],
  ['CATALOG/CATALOG_NAME', 'catalogName'],
  ['SUPPLIER/SUPPLIER_ID', 'supplierId'],
  ['SUPPLIER/SUPPLIER_NAME', 'supplierName'],
  ['BUYER/BUYER_NAME', 'buyerName'],
]);

/** The parts of the generation date, by their path below `BMECAT/HEADER`. */
const DATE_PARTS: ReadonlyMap<string, 'date' | 'time' | 'zone'> = new Map([
  ['CATALOG/GENERATION_DATE', 'date'],
  ['CATALOG/DATETIME/DATE', 'date'],
  ['CATALOG/DATETIME/TIME', 'time'],
  ['CATALOG/DATETIME/TIMEZONE', 'zone'],
]);

/**
 * Collects the `CatalogHeader` of a BMEcat file from its header elements as they close. An
 * element given twice keeps its first text; the later ones are counted as not kept, so nothing
 * of the file goes without a word.
 */
export class CatalogHeaderFields {
  readonly #fields: { -readonly [K in keyof CatalogHeader]: CatalogHeader[K] } = {};
  readonly #date: { date?: string; time?: string; zone?: string } = {};
  #header: CatalogHeader | undefined;

  /**
   * An element outside the items closed: `path` holds the names open from the root, the element's
   * last; `text` its text; `line` where it opened.
   */
  close(path: readonly string[], text: string, line: number, unkept: UnkeptElements | undefined): void {
    if (path.length < 3 || path[0] !== 'BMECAT' || path[1] !== 'HEADER') return;
    const below = path.length === 3 ? path[2]! : path.slice(2).join('/');
    const field = FIELDS.get(below);
    const part = field === undefined ? DATE_PARTS.get(below) : undefined;
    if (field === undefined && part === undefined) return;
    const value = text.trim();
    if (value === '') return;
    const slot = field !== undefined ? this.#fields : this.#date;
    const key = field ?? part!;
    if ((slot as Record<string, string | undefined>)[key] !== undefined) {
      unkept?.add(`HEADER/${below}`, line);
      return;
    }
    (slot as Record<string, string>)[key] = value;
    this.#header = undefined;
  }

  /** What was read so far (one object while nothing changes). */
  get header(): CatalogHeader {
    if (this.#header) return this.#header;
    const { date, time, zone } = this.#date;
    const generationDate = `${date ?? ''}${time ? `T${time}` : ''}${zone ?? ''}`;
    this.#header = Object.freeze({ ...this.#fields, ...(generationDate ? { generationDate } : {}) });
    return this.#header;
  }
}
