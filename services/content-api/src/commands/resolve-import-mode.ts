import type { BmecatTransaction } from '../import/bmecat-transaction.js';
import type { CatalogFormat } from '../model/catalog-format.js';
import type { ImportMode } from '../model/import-mode.js';

const BY_TRANSACTION: Readonly<Record<BmecatTransaction, ImportMode>> = {
  T_NEW_CATALOG: 'replace',
  T_NEW_PRODUCTDATA: 'replace',
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
