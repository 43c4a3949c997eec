/**
 * What a BMEcat file does to the shop's catalog, named by its transaction element:
 * `T_NEW_CATALOG` replaces it, and so does BMEcat 2005 `T_NEW_PRODUCTDATA` (product data without
 * prices: its items are kept, not searchable, until prices come, decision 0033);
 * `T_UPDATE_PRODUCTS` applies each item's `mode` as a delta, `T_UPDATE_PRICES` changes the
 * prices of the articles its items name.
 */
export type BmecatTransaction = 'T_NEW_CATALOG' | 'T_NEW_PRODUCTDATA' | 'T_UPDATE_PRODUCTS' | 'T_UPDATE_PRICES';

/** What an item of a `T_UPDATE_PRODUCTS` does: store a new article, replace a stored one whole, delete one. */
export type BmecatItemMode = 'new' | 'update' | 'delete';

/**
 * An item's mode when its `mode` attribute is absent: `new`, the default the BMEcat 1.2 DTD and
 * the 2005 schema declare for `ARTICLE` and `PRODUCT`.
 */
export const DEFAULT_ITEM_MODE: BmecatItemMode = 'new';

const TRANSACTIONS: readonly BmecatTransaction[] = [
  'T_NEW_CATALOG',
  'T_NEW_PRODUCTDATA',
  'T_UPDATE_PRODUCTS',
  'T_UPDATE_PRICES',
];

/** `name` as a transaction; undefined for anything else (no transaction element read yet). */
export function bmecatTransaction(name: string | undefined): BmecatTransaction | undefined {
  return TRANSACTIONS.find((transaction) => transaction === name);
}
