import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import { toArticleRow, type ArticleRow } from '../search/article-row.js';
import { indexArticle } from '../search/indexed-article.js';
import type { SearchBackend } from '../search/search-backend.js';
import { FACET_NAMES } from '../search/search-query.js';
import { carryOverFirstLayout, FIRST_LAYOUT_TABLE } from '../search/sqlite/carry-over-first-layout.js';
import { contentStorageFor } from '../content-api-core.js';
import { CONTENT_MIGRATION_TABLE } from './index.js';
import type { ContentTables } from './content-tables.js';

/** The article table of the first layout (migration 0002), on both engines. */
type FirstLayoutTables = { content_articles: ArticleRow };
/** SQLite's catalog of schema objects. */
type SqliteMaster = { sqlite_master: { name: string; type: string } };

const catalog = generateCatalog({ articles: 40, seed: 12 });
const articles = [...catalog.articles()];

describeEachDatabase<ContentTables>('content migrations', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    const storage = contentStorageFor(getDb());
    backend = storage.backend;
    // A store of the first layout (migrations 0001 and 0002) holding articles as their JSON.
    const first = Object.fromEntries(Object.entries(storage.migrations).filter(([name]) => name < '0003'));
    await migrateToLatest(getDb(), { migrations: first, tableName: CONTENT_MIGRATION_TABLE });
    const db = getDb().db;
    for (const shop of catalog.shops)
      await db
        .insertInto('content_shops')
        .values({ shop_id: shop.id, name: shop.name, document: JSON.stringify(shop) })
        .execute();
    await db
      .withTables<FirstLayoutTables>()
      .insertInto('content_articles')
      .values(articles.map((a) => ({ ...toArticleRow(indexArticle(a)), document: JSON.stringify(a) })))
      .execute();
    await db.insertInto('content_meta').values({ meta_key: 'current_hash', meta_value: 'old' }).execute();
    await migrateToLatest(getDb(), { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('keeps shops, version and every article (SQLite carries them into its new layout)', async () => {
    const report = await carryOverFirstLayout(getDb(), backend);
    if (getDb().dialect === 'sqlite') {
      expect(report).toEqual({
        shops: new Set(articles.map((a) => a.shopId)).size,
        articles: articles.length,
        failed: [],
      });
      const left = await getDb()
        .db.withTables<SqliteMaster>()
        .selectFrom('sqlite_master')
        .select('name')
        .where('name', '=', FIRST_LAYOUT_TABLE)
        .execute();
      expect(left).toEqual([]);
      expect(await carryOverFirstLayout(getDb(), backend)).toBeUndefined(); // once only
    } else {
      expect(report).toBeUndefined();
    }
    expect(await backend.currentHash()).toBe('old');
    expect((await backend.listShops(10, 0)).total).toBe(catalog.shops.length);
    const page = await backend.search({
      words: [],
      shopIds: [],
      sort: [],
      limit: 5,
      offset: 0,
      facets: [...FACET_NAMES],
    });
    expect(page.total).toBe(articles.length);
    expect(page.facets.find((f) => f.facetName === 'businessShopId')!.buckets.reduce((n, b) => n + b.count, 0)).toBe(
      articles.length,
    );
    // Migration 0011 (PostgreSQL) or the carry-over (SQLite) gives stored catalogs the ECLASS facet, named.
    const eclass = page.facets.find((f) => f.facetName === 'ECLASS')!.buckets;
    const first = articles[0]!.classifications.find((c) => c.systemName.startsWith('ECLASS'))!;
    expect(eclass.find((b) => b.value === first.groupId)).toMatchObject({ label: first.groupName });
    expect(eclass.reduce((n, b) => n + (b.value === '' ? 0 : b.count), 0)).toBe(articles.length);
    expect(await backend.findArticle(articles[3]!.id)).toEqual(articles[3]);
    const blue = await backend.search({ words: ['blue'], shopIds: [], sort: [], limit: 40, offset: 0, facets: [] });
    expect(blue.total).toBe(
      articles.filter((a) => a.descriptions.some((d) => d.value.toLowerCase().includes('blue'))).length,
    );
  });

  it('takes a new catalog after the upgrade', async () => {
    await backend.replaceCatalog({ shops: catalog.shops, articles, hash: 'new' });
    const page = await backend.search({ words: ['blue'], shopIds: [], sort: [], limit: 40, offset: 0, facets: [] });
    expect(page.total).toBe(articles.filter((a) => a.descriptions.some((d) => d.value.includes('blue'))).length);
    expect(await backend.findArticle(articles[5]!.id)).toEqual(articles[5]);
  });
});
