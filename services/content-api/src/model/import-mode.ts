/**
 * What an import does with the shop's catalog. `replace`: the file is the shop's whole catalog
 * (JSON Lines by default, BMEcat `T_NEW_CATALOG`). `upsert`: its articles are added or replaced,
 * the others stay (JSON Lines). `delete`: its records are deleted (JSON Lines). `products`: each
 * item's `mode` (`new`, `update`, `delete`) is applied (BMEcat `T_UPDATE_PRODUCTS`). `prices`:
 * the prices of the articles it names are changed, nothing else (BMEcat `T_UPDATE_PRICES`).
 */
export type ImportMode = 'replace' | 'upsert' | 'delete' | 'products' | 'prices';

export const IMPORT_MODES: readonly ImportMode[] = ['replace', 'upsert', 'delete', 'products', 'prices'];
