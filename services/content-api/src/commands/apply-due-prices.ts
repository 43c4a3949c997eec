import { randomBytes } from 'node:crypto';
import { waitingArticle } from '../import/catalog-parser.js';
import type { ScheduledArticle } from '../model/price-schedule.js';
import { recheckWaitingRecord } from '../model/recheck-waiting-record.js';
import { shopPriceTerms, type ShopPriceTerms } from '../model/shop-price-terms.js';
import type { WaitingArticle } from '../model/waiting-article.js';
import { indexArticle } from '../search/indexed-article.js';
import type { CatalogChange, SearchBackend } from '../search/search-backend.js';

/** Where the due articles are read (`WaitingArticleRepository` fits). */
export interface DueArticles {
  due(now: Date, limit: number): Promise<readonly WaitingArticle[]>;
}

/** Where the due price dates of searchable articles are read (`PriceScheduleRepository` fits). */
export interface DueSchedules {
  due(now: Date, limit: number): Promise<readonly ScheduledArticle[]>;
}

/** Articles applied per round; a round per shop is one delta. */
const DUE_BATCH = 10_000;

/** What one application did. */
export interface DuePricesOutcome {
  /** Articles made searchable. */
  readonly searchable: number;
  /** Articles checked again that still wait (a later ladder, or none usable). */
  readonly stillWaiting: number;
  /** Searchable articles whose prices changed at their date (the next ladder taken). */
  readonly repriced: number;
  /** Searchable articles whose prices ended with no other usable: kept, not searchable. */
  readonly leftSearch: number;
  /** Shops changed (one new content version each). */
  readonly shops: number;
}

/**
 * Applies the prices whose date has come (decision 0033). Waiting articles whose
 * `searchable_from` has come, and searchable articles whose price dates (`due_at`) have, are
 * checked again by their shop's terms at `now` (`recheckWaitingRecord`) and applied through
 * `applyShopDelta`, one delta per shop (a new content version, as an import): an upsert when a
 * price is valid (with its next date, if any), else a `wait` with its next date (or none). The
 * changes apply only to articles still as read when the delta runs (`onlyIfWaiting`,
 * `onlyIfDue`), so an import in between wins. Articles of a shop that no longer exists are left
 * (removing the shop removes them).
 */
export async function applyDuePrices(
  backend: Pick<SearchBackend, 'findShop' | 'applyShopDelta'>,
  waiting: DueArticles,
  now: Date,
  schedules?: DueSchedules,
): Promise<DuePricesOutcome> {
  let searchable = 0;
  let stillWaiting = 0;
  let repriced = 0;
  let leftSearch = 0;
  let shops = 0;
  for (;;) {
    const due = await waiting.due(now, DUE_BATCH);
    const dated = schedules ? await schedules.due(now, DUE_BATCH) : [];
    const byShop = new Map<string, { waiting: WaitingArticle[]; dated: ScheduledArticle[] }>();
    const of = (shopId: string) => {
      let entry = byShop.get(shopId);
      if (!entry) byShop.set(shopId, (entry = { waiting: [], dated: [] }));
      return entry;
    };
    for (const article of due) of(article.shopId).waiting.push(article);
    for (const article of dated) of(article.shopId).dated.push(article);
    let applied = 0;
    for (const [shopId, articles] of byShop) {
      const shop = await backend.findShop(shopId);
      if (!shop) continue;
      const terms = shopPriceTerms(shop, now);
      const changes: CatalogChange[] = [
        ...articles.waiting.map((article) => waitingChange(article, terms)),
        ...articles.dated.map((article) => datedChange(article, terms)),
      ];
      await backend.applyShopDelta({ shop, changes, hash: randomBytes(8).toString('hex'), now });
      const made = changes.filter((c) => c.kind === 'upsert' && c.onlyIfWaiting === true).length;
      const moved = changes.filter((c) => c.kind === 'upsert' && c.onlyIfDue !== undefined).length;
      searchable += made;
      stillWaiting += articles.waiting.length - made;
      repriced += moved;
      leftSearch += articles.dated.length - moved;
      applied += changes.length;
      shops += 1;
    }
    if ((due.length < DUE_BATCH && dated.length < DUE_BATCH) || applied === 0)
      return { searchable, stillWaiting, repriced, leftSearch, shops };
  }
}

/** A waiting article checked again: searchable when a price is valid, else waiting again. */
function waitingChange(article: WaitingArticle, terms: ShopPriceTerms): CatalogChange {
  const parsed = recheckWaitingRecord(article.document, terms);
  if (parsed.ok) {
    const indexed = indexArticle(parsed.article);
    return {
      kind: 'upsert',
      article: parsed.schedule ? { ...indexed, priceSchedule: parsed.schedule } : indexed,
      onlyIfWaiting: true,
    };
  }
  const again: WaitingArticle = parsed.waiting
    ? waitingArticle(parsed.waiting, parsed.violations, terms.shopId)
    : { ...article, searchableFrom: null, reason: parsed.violations.map((v) => v.message).join('; ') };
  return { kind: 'wait', article: again, onlyIfWaiting: true };
}

/** A searchable article at its price date: its next prices, else kept not searchable (with why). */
function datedChange(article: ScheduledArticle, terms: ShopPriceTerms): CatalogChange {
  const parsed = recheckWaitingRecord(article.document, terms);
  const onlyIfDue = article.dueAt;
  if (parsed.ok) {
    const indexed = indexArticle(parsed.article);
    return {
      kind: 'upsert',
      article: parsed.schedule ? { ...indexed, priceSchedule: parsed.schedule } : indexed,
      onlyIfDue,
    };
  }
  if (parsed.waiting)
    return { kind: 'wait', article: waitingArticle(parsed.waiting, parsed.violations, terms.shopId), onlyIfDue };
  // Refused by the shop's terms of today (another currency, a type it no longer takes): kept until new prices.
  const waiting: WaitingArticle = {
    kind: 'waiting',
    id: article.id,
    shopId: article.shopId,
    supplierArticleId: article.id.slice(article.shopId.length + 1),
    document: article.document,
    searchableFrom: null,
    reason: parsed.violations.map((v) => v.message).join('; '),
  };
  return { kind: 'wait', article: waiting, onlyIfDue };
}
