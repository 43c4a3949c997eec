import type { ShopPut, ShopRemoval, ShopRemovalOutcome, ShopWriteOutcome } from '../shop-changes.js';
import { checkShopId } from '../shop-article-check.js';
import { SHOP_HASH_KEY } from '../shop-versions.js';
import type { SqliteCatalogWriter } from './sqlite-catalog-writer.js';

/**
 * Shop records on the SQLite store. Every change is one `BEGIN IMMEDIATE` transaction queued
 * behind the catalog writer's imports (`exclusive`), so a change made while an import runs in
 * this process waits for it instead of failing with "database is locked"; another process's
 * import is waited for by the connection's busy timeout.
 */
export class SqliteShopWriter {
  readonly #writer: SqliteCatalogWriter;

  constructor(writer: SqliteCatalogWriter) {
    this.#writer = writer;
  }

  putShop(put: ShopPut): Promise<ShopWriteOutcome> {
    const { shop, mode } = put;
    checkShopId(shop.id);
    return this.#writer.exclusive(() => {
      const w = this.#writer;
      const stored = w.statement('select 1 from content_shops where shop_id = ?').pluck().get(shop.id) !== undefined;
      if (stored && mode === 'create') return 'exists';
      if (!stored && mode === 'update') return 'not-found';
      w.statement(
        'insert into content_shops (shop_id, name, document) values (?, ?, ?) ' +
          'on conflict (shop_id) do update set name = excluded.name, document = excluded.document',
      ).run(shop.id, shop.name, JSON.stringify(shop));
      // The shop's own version changes too: links pinned to its old terms must not stay cacheable.
      w.setShopHash(shop.id, put.hash);
      w.setHash(put.hash);
      return stored ? 'updated' : 'created';
    });
  }

  removeShop(removal: ShopRemoval): Promise<ShopRemovalOutcome> {
    return this.#writer.exclusive((): ShopRemovalOutcome => {
      const w = this.#writer;
      if (w.statement('select 1 from content_shops where shop_id = ?').pluck().get(removal.id) === undefined)
        return { status: 'not-found' };
      const segment = w
        .statement('select slot, article_count as articles from content_segments where shop_id = ?')
        .get(removal.id) as { slot: number; articles: number } | undefined;
      const waiting = w
        .statement('select count(*) from content_waiting_articles where shop_id = ?')
        .pluck()
        .get(removal.id) as number;
      const articles = (segment?.articles ?? 0) + waiting;
      if (articles > 0 && !removal.withArticles) return { status: 'has-articles', articles };
      if (segment) w.dropSegment(segment.slot);
      w.statement('delete from content_waiting_articles where shop_id = ?').run(removal.id);
      w.statement('delete from content_price_schedule where shop_id = ?').run(removal.id);
      w.statement('delete from content_shops where shop_id = ?').run(removal.id);
      w.statement('delete from content_meta where meta_key = ?').run(SHOP_HASH_KEY + removal.id);
      w.setHash(removal.hash);
      return { status: 'removed', articles };
    });
  }
}
