import type { ImportResult } from '../commands/import-catalog.js';
import type { BusinessShop } from '../model/article.js';
import { formatDecimal } from '../model/decimal.js';
import { describeCatalogHeader } from '../model/catalog-header.js';

/**
 * The lines of an import's summary that say how prices were taken (empty when the file named no
 * BMEcat price type and no record took the default tax): records per BMEcat price type, and
 * records that took the shop's default tax, with the rate.
 */
export function priceDecisionsText(
  result: Pick<ImportResult, 'defaultTaxUsed' | 'priceTypesUsed'>,
  shop: BusinessShop,
): string {
  const lines: string[] = [];
  const types = Object.entries(result.priceTypesUsed);
  if (types.length > 0)
    lines.push(`prices taken by price_type: ${types.map(([type, n]) => `${type} ${n}`).join(', ')}`);
  if (result.defaultTaxUsed > 0 && shop.defaultTax)
    lines.push(
      `${result.defaultTaxUsed} records gave no TAX and took shop ${shop.id}'s default tax ` +
        `${formatDecimal(shop.defaultTax)}`,
    );
  return lines.map((line) => `${line}\n`).join('');
}

/** `, kept 3 not searchable` (the verb as given), or nothing when every record is searchable. */
export function keptText(notSearchable: number, verb: string): string {
  return notSearchable > 0 ? `, ${verb} ${notSearchable} not searchable` : '';
}

/** `catalog: WB-2024 version 7.2, "Widgets", from ACME, made 2024-05-01` (nothing when the header names none). */
export function catalogHeaderText(result: Pick<ImportResult, 'catalog'>): string {
  const text = result.catalog === null ? '' : describeCatalogHeader(result.catalog);
  return text === '' ? '' : `catalog: ${text}\n`;
}
