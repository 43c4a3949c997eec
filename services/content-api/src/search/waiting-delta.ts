import { recheckWaitingRecord } from '../model/recheck-waiting-record.js';
import { shopPriceTerms } from '../model/shop-price-terms.js';
import type { Article } from '../model/article.js';
import { decodeArticleDocument } from '../model/article-document.js';
import { recordOfArticle, withPriceMembers } from '../model/dated-price-record.js';
import { parseArticleRecord } from '../model/parse-article-record.js';
import { indexArticle, type IndexedArticle } from './indexed-article.js';
import type { PriceScheduleRows } from './price-schedule-rows.js';
import type { CatalogChange, DeltaCounts, ShopCatalogDelta } from './search-backend.js';
import { checkShopArticle } from './shop-article-check.js';
import type { WaitingRows } from './waiting-rows.js';

/** The changes an engine applies to its searchable articles: `wait` and `dated-prices` are taken by `WaitingDelta`. */
export type EngineChange = Exclude<CatalogChange, { readonly kind: 'wait' | 'dated-prices' }>;

/** The stored document of a searchable article of the delta's shop, read in the engine's transaction. */
export type StoredDocument = (articleId: string) => Promise<string | undefined>;

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
 * only while the article's row still has that date: an import in between wins. A `dated-prices`
 * change (a price update with dates) is checked against the article's record (its waiting row,
 * its price dates' record, else its stored document): prices valid now make an upsert; ones that
 * start later only keep a searchable article's current prices until their date (its row then
 * holds the updated record), or give a waiting article its new date.
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
  /** `dated-prices` changes kept for their date: counted as updated. */
  #deferred = 0;
  #documentOf: StoredDocument = () => Promise.resolve(undefined);

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
  static async start(
    rows: WaitingRows,
    delta: ShopCatalogDelta,
    schedule: PriceScheduleRows,
    documentOf?: StoredDocument,
  ): Promise<WaitingDelta> {
    const shopId = delta.shop.id;
    const started = new WaitingDelta(rows, delta, await rows.ids(shopId), schedule, await schedule.dueAts(shopId));
    if (documentOf) started.#documentOf = documentOf;
    return started;
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
      if (change.kind === 'dated-prices') {
        yield* this.#dated(change);
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

  /** A price update with dates, checked against the article's record (see the class). */
  async *#dated(change: CatalogChange & { readonly kind: 'dated-prices' }): AsyncGenerator<EngineChange> {
    const shopId = this.#delta.shop.id;
    const id = change.articleId;
    const waiting = this.#ids.has(id) ? await this.#rows.find(shopId, id) : undefined;
    let base: unknown;
    try {
      const stored = waiting ? undefined : await this.#documentOf(id);
      const kept = waiting?.document ?? (this.#dueAts.has(id) ? await this.#schedule.document(shopId, id) : undefined);
      if (kept !== undefined) base = JSON.parse(kept);
      else if (stored !== undefined) base = recordOfArticle(decodeArticleDocument(stored, id));
    } catch {
      base = undefined;
    }
    const record = withPriceMembers(base, change.record, this.#delta.shop.defaultTax === undefined);
    const parsed = record && parseArticleRecord(record, shopPriceTerms(this.#delta.shop, this.#delta.now));
    if (!parsed || (!parsed.ok && !parsed.waiting)) {
      this.#delta.onUnknown?.(change);
      return;
    }
    if (parsed.ok) {
      if (waiting) {
        await this.#rows.remove(shopId, id);
        this.#ids.delete(id);
        this.#promoted += 1;
      }
      const article = indexArticle(parsed.article);
      const priced = parsed.schedule ? { ...article, priceSchedule: parsed.schedule } : article;
      await this.#keepDates(id, priced);
      yield { kind: 'upsert', article: priced };
      return;
    }
    const later = parsed.waiting;
    if (!later) return;
    this.#deferred += 1;
    if (waiting) {
      const reason = parsed.violations.map((v) => (v.path === '' ? v.message : `${v.path}: ${v.message}`)).join('; ');
      await this.#rows.put({
        ...waiting,
        document: JSON.stringify(later.record),
        searchableFrom: later.searchableFrom ?? null,
        reason,
      });
      return;
    }
    // Searchable: its current prices stay until the update's first ladder starts (or they end first).
    const from = later.searchableFrom;
    if (from === undefined) return;
    const before = this.#dueAts.get(id);
    const dueAt = before !== undefined && before < from ? before : from;
    await this.#schedule.put(shopId, id, { document: JSON.stringify(later.record), dueAt });
    this.#dueAts.set(id, dueAt);
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
      updated: engine.updated + this.#promoted + this.#deferred,
      deleted: engine.deleted - (this.#moved - this.#missed) + this.#deletedWaiting,
    };
  }
}
