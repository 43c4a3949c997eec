import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteTestStore, type SqliteTestStore } from '../../test-support/search-test-store.js';
import { SLOT_SPAN } from '../segments/segment-columns.js';
import { idOrder, idOrderAll, SqliteCatalogWriter } from './sqlite-catalog-writer.js';
import { openContentConnection, type SqliteConnection } from './sqlite-connection.js';

describe('SQLite catalog writer: id order', () => {
  let store: SqliteTestStore;
  let connection: SqliteConnection;
  let writer: SqliteCatalogWriter;
  beforeAll(async () => {
    store = await openSqliteTestStore(80);
    connection = openContentConnection(store.file, 'writer');
    writer = new SqliteCatalogWriter(connection);
  });
  afterAll(async () => {
    connection?.close();
    await store?.close();
  });

  it('gives every position of a shop in id order, page after page', () => {
    const segments = connection.prepare('select slot, shop_id as shopId, article_count as size from content_segments');
    const shops = segments.all() as { slot: number; shopId: string; size: number }[];
    expect(shops.length).toBeGreaterThan(1);
    for (const { slot, shopId, size } of shops) {
      const base = slot * SLOT_SPAN;
      const ids = connection
        .prepare('select seq, article_id as id from content_articles where seq >= ? and seq < ?')
        .all(base, base + SLOT_SPAN) as { seq: number; id: string }[];
      const byId = [...ids].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((a) => a.seq - base);
      expect(byId).toHaveLength(size);
      expect([...idOrderAll(writer, shopId, base)]).toEqual(byId);
      // Pages that end exactly at the last article, one short of it, and longer than the shop.
      for (const page of [1, 2, 3, size, size - 1, size + 1])
        expect([...idOrder(writer, shopId, base, page)]).toEqual(byId);
    }
  });
});
