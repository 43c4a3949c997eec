import { compareCodePoints } from '../code-point-order.js';
import { CLASSIFICATION_FACETS, type FacetName } from '../search-query.js';

/** Facets whose values are dictionary keys in the segment columns (the shop is the segment itself). */
export type DictionaryFacet = Exclude<FacetName, 'businessShopId'>;
export const DICTIONARY_FACETS: readonly DictionaryFacet[] = ['manufacturerName', ...CLASSIFICATION_FACETS];

/** One row of `content_facet_values`. */
export interface DictionaryEntry {
  readonly key: number;
  readonly facet: DictionaryFacet;
  readonly value: string;
  /**
   * The name the catalog that brought the value gave it (a classification group's `groupName`);
   * null or absent without one. Set when the value is added, never changed.
   */
  readonly label?: string | null;
}

/**
 * The facet values of the catalog, each with an integer key (`content_facet_values`), so segment
 * columns hold numbers and facet counts are array increments. Keys are never reused or changed
 * once committed, so a copy only ever grows (`add` the rows above `maxKey`).
 */
export class FacetDictionary {
  readonly #values: string[] = [''];
  readonly #facets: (DictionaryFacet | undefined)[] = [undefined];
  readonly #labels = new Map<number, string>();
  readonly #keys = new Map<DictionaryFacet, Map<string, number>>(DICTIONARY_FACETS.map((f) => [f, new Map()]));
  #manufacturerRank: Uint32Array | undefined;

  /** Highest key known (0 when empty); counting arrays need `maxKey + 1` slots. */
  get maxKey(): number {
    return this.#values.length - 1;
  }

  /** Adds an entry; keys must arrive in ascending order without gaps. @throws RangeError otherwise. */
  add(entry: DictionaryEntry): void {
    if (entry.key !== this.#values.length)
      throw new RangeError(`facet value key ${entry.key} out of order (expected ${this.#values.length})`);
    this.#values.push(entry.value);
    this.#facets.push(entry.facet);
    this.#keys.get(entry.facet)?.set(entry.value, entry.key);
    if (entry.label) this.#labels.set(entry.key, entry.label);
    this.#manufacturerRank = undefined;
  }

  /** Whether any value of `facet` is known: without one, every article is in the facet's `''` bucket. */
  hasValues(facet: DictionaryFacet): boolean {
    return (this.#keys.get(facet)?.size ?? 0) > 0;
  }

  /** The label of a key's value (see `DictionaryEntry.label`), undefined without one. */
  labelOf(key: number): string | undefined {
    return this.#labels.get(key);
  }

  /** The key of a value, 0 when the catalog has no article with it. */
  keyOf(facet: DictionaryFacet, value: string): number {
    return this.#keys.get(facet)?.get(value) ?? 0;
  }

  valueOf(key: number): string {
    return this.#values[key] ?? '';
  }

  facetOf(key: number): DictionaryFacet | undefined {
    return this.#facets[key];
  }

  /**
   * Position of each key's value among the manufacturer names in code point order, by key; key 0
   * (no manufacturer) comes first, as SQL sorts NULL first ascending.
   */
  manufacturerRank(): Uint32Array {
    if (!this.#manufacturerRank) {
      const keys = [...(this.#keys.get('manufacturerName')?.values() ?? [])];
      keys.sort((a, b) => compareCodePoints(this.valueOf(a), this.valueOf(b)));
      const rank = new Uint32Array(this.#values.length);
      keys.forEach((key, i) => (rank[key] = i + 1));
      this.#manufacturerRank = rank;
    }
    return this.#manufacturerRank;
  }
}
