import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { BusinessShop } from '../model/article.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { SearchBackend } from '../search/search-backend.js';
import { loadTestCatalog } from '../test-support/content-test-app.js';
import {
  NEW_PRODUCTDATA,
  VALIDITY_CATALOG,
  validityArticle,
  validityCatalog,
  validityPrices,
} from '../test-support/bmecat-validity-fixtures.js';
import { importCatalog } from './import-catalog.js';
import { DryRunStore } from './dry-run-store.js';
import { WaitingArticleRepository } from '../repositories/waiting-article-repository.js';

const shop: BusinessShop = { id: 'validity', name: 'Validity', currency: 'EUR' } as BusinessShop;
const at = new Date('2026-06-01T12:00:00Z');

describeEachDatabase<ContentTables>('importCatalog of records without a price valid now', (getDb) => {
  let backend: SearchBackend;
  const run = (xml: string, options: Partial<Parameters<typeof importCatalog>[2]> = {}) =>
    importCatalog(backend, Readable.from([xml]), {
      format: 'bmecat',
      shop,
      pricesValidAt: at,
      parseThread: 'inline',
      ...options,
    });
  /** The shop's waiting rows: id -> searchable_from. */
  const waiting = async () =>
    Object.fromEntries(
      (
        await getDb()
          .db.selectFrom('content_waiting_articles')
          .select(['article_id', 'searchable_from'])
          .where('shop_id', '=', shop.id)
          .orderBy('article_id')
          .execute()
      ).map((r) => [r.article_id, r.searchable_from]),
    );
  const found = async () =>
    (
      await backend.search({
        words: [],
        shopIds: [shop.id],
        sort: [{ field: 'id', descending: false }],
        limit: 100,
        offset: 0,
        facets: [],
      })
    ).hits.map((h) => h.article.supplierArticleId);

  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), 10);
  });
  beforeEach(async () => {
    const result = await run(VALIDITY_CATALOG);
    expect(result).toMatchObject({ committed: true, imported: 1, notSearchable: 3, failed: [] });
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('keeps records without a current price out of search, reports each, and commits', async () => {
    const result = await run(VALIDITY_CATALOG);
    const kept = result.warnings.filter((w) => w.kind === 'not-searchable');
    expect(kept.map((w) => w.line)).toEqual([8, 9, 10]);
    expect(kept[0]?.message).toMatch(
      /^SUPPLIER_AID V-2001: kept, not searchable until it has a price valid now: .*valid_end_date 2001-12-31$/,
    );
    expect(kept[1]?.message).toMatch(/^SUPPLIER_AID V-2099: kept, not searchable until 2099-01-01: /);
    expect(kept[2]?.message).toContain('has no PRICE_AMOUNT');
    expect(await found()).toEqual(['V-NOW']);
    expect(await backend.findArticle(`${shop.id}:V-2099`)).toBeUndefined();
    expect(await waiting()).toEqual({
      'validity:V-2001': null,
      'validity:V-2099': '2099-01-01T00:00:00.000Z',
      'validity:V-NOAMOUNT': null,
    });
  });

  it("replaces the shop's waiting records with a whole catalog", async () => {
    const result = await run(
      validityCatalog('T_NEW_CATALOG', [validityArticle('V-2001', 'Now priced', validityPrices('5.00'))]),
    );
    expect(result).toMatchObject({ committed: true, imported: 1, notSearchable: 0 });
    expect(await waiting()).toEqual({});
    expect(await found()).toEqual(['V-2001']);
  });

  it('refuses a record that repeats the id of one kept not searchable', async () => {
    const xml = validityCatalog('T_NEW_CATALOG', [
      validityArticle('V-1', 'Kept', validityPrices('1.00', '2099-01-01')),
      validityArticle('V-1', 'Again', validityPrices('1.00')),
      validityArticle('V-2', 'Priced', validityPrices('2.00')),
      validityArticle('V-2', 'Kept again', validityPrices('2.00', '2099-01-01')),
    ]);
    const result = await run(xml, { maxRejects: { count: 2 } });
    expect(result.failed.map((f) => [f.line, f.violations[0]?.message])).toEqual([
      [8, expect.stringMatching(/^repeats V-1/)],
      [10, expect.stringMatching(/^repeats V-2/)],
    ]);
    expect(await found()).toEqual(['V-2']);
    expect(Object.keys(await waiting())).toEqual(['validity:V-1']);
  });

  it('moves articles in and out of search with T_UPDATE_PRODUCTS, and deletes waiting ones', async () => {
    const xml = validityCatalog('T_UPDATE_PRODUCTS', [
      validityArticle('V-2001', 'Priced again', validityPrices('7.00')).replace('<ARTICLE>', '<ARTICLE mode="update">'),
      validityArticle('V-NOW', 'Ended', validityPrices('7.00', undefined, '2020-01-01')).replace(
        '<ARTICLE>',
        '<ARTICLE mode="update">',
      ),
      '<ARTICLE mode="delete"><SUPPLIER_AID>V-NOAMOUNT</SUPPLIER_AID></ARTICLE>',
    ]);
    const result = await run(xml);
    expect(result).toMatchObject({ committed: true, added: 0, updated: 1, deleted: 1, notSearchable: 1, failed: [] });
    expect(await found()).toEqual(['V-2001']);
    expect((await backend.findArticle(`${shop.id}:V-2001`))?.description).toBe('Priced again');
    expect(await waiting()).toEqual({ 'validity:V-2099': '2099-01-01T00:00:00.000Z', 'validity:V-NOW': null });
  });

  it('makes a waiting article searchable with T_UPDATE_PRICES valid now', async () => {
    const prices = (id: string) => `<ARTICLE><SUPPLIER_AID>${id}</SUPPLIER_AID>${validityPrices('9.50')}</ARTICLE>`;
    const result = await run(validityCatalog('T_UPDATE_PRICES', [prices('V-NOAMOUNT'), prices('V-NOW')]));
    expect(result).toMatchObject({ committed: true, imported: 2, failed: [] });
    expect(await found()).toEqual(['V-NOAMOUNT', 'V-NOW']);
    expect((await backend.findArticle(`${shop.id}:V-NOAMOUNT`))?.blockPrices).toEqual([
      { lowerBound: 1, amount: { value: 950, decimalDigits: 2 } },
    ]);
    expect(Object.keys(await waiting())).toEqual(['validity:V-2001', 'validity:V-2099']);
  });

  it('checks a price update of a waiting article as the import does it, changing nothing', async () => {
    const waitingRows = new WaitingArticleRepository(getDb());
    const store = new DryRunStore(
      async (id) => (await backend.findArticle(id)) !== undefined,
      (id) => waitingRows.has(id),
    );
    const xml = validityCatalog('T_UPDATE_PRICES', [
      `<ARTICLE><SUPPLIER_AID>V-NOAMOUNT</SUPPLIER_AID>${validityPrices('9.50')}</ARTICLE>`,
    ]);
    const result = await importCatalog(store, Readable.from([xml]), {
      format: 'bmecat',
      shop,
      pricesValidAt: at,
      parseThread: 'inline',
    });
    expect(result).toMatchObject({ committed: true, imported: 1, updated: 1, failed: [] });
    expect(await found()).toEqual(['V-NOW']);
  });

  it('imports BMEcat 2005 T_NEW_PRODUCTDATA as records kept not searchable', async () => {
    const result = await run(NEW_PRODUCTDATA);
    expect(result).toMatchObject({ committed: true, mode: 'replace', imported: 0, notSearchable: 2, failed: [] });
    expect(result.warnings.filter((w) => w.kind === 'not-searchable').map((w) => w.line)).toEqual([5, 6]);
    expect(await found()).toEqual([]);
    expect(Object.keys(await waiting())).toEqual(['validity:PD-1', 'validity:PD-2']);
  });

  it("counts waiting records as the shop's articles when it is removed, and removes them with it", async () => {
    expect(await backend.removeShop({ id: shop.id, withArticles: false, hash: 'v-no' })).toEqual({
      status: 'has-articles',
      articles: 4,
    });
    expect(await backend.removeShop({ id: shop.id, withArticles: true, hash: 'v-gone' })).toMatchObject({
      status: 'removed',
    });
    expect(await waiting()).toEqual({});
  });
});

it('checks records kept not searchable without a store (DryRunStore)', async () => {
  const result = await importCatalog(new DryRunStore(), Readable.from([VALIDITY_CATALOG]), {
    format: 'bmecat',
    shop,
    pricesValidAt: at,
    parseThread: 'inline',
  });
  expect(result).toMatchObject({ committed: true, imported: 1, notSearchable: 3, failed: [] });
});
