import { randomBytes } from 'node:crypto';
import { waitingArticle } from '../import/catalog-parser.js';
import { recheckWaitingRecord } from '../model/recheck-waiting-record.js';
import { shopPriceTerms } from '../model/shop-price-terms.js';
import type { WaitingArticle } from '../model/waiting-article.js';
import { indexArticle } from '../search/indexed-article.js';
import type { CatalogChange, SearchBackend } from '../search/search-backend.js';

/** Where the due articles are read (`WaitingArticleRepository` fits). */
export interface DueArticles {
  due(now: Date, limit: number): Promise<readonly WaitingArticle[]>;
}

/** Articles applied per round; a round per shop is one delta. */
const DUE_BATCH = 10_000;

/** What one application did. */
export interface DuePricesOutcome {
  /** Articles made searchable. */
  readonly searchable: number;
  /** Articles checked again that still wait (a later ladder, or none usable). */
  readonly stillWaiting: number;
  /** Shops changed (one new content version each). */
  readonly shops: number;
}

/**
 * Makes the waiting articles whose `searchable_from` has come searchable (decision 0033): each
 * is checked again by its shop's terms at `now` (`recheckWaitingRecord`) and applied through
 * `applyShopDelta`, one delta per shop (a new content version, as an import): an upsert when a
 * price is valid, else a `wait` with its next date (or none). The changes apply only to articles
 * still waiting when the delta runs, so an import in between wins. Articles of a shop that no
 * longer exists are left (removing the shop removes them).
 */
export async function applyDuePrices(
  backend: Pick<SearchBackend, 'findShop' | 'applyShopDelta'>,
  waiting: DueArticles,
  now: Date,
): Promise<DuePricesOutcome> {
  let searchable = 0;
  let stillWaiting = 0;
  let shops = 0;
  for (;;) {
    const due = await waiting.due(now, DUE_BATCH);
    const byShop = new Map<string, WaitingArticle[]>();
    for (const article of due) byShop.set(article.shopId, [...(byShop.get(article.shopId) ?? []), article]);
    let applied = 0;
    for (const [shopId, articles] of byShop) {
      const shop = await backend.findShop(shopId);
      if (!shop) continue;
      const terms = shopPriceTerms(shop, now);
      const changes: CatalogChange[] = articles.map((article) => {
        const parsed = recheckWaitingRecord(article.document, terms);
        if (parsed.ok) return { kind: 'upsert', article: indexArticle(parsed.article), onlyIfWaiting: true };
        const again: WaitingArticle = parsed.waiting
          ? waitingArticle(parsed.waiting, parsed.violations, shopId)
          : { ...article, searchableFrom: null, reason: parsed.violations.map((v) => v.message).join('; ') };
        return { kind: 'wait', article: again, onlyIfWaiting: true };
      });
      await backend.applyShopDelta({ shop, changes, hash: randomBytes(8).toString('hex'), now });
      const made = changes.filter((c) => c.kind === 'upsert').length;
      searchable += made;
      stillWaiting += changes.length - made;
      applied += changes.length;
      shops += 1;
    }
    if (due.length < DUE_BATCH || applied === 0) return { searchable, stillWaiting, shops };
  }
}
