import { recheckWaitingRecord } from '../model/recheck-waiting-record.js';
import { shopPriceTerms } from '../model/shop-price-terms.js';
import { indexArticle } from './indexed-article.js';
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
 */
export class WaitingDelta {
  readonly #rows: WaitingRows;
  readonly #delta: ShopCatalogDelta;
  readonly #ids: Set<string>;
  /** Ids this delta moved out of search (the engine is told to delete them; absent ones are no news). */
  readonly #movedOut = new Set<string>();
  #moved = 0;
  #missed = 0;
  #promoted = 0;
  #deletedWaiting = 0;

  private constructor(rows: WaitingRows, delta: ShopCatalogDelta, ids: Set<string>) {
    this.#rows = rows;
    this.#delta = delta;
    this.#ids = ids;
  }

  /** Reads the shop's waiting ids; call inside the engine's transaction. */
  static async start(rows: WaitingRows, delta: ShopCatalogDelta): Promise<WaitingDelta> {
    return new WaitingDelta(rows, delta, await rows.ids(delta.shop.id));
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
      if (change.kind === 'wait') {
        const waiting = change.article;
        checkShopArticle(waiting, shopId);
        await rows.put(waiting);
        if (ids.has(waiting.id)) continue;
        ids.add(waiting.id);
        this.#movedOut.add(waiting.id);
        this.#moved += 1;
        yield { kind: 'delete', articleId: waiting.id };
        continue;
      }
      const id = change.kind === 'upsert' ? change.article.id : change.articleId;
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
      yield { kind: 'upsert', article: indexArticle(parsed.article) };
    }
    await rows.flush();
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
