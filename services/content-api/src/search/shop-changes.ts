import type { BusinessShop } from '../model/article.js';

/**
 * How `SearchBackend.putShop` stores a shop record: `create` only a new id, `update` only a
 * stored one, `upsert` either.
 */
export type ShopWriteMode = 'create' | 'update' | 'upsert';

/** What `putShop` did: `exists` (create of a stored id) and `not-found` (update of an unknown id) change nothing. */
export type ShopWriteOutcome = 'created' | 'updated' | 'exists' | 'not-found';

/** A shop record to store; its articles stay as they are. */
export interface ShopPut {
  /** The whole record, already checked (`parseShopRecord`). */
  readonly shop: BusinessShop;
  readonly mode: ShopWriteMode;
  /** The new content version, made current when something changed. */
  readonly hash: string;
}

/** A shop to remove. */
export interface ShopRemoval {
  readonly id: string;
  /** Also remove the shop's articles; without it a shop with articles stays (`has-articles`). */
  readonly withArticles: boolean;
  /** The new content version, made current when something changed. */
  readonly hash: string;
}

/** What `removeShop` did; only `removed` changed anything. `articles`: the shop's article count. */
export type ShopRemovalOutcome =
  | { readonly status: 'removed'; readonly articles: number }
  | { readonly status: 'has-articles'; readonly articles: number }
  | { readonly status: 'not-found' };
