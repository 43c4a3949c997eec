import { isObject } from '@triad/common';
import type { CatalogFormat } from '../model/catalog-format.js';
import { parseArticleRecord, type RecordViolation, type WaitingRecord } from '../model/parse-article-record.js';
import { parsePriceRecord } from '../model/parse-price-record.js';
import type { ShopPriceTerms } from '../model/shop-price-terms.js';
import { indexArticle, type IndexedArticle } from '../search/indexed-article.js';
import type { CatalogChange } from '../search/search-backend.js';
import type { WaitingArticle } from '../model/waiting-article.js';
import { BmecatItemReader } from './bmecat-reader.js';
import { DEFAULT_ITEM_MODE, type BmecatTransaction } from './bmecat-transaction.js';
import type { CatalogHeader } from '../model/catalog-header.js';
import { JsonLinesSplitter } from './json-lines-reader.js';
import { checkRecordLimits } from './record-limits.js';
import { KEPT_PRICE_ITEM, type UnkeptElements } from './unkept-elements.js';
import type { ItemWarning } from './bmecat-node.js';

/**
 * A record as the file gives it (our JSON Lines shape, also what BMEcat items are mapped to), or why it cannot be
 * read.
 */
export type RawCatalogItem =
  | {
      readonly line: number;
      readonly record: unknown;
      readonly mode?: string;
      /** BMEcat: what the reader kept in another form than the file gave it, or did not keep. */
      readonly warnings?: readonly ItemWarning[];
    }
  | { readonly line: number; readonly error: string; readonly path?: string };

/**
 * A record of the file, with its 1-based start line: an article indexed and ready to store (a
 * whole catalog's, or one to add or replace), a delete or price change naming a stored article
 * (BMEcat updates), a record kept not searchable, or why it is refused.
 */
export type ParsedCatalogItem =
  | {
      readonly line: number;
      readonly article: IndexedArticle;
      /** The BMEcat price type its prices were taken from (`PriceConditions.priceType`). */
      readonly priceType?: string;
      /** Its prices gave no tax: the shop's default tax was used. */
      readonly taxFromShop?: true;
      /** BMEcat: what the reader kept in another form than the file gave it, or did not keep. */
      readonly warnings?: readonly ItemWarning[];
    }
  | {
      readonly line: number;
      readonly change: CatalogChange & { readonly kind: 'delete' | 'prices' | 'dated-prices' };
      readonly warnings?: readonly ItemWarning[];
    }
  /** A record kept, not searchable until a price of it is valid (decision 0033). */
  | { readonly line: number; readonly waiting: WaitingArticle; readonly warnings?: readonly ItemWarning[] }
  | {
      readonly line: number;
      readonly violations: readonly RecordViolation[];
      /** The refused record's supplier article id, when it has one (to name it in the report). */
      readonly supplierArticleId?: string;
    };

/**
 * Turns pushed text of a catalog file into records (JSON Lines or BMEcat items mapped to our
 * shape), the unfinished record only held. `finishCatalogItem` checks and indexes them.
 */
export class CatalogParser {
  readonly #source: {
    feed(text: string): readonly RawCatalogItem[];
    end(): unknown;
    readonly lines?: number;
    readonly transaction?: BmecatTransaction | undefined;
    readonly catalog?: CatalogHeader;
  };

  /** `unkept` (BMEcat) counts what the file holds and Triad does not keep. */
  constructor(format: CatalogFormat, unkept?: UnkeptElements) {
    this.#source = format === 'bmecat' ? new BmecatItemReader(unkept) : new JsonLinesSplitter();
  }

  /** JSON Lines: lines read so far (blank ones included). */
  get lines(): number {
    return this.#source.lines ?? 0;
  }

  /** BMEcat: the transaction element read so far; undefined before it and for JSON Lines. */
  get transaction(): BmecatTransaction | undefined {
    return this.#source.transaction;
  }

  /** BMEcat: which catalog the file is and who sent it, as read so far; undefined for JSON Lines. */
  get catalog(): CatalogHeader | undefined {
    return this.#source.catalog;
  }

  /** Records the text completed. @throws XmlSyntaxError for malformed BMEcat. */
  feed(text: string): readonly RawCatalogItem[] {
    return this.#source.feed(text);
  }

  /** Records left at the end of the file. @throws XmlSyntaxError when the BMEcat document is incomplete. */
  end(): readonly RawCatalogItem[] {
    const rest = this.#source.end();
    return Array.isArray(rest) ? (rest as RawCatalogItem[]) : [];
  }
}

/**
 * Checks a record for one shop and makes it what the `transaction` asks (none: a whole catalog,
 * as JSON Lines): in a whole catalog (`T_NEW_CATALOG`) and for an item of `T_UPDATE_PRODUCTS`
 * whose mode is `new` or `update` (`new` when absent), an article checked by `parseArticleRecord`
 * and indexed; for a `delete` item, a delete change (only `supplierArticleId` needed); for an
 * item of `T_UPDATE_PRICES`, a price change (`parsePriceRecord`). Else the violations. `shop`
 * is the shop's id, or its price terms (prices are then checked against them).
 */
