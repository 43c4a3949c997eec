import { recheckWaitingRecord } from '../model/recheck-waiting-record.js';
import { shopPriceTerms } from '../model/shop-price-terms.js';
import type { Article } from '../model/article.js';
import { indexArticle, type IndexedArticle } from './indexed-article.js';
import type { PriceScheduleRows } from './price-schedule-rows.js';
import type { CatalogChange, DeltaCounts, ShopCatalogDelta } from './search-backend.js';
import { checkShopArticle } from './shop-article-check.js';
import type { WaitingRows } from './waiting-rows.js';

/** The changes an engine applies to its searchable articles: `wait` changes are taken by `WaitingDelta`. */
export type EngineChange = Exclude<CatalogChange, { readonly kind: 'wait' }>;

/**
 * The waiting articles' side of a delta (decision 0033), shared by the engines: it reads the
 * delta's changes, keeps `content_waiting_articles` in step inside the engine's transaction, and
 * hands the engine only changes of searchable articles. An id is in one table at most: a `wait`
 * stores the waiting row and deletes a searchable article of that id; an upsert, or a price
 * change valid now, of a waiting article removes its row and stores the article; a delete of a
 * waiting article removes its row. The shop's waiting ids are read once, so a delta of articles
 * that were never waiting costs no statement per change.
 *
 * It keeps the price dates of searchable articles (`content_price_schedule`) in step the same
 * way: an upsert of an article with a `priceSchedule` stores it, one without removes the row, as
 * do a `wait`, a delete and a price change. A change with `onlyIfDue` (the price timer's) applies
 * only while the article's row still has that date: an import in between wins.
 */
export class WaitingDelta {
  readonly #rows: WaitingRows;
  readonly #delta: ShopCatalogDelta;
  readonly #ids: Set<string>;
  readonly #schedule: PriceScheduleRows;
  /** The shop's scheduled ids -> `due_at`. */
  readonly #dueAts: Map<string, string>;
  /** Ids this delta moved out of search (the engine is told to delete them; absent ones are no news). */
  readonly #movedOut = new Set<string>();
  #moved = 0;
  #missed = 0;
  #promoted = 0;
  #deletedWaiting = 0;

  private constructor(
    rows: WaitingRows,
    delta: ShopCatalogDelta,
    ids: Set<string>,
    schedule: PriceScheduleRows,
    dueAts: Map<string, string>,
  ) {
    this.#rows = rows;
    this.#delta = delta;
    this.#ids = ids;
    this.#schedule = schedule;
    this.#dueAts = dueAts;
  }

  /** Reads the shop's waiting ids and price dates; call inside the engine's transaction. */
  static async start(rows: WaitingRows, delta: ShopCatalogDelta, schedule: PriceScheduleRows): Promise<WaitingDelta> {
    const shopId = delta.shop.id;
    return new WaitingDelta(rows, delta, await rows.ids(shopId), schedule, await schedule.dueAts(shopId));
  }

  /** Stores the article's price dates, or removes the ones it had. */
  async #keepDates(id: string, article?: Article | IndexedArticle): Promise<void> {
    const schedule = article && 'priceSchedule' in article ? article.priceSchedule : undefined;
    if (schedule) {
      await this.#schedule.put(this.#delta.shop.id, id, schedule);
      this.#dueAts.set(id, schedule.dueAt);
    } else if (this.#dueAts.delete(id)) await this.#schedule.remove(this.#delta.shop.id, id);
  }

  /** The delta's changes for the engine (every waiting row written once they are all read). */
  async *changes(): AsyncGenerator<EngineChange> {
    const shopId = this.#delta.shop.id;
    const rows = this.#rows;
    const ids = this.#ids;
    for await (const change of this.#delta.changes) {
      // The timer read its rows before this transaction: an import may have changed them since.
      if ((change.kind === 'wait' || change.kind === 'upsert') && change.onlyIfWaiting && !ids.has(change.article.id))
        continue;
      if (
        (change.kind === 'wait' || change.kind === 'upsert') &&
        change.onlyIfDue !== undefined &&
        this.#dueAts.get(change.article.id) !== change.onlyIfDue
      )
        continue;
      if (change.kind === 'wait') {
        const waiting = change.article;
        checkShopArticle(waiting, shopId);
        await rows.put(waiting);
        await this.#keepDates(waiting.id);
        if (ids.has(waiting.id)) continue;
        ids.add(waiting.id);
        this.#movedOut.add(waiting.id);
        this.#moved += 1;
        yield { kind: 'delete', articleId: waiting.id };
        continue;
      }
      const id = change.kind === 'upsert' ? change.article.id : change.articleId;
      // Costs nothing for an article without price dates in a shop that has none.
      await this.#keepDates(id, change.kind === 'upsert' ? change.article : undefined);
      if (ids.size === 0 || !ids.has(id)) {
        yield change;
        continue;
      }
      if (change.kind === 'delete') {
        await rows.remove(shopId, id);
        ids.delete(id);
        this.#deletedWaiting += 1;
        continue;
      }
      if (change.kind === 'upsert') {
        await rows.remove(shopId, id);
        ids.delete(id);
        this.#promoted += 1;
        yield change;
        continue;
      }
      const waiting = await rows.find(shopId, id);
      const terms = shopPriceTerms(this.#delta.shop, this.#delta.now);
      const parsed = waiting && recheckWaitingRecord(waiting.document, terms, change.prices);
      if (!parsed?.ok) {
        // Prices that still give no article leave it waiting: the change names no searchable article.
        this.#delta.onUnknown?.(change);
        continue;
      }
      await rows.remove(shopId, id);
      ids.delete(id);
      this.#promoted += 1;
      const article = indexArticle(parsed.article);
      const promoted = parsed.schedule ? { ...article, priceSchedule: parsed.schedule } : article;
      await this.#keepDates(id, promoted);
      yield { kind: 'upsert', article: promoted };
    }
    await rows.flush();
    await this.#schedule.flush();
  }

  /** `onUnknown` for the engine: the deletes this delta made for articles it moved out of search are no news. */
  readonly onUnknown = (change: CatalogChange): void => {
    if (change.kind === 'delete' && this.#movedOut.has(change.articleId)) {
      this.#missed += 1;
      return;
    }
    this.#delta.onUnknown?.(change);
  };

  /** The engine's counts as the delta's: a waiting article made searchable is updated, one deleted is deleted. */
  counts(engine: DeltaCounts): DeltaCounts {
    return {
      added: engine.added - this.#promoted,
      updated: engine.updated + this.#promoted,
      deleted: engine.deleted - (this.#moved - this.#missed) + this.#deletedWaiting,
    };
  }
}
