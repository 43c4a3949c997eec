import type { CatalogFormat } from '../import/catalog-parser.js';
import type { BmecatTransaction } from '../import/bmecat-transaction.js';

/**
 * What an import does with the shop's catalog. `replace`: the file is the shop's whole catalog
 * (JSON Lines by default, BMEcat `T_NEW_CATALOG`). `upsert`: its articles are added or replaced,
 * the others stay (JSON Lines). `delete`: its records are deleted (JSON Lines). `products`: each
 * item's `mode` (`new`, `update`, `delete`) is applied (BMEcat `T_UPDATE_PRODUCTS`). `prices`:
 * the prices of the articles it names are changed, nothing else (BMEcat `T_UPDATE_PRICES`).
 */
export type ImportMode = 'replace' | 'upsert' | 'delete' | 'products' | 'prices';

export const IMPORT_MODES: readonly ImportMode[] = ['replace', 'upsert', 'delete', 'products', 'prices'];

const BY_TRANSACTION: Readonly<Record<BmecatTransaction, ImportMode>> = {
  T_NEW_CATALOG: 'replace',
  T_UPDATE_PRODUCTS: 'products',
  T_UPDATE_PRICES: 'prices',
};

/** An import mode asked for that the file contradicts; nothing was changed. */
export class ImportModeError extends Error {
  override readonly name = 'ImportModeError';
}

/**
 * The mode of an import: a BMEcat file's own (its transaction; `replace` for a file without
 * one), JSON Lines' `asked` or `replace`.
 *
 * @throws ImportModeError when `asked` contradicts the BMEcat file's transaction, or is a BMEcat
 *   mode (`products`, `prices`) for JSON Lines.
 */
export function resolveImportMode(
  format: CatalogFormat,
  transaction: BmecatTransaction | undefined,
  asked: ImportMode | undefined,
): ImportMode {
  if (format === 'jsonl') {
    if (asked === 'products' || asked === 'prices')
      throw new ImportModeError(
        `mode ${asked} is for BMEcat files (T_UPDATE_${asked.toUpperCase()}); JSON Lines is replace, upsert or delete`,
      );
    return asked ?? 'replace';
  }
  const own = transaction === undefined ? 'replace' : BY_TRANSACTION[transaction];
  if (asked !== undefined && asked !== own)
    throw new ImportModeError(
      `the file is a BMEcat ${transaction ?? 'catalog without a transaction element'}, which is mode ${own}; ` +
        `mode ${asked} contradicts it`,
    );
  return own;
}