export function finishCatalogItem(
  item: RawCatalogItem,
  shop: string | ShopPriceTerms,
  transaction?: BmecatTransaction,
): ParsedCatalogItem {
  const { line } = item;
  const shopId = typeof shop === 'string' ? shop : shop.shopId;
  if ('error' in item) return { line, violations: [{ path: item.path ?? '', message: item.error }] };
  const oversized = checkRecordLimits(item.record);
  if (oversized.length > 0) return { line, violations: oversized };
  if (transaction === 'T_UPDATE_PRICES') {
    const parsed = parsePriceRecord(item.record, shop);
    if (!parsed.ok) return { line, violations: parsed.violations };
    if ('prices' in parsed && parsed.dated === undefined)
      return { line, change: { kind: 'prices', articleId: parsed.articleId, prices: parsed.prices } };
    return { line, change: { kind: 'dated-prices', articleId: parsed.articleId, record: parsed.dated ?? {} } };
  }
  const mode = transaction === 'T_UPDATE_PRODUCTS' ? (item.mode ?? DEFAULT_ITEM_MODE) : item.mode;
  if (mode === 'delete') {
    if (transaction !== 'T_UPDATE_PRODUCTS')
      return {
        line,
        violations: [{ path: '', message: 'mode="delete" items belong in T_UPDATE_PRODUCTS, not in a whole catalog' }],
      };
    const id = isObject(item.record) ? item.record.supplierArticleId : undefined;
    return typeof id === 'string' && id !== ''
      ? { line, change: { kind: 'delete', articleId: `${shopId}:${id}` } }
      : { line, violations: [{ path: '/supplierArticleId', message: 'must be a non-empty string' }] };
  }
  if (transaction === 'T_UPDATE_PRODUCTS' && mode !== 'new' && mode !== 'update')
    return { line, violations: [{ path: '', message: `mode="${mode}" is none of new, update, delete` }] };
  const parsed = parseArticleRecord(item.record, shop);
  if (!parsed.ok && parsed.waiting) return { line, waiting: waitingArticle(parsed.waiting, parsed.violations, shopId) };
  if (!parsed.ok) return { line, violations: parsed.violations };
  const indexedArticle = indexArticle(parsed.article);
  const article = parsed.schedule ? { ...indexedArticle, priceSchedule: parsed.schedule } : indexedArticle;
  // For the import's summary: which price type was taken, and whether the shop's default tax was.
  const c = parsed.article.priceConditions;
  if (c?.priceType === undefined && c?.taxFromShop !== true) return { line, article };
  return {
    line,
    article,
    ...(c.priceType !== undefined ? { priceType: c.priceType } : {}),
    ...(c.taxFromShop === true ? { taxFromShop: true } : {}),
  };
}

/** A record kept not searchable, as the store takes it; the reason joins the violations. */
export function waitingArticle(
  waiting: WaitingRecord,
  violations: readonly RecordViolation[],
  shopId: string,
): WaitingArticle {
  const supplierArticleId = String(waiting.record.supplierArticleId);
  return {
    kind: 'waiting',
    id: `${shopId}:${supplierArticleId}`,
    shopId,
    supplierArticleId,
    document: JSON.stringify(waiting.record),
    searchableFrom: waiting.searchableFrom ?? null,
    reason: violations.map((v) => (v.path === '' ? v.message : `${v.path}: ${v.message}`)).join('; '),
  };
}

/** `finishCatalogItem` of every item, with the reader's warnings of the records taken. */
export function finishCatalogItems(
  items: readonly RawCatalogItem[],
  shop: string | ShopPriceTerms,
  transaction?: BmecatTransaction,
): ParsedCatalogItem[] {
  return items.map((item) => warned(named(finishCatalogItem(item, shop, transaction), item), item, transaction));
}

/**
 * A record taken (an article, one kept not searchable, a price change) with what its reader warned of; a price update
 * only of the elements it keeps (the rest is counted as not kept). A refused record's warnings go
 * with it, and a delete needs only its id.
 */
function warned(
  parsed: ParsedCatalogItem,
  item: RawCatalogItem,
  transaction: BmecatTransaction | undefined,
): ParsedCatalogItem {
  if (!('record' in item) || item.warnings === undefined || 'violations' in parsed) return parsed;
  if ('article' in parsed || 'waiting' in parsed) return { ...parsed, warnings: item.warnings };
  if (parsed.change.kind === 'delete') return parsed;
  const kept = transaction === 'T_UPDATE_PRICES' ? item.warnings.filter(keptInPriceUpdate) : item.warnings;
  return kept.length === 0 ? parsed : { ...parsed, warnings: kept };
}

/** Whether a warning's element is one a price update keeps (`ARTICLE/ARTICLE_PRICE_DETAILS/...`). */
function keptInPriceUpdate(warning: ItemWarning): boolean {
  const child = warning.path.split('/')[1];
  return child !== undefined && KEPT_PRICE_ITEM[child] !== undefined;
}

/** A refused record with its supplier article id, when the record has one. */
function named(parsed: ParsedCatalogItem, item: RawCatalogItem): ParsedCatalogItem {
  if (!('violations' in parsed) || !('record' in item) || !isObject(item.record)) return parsed;
  const id = item.record.supplierArticleId;
  return typeof id === 'string' && id !== '' ? { ...parsed, supplierArticleId: id } : parsed;
}
