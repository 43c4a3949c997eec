import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import { parseShopRecord } from '../model/parse-shop-record.js';
import type { BusinessShop } from '../model/article.js';
import { loadTestCatalog, TEST_SEED } from '../test-support/content-test-app.js';
import type { SearchBackend } from './search-backend.js';
import type { SearchQuery } from './search-query.js';
import type { ContentTables } from '../migrations/content-tables.js';

const ARTICLES = 40;
const demoShops = generateCatalog({ articles: 0, seed: TEST_SEED }).shops;

function newShop(id: string, name: string): BusinessShop {
  const parsed = parseShopRecord(id, { name });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.violations));
  return parsed.shop;
}

const everything: SearchQuery = {
  words: [],
  shopIds: [],
  sort: [],
  limit: 1000,
  offset: 0,
  facets: ['businessShopId'],
};

describeEachDatabase<ContentTables>('shop changes of the search backend', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), ARTICLES);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('creates a shop once, refuses a second create and makes a new content version', async () => {
    const shop = newShop('fresh-shop', 'Fresh Shop');
    expect(await backend.putShop({ shop, mode: 'create', hash: 'v-create' })).toBe('created');
    expect(await backend.findShop('fresh-shop')).toEqual(shop);
    expect(await backend.currentHash()).toBe('v-create');
    expect((await backend.shopVersions()).get('fresh-shop')).toBe('v-create');
    const renamed = { ...shop, name: 'Other' };
    expect(await backend.putShop({ shop: renamed, mode: 'create', hash: 'v-again' })).toBe('exists');
    expect((await backend.findShop('fresh-shop'))?.name).toBe('Fresh Shop');
    expect(await backend.currentHash()).toBe('v-create');
  });

  it('updates only a stored shop and keeps its articles', async () => {
    const labtools = demoShops.find((s) => s.id === 'labtools')!;
    const before = await backend.search({ ...everything, shopIds: ['labtools'] });
    expect(before.total).toBeGreaterThan(0);
    const changed = { ...labtools, name: 'LabTools Renamed' };
    expect(await backend.putShop({ shop: changed, mode: 'update', hash: 'v-update' })).toBe('updated');
    expect((await backend.findShop('labtools'))?.name).toBe('LabTools Renamed');
    expect((await backend.shopVersions()).get('labtools')).toBe('v-update');
    expect((await backend.search({ ...everything, shopIds: ['labtools'] })).total).toBe(before.total);
    const ghost = newShop('ghost', 'Ghost');
    expect(await backend.putShop({ shop: ghost, mode: 'update', hash: 'v-ghost' })).toBe('not-found');
    expect(await backend.findShop('ghost')).toBeUndefined();
  });

  it('refuses to remove a shop with articles unless told to, then removes shop and articles together', async () => {
    const shopId = demoShops[0]!.id;
    const own = (await backend.search({ ...everything, shopIds: [shopId] })).total;
    const total = await backend.countArticles();
    expect(own).toBeGreaterThan(0);
    const hash = await backend.currentHash();
    expect(await backend.removeShop({ id: shopId, withArticles: false, hash: 'v-refused' })).toEqual({
      status: 'has-articles',
      articles: own,
    });
    expect(await backend.findShop(shopId)).toBeDefined();
    expect(await backend.currentHash()).toBe(hash);

    expect(await backend.removeShop({ id: shopId, withArticles: true, hash: 'v-removed' })).toEqual({
      status: 'removed',
      articles: own,
    });
    expect(await backend.findShop(shopId)).toBeUndefined();
    expect(await backend.currentHash()).toBe('v-removed');
    expect((await backend.shopVersions()).has(shopId)).toBe(false);
    expect(await backend.countArticles()).toBe(total - own);
    const page = await backend.search(everything);
    expect(page.total).toBe(total - own);
    expect(page.hits.some((h) => h.article.shopId === shopId)).toBe(false);
    expect(page.facets[0]?.buckets.some((b) => b.value === shopId)).toBe(false);
  });

  it('removes a shop without articles and answers not-found for an unknown one', async () => {
    await backend.putShop({ shop: newShop('empty-shop', 'Empty'), mode: 'upsert', hash: 'v-empty' });
    expect(await backend.removeShop({ id: 'empty-shop', withArticles: false, hash: 'v-gone' })).toEqual({
      status: 'removed',
      articles: 0,
    });
    expect(await backend.removeShop({ id: 'empty-shop', withArticles: true, hash: 'v-never' })).toEqual({
      status: 'not-found',
    });
    expect(await backend.currentHash()).toBe('v-gone');
  });

  it('stores a shop change made while an import of another shop is open, after or beside it', async () => {
    const shop = (await backend.findShop('labtools'))!;
    const articles = [...generateCatalog({ articles: 8, seed: TEST_SEED }).articles()].filter(
      (a) => a.shopId === 'labtools',
    );
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* paused() {
      yield articles[0]!;
      await gate;
      yield* articles.slice(1);
    }
    const events: string[] = [];
    const importing = backend
      .replaceShopCatalog({ shop, articles: paused(), hash: 'v-import-open' })
      .then(() => events.push('import'));
    const adding = backend
      .putShop({ shop: newShop('during-import', 'During'), mode: 'create', hash: 'v-during' })
      .then((outcome) => events.push(outcome));
    release();
    await Promise.all([importing, adding]);
    expect(events.sort()).toEqual(['created', 'import']);
    expect((await backend.findShop('during-import'))?.name).toBe('During');
    expect((await backend.search({ ...everything, shopIds: ['labtools'] })).total).toBe(articles.length);
  });

  it('lets a shop added without articles be searched (no hits) and then imported into', async () => {
    await backend.putShop({ shop: newShop('later', 'Later'), mode: 'create', hash: 'v-later' });
    expect((await backend.search({ ...everything, shopIds: ['later'] })).total).toBe(0);
    const shop = (await backend.findShop('later'))!;
    const article = { ...[...generateCatalog({ articles: 1, seed: 3 }).articles()][0]! };
    const moved = { ...article, id: `later:${article.supplierArticleId}`, shopId: 'later' };
    expect(await backend.replaceShopCatalog({ shop, articles: [moved], hash: 'v-import' })).toBe(1);
    expect((await backend.search({ ...everything, shopIds: ['later'] })).hits.map((h) => h.article.id)).toEqual([
      moved.id,
    ]);
  });
});
