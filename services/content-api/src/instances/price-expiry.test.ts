import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { importCatalog } from '../commands/import-catalog.js';
import type { BusinessShop } from '../model/article.js';
import type { ContentTables } from '../migrations/content-tables.js';
import { PriceScheduleRepository } from '../repositories/price-schedule-repository.js';
import { WaitingArticleRepository } from '../repositories/waiting-article-repository.js';
import type { SearchBackend } from '../search/search-backend.js';
import { loadTestCatalog } from '../test-support/content-test-app.js';
import { validityArticle, validityCatalog, validityPrices } from '../test-support/bmecat-validity-fixtures.js';
import { PriceValidityTimer, type TimerClock } from './price-validity-timer.js';

const shop: BusinessShop = { id: 'expiring', name: 'Expiring', currency: 'EUR' } as BusinessShop;

/** A clock that moves only when told; the timer's wakes are run by hand. */
class FakeClock implements TimerClock {
  time: number;
  readonly waits: number[] = [];

  constructor(iso: string) {
    this.time = Date.parse(iso);
  }

  now(): Date {
    return new Date(this.time);
  }

  setTimeout(_callback: () => void, ms: number): unknown {
    this.waits.push(ms);
    return ms;
  }

  clearTimeout(): void {}
}

/** `ARTICLE_PRICE_DETAILS` with one price of `type`, valid between the dates given. */
function typedPrices(type: string, amount: string, from?: string, until?: string): string {
  return validityPrices(amount, from, until).replace('price_type="net_list"', `price_type="${type}"`);
}

describeEachDatabase<ContentTables>('prices that end or start while an article is searchable', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), 10);
  });
  afterAll(async () => {
    await backend?.close();
  });
  const found = async () => {
    const page = await backend.search({
      words: [],
      shopIds: [shop.id],
      sort: [{ field: 'id', descending: false }],
      limit: 100,
      offset: 0,
      facets: ['businessShopId'],
    });
    return {
      ids: page.hits.map((h) => h.article.supplierArticleId),
      counted: page.facets[0]?.buckets.find((b) => b.value === shop.id)?.count ?? 0,
    };
  };
  const amountOf = async (id: string) => (await backend.findArticle(`${shop.id}:${id}`))?.blockPrices[0]?.amount;

  it('takes an article out of search, or onto its next ladder, when its price ends or a better starts', async () => {
    const clock = new FakeClock('2030-01-01T12:00:00Z');
    const xml = validityCatalog('T_NEW_CATALOG', [
      validityArticle('E-END', 'Ends', validityPrices('1.00', undefined, '2030-01-01')),
      validityArticle(
        'E-NEXT',
        'Next ladder',
        validityPrices('2.00', undefined, '2030-01-01') + validityPrices('2.50', '2030-01-02'),
      ),
      validityArticle(
        'E-PREF',
        'Preferred later',
        validityPrices('3.00') + typedPrices('net_customer', '2.90', '2030-01-02T06:00:00Z'),
      ),
      validityArticle('E-PLAIN', 'No dates', validityPrices('4.00')),
    ]);
    const imported = await importCatalog(backend, Readable.from([xml]), {
      format: 'bmecat',
      shop,
      pricesValidAt: clock.now(),
      parseThread: 'inline',
    });
    expect(imported).toMatchObject({ committed: true, imported: 4, notSearchable: 0 });
    // Written in the import's transaction: one row per article with a date ahead, none for E-PLAIN.
    const schedule = new PriceScheduleRepository(getDb());
    expect(await schedule.next()).toBe('2030-01-02T00:00:00.000Z');
    expect((await schedule.due(new Date('2099-01-01T00:00:00Z'), 10)).map((r) => r.id).sort()).toEqual([
      `${shop.id}:E-END`,
      `${shop.id}:E-NEXT`,
      `${shop.id}:E-PREF`,
    ]);
    const timer = new PriceValidityTimer(
      { backend, waiting: new WaitingArticleRepository(getDb()), schedule },
      { clock },
    );
    await timer.start();
    // It sleeps until the end of 2030-01-01 (an hour at most).
    expect(clock.waits).toEqual([3_600_000]);
    expect(await found()).toEqual({ ids: ['E-END', 'E-NEXT', 'E-PLAIN', 'E-PREF'], counted: 4 });

    clock.time = Date.parse('2030-01-02T00:00:00Z');
    await timer.wake();
    expect(await backend.findArticle(`${shop.id}:E-END`)).toBeUndefined();
    expect(await found()).toEqual({ ids: ['E-NEXT', 'E-PLAIN', 'E-PREF'], counted: 3 });
    expect(await amountOf('E-NEXT')).toEqual({ value: 250, decimalDigits: 2 });
    expect(await amountOf('E-PREF')).toEqual({ value: 300, decimalDigits: 2 });
    const kept = await getDb()
      .db.selectFrom('content_waiting_articles')
      .select(['article_id', 'searchable_from', 'reason'])
      .where('shop_id', '=', shop.id)
      .execute();
    expect(kept).toEqual([
      {
        article_id: `${shop.id}:E-END`,
        searchable_from: null,
        reason: expect.stringContaining('valid_end_date 2030-01-01') as string,
      },
    ]);
    expect(await schedule.next()).toBe('2030-01-02T06:00:00.000Z');

    clock.time = Date.parse('2030-01-02T06:00:00Z');
    await timer.wake();
    expect(await amountOf('E-PREF')).toEqual({ value: 290, decimalDigits: 2 });
    expect((await backend.findArticle(`${shop.id}:E-PREF`))?.priceConditions?.priceType).toBe('net_customer');
    // Nothing ahead any more: no rows left.
    expect(await schedule.next()).toBeUndefined();
    await timer.stop();
  });

  it('keeps a T_UPDATE_PRICES whose prices start later, applies it at its date, and drops stale dates', async () => {
    const clock = new FakeClock('2031-03-01T12:00:00Z');
    const run = (xml: string) =>
      importCatalog(backend, Readable.from([xml]), {
        format: 'bmecat',
        shop,
        pricesValidAt: clock.now(),
        parseThread: 'inline',
      });
    await run(
      validityCatalog('T_NEW_CATALOG', [
        validityArticle('U-1', 'Priced', validityPrices('1.00')),
        validityArticle('U-2', 'Ends', validityPrices('2.00', undefined, '2031-03-02')),
        validityArticle('U-3', 'Waits', validityPrices('3.00', '2031-04-01')),
      ]),
    );
    const schedule = new PriceScheduleRepository(getDb());
    const rows = async () => (await schedule.due(new Date('2099-01-01T00:00:00Z'), 10)).map((r) => [r.id, r.dueAt]);
    expect(await rows()).toEqual([[`${shop.id}:U-2`, '2031-03-03T00:00:00.000Z']]);

    const prices = (id: string, amount: string, from: string) =>
      `<ARTICLE><SUPPLIER_AID>${id}</SUPPLIER_AID>${validityPrices(amount, from)}</ARTICLE>`;
    const updated = await run(
      validityCatalog('T_UPDATE_PRICES', [prices('U-1', '1.50', '2031-03-05'), prices('U-3', '3.30', '2031-03-10')]),
    );
    expect(updated).toMatchObject({ committed: true, failed: [] });
    // U-1 keeps its price until its new one starts; U-3 waits for its new date.
    expect(await amountOf('U-1')).toEqual({ value: 100, decimalDigits: 2 });
    expect(
      await getDb()
        .db.selectFrom('content_waiting_articles')
        .select('searchable_from')
        .where('article_id', '=', `${shop.id}:U-3`)
        .executeTakeFirst(),
    ).toEqual({ searchable_from: '2031-03-10T00:00:00.000Z' });
    // A T_UPDATE_PRODUCTS without dates drops U-2's.
    await run(
      validityCatalog('T_UPDATE_PRODUCTS', [
        validityArticle('U-2', 'No end now', validityPrices('2.20')).replace('<ARTICLE>', '<ARTICLE mode="update">'),
      ]),
    );
    expect(await rows()).toEqual([[`${shop.id}:U-1`, '2031-03-05T00:00:00.000Z']]);

    const timer = new PriceValidityTimer(
      { backend, waiting: new WaitingArticleRepository(getDb()), schedule },
      { clock },
    );
    clock.time = Date.parse('2031-03-05T00:00:00Z');
    await timer.start();
    expect(await amountOf('U-1')).toEqual({ value: 150, decimalDigits: 2 });
    expect(await amountOf('U-2')).toEqual({ value: 220, decimalDigits: 2 });
    expect(await rows()).toEqual([]);
    clock.time = Date.parse('2031-03-10T00:00:00Z');
    await timer.wake();
    expect(await amountOf('U-3')).toEqual({ value: 330, decimalDigits: 2 });
    await timer.stop();

    // Removing the shop removes its price dates.
    await run(
      validityCatalog('T_NEW_CATALOG', [
        validityArticle('U-4', 'Ends', validityPrices('4.00', undefined, '2031-12-31')),
      ]),
    );
    expect(await rows()).toHaveLength(1);
    await backend.removeShop({ id: shop.id, withArticles: true, hash: 'removed' });
    expect(await rows()).toEqual([]);
  });

  it('lets an import in between win, and keeps the dates of a replacement that fails', async () => {
    const clock = new FakeClock('2032-01-01T12:00:00Z');
    const run = (items: readonly string[]) =>
      importCatalog(backend, Readable.from([validityCatalog('T_NEW_CATALOG', items)]), {
        format: 'bmecat',
        shop,
        pricesValidAt: clock.now(),
        parseThread: 'inline',
      });
    await run([validityArticle('W-1', 'Ends', validityPrices('1.00', undefined, '2032-01-01'))]);
    const schedule = new PriceScheduleRepository(getDb());
    // The timer read the row, then an import without dates replaced the article.
    const stale = await schedule.due(new Date('2032-01-02T00:00:00Z'), 10);
    expect(stale).toHaveLength(1);
    await run([validityArticle('W-1', 'No end', validityPrices('1.10'))]);
    const timer = new PriceValidityTimer(
      {
        backend,
        waiting: new WaitingArticleRepository(getDb()),
        schedule: { next: () => Promise.resolve(undefined), due: () => Promise.resolve(stale) },
      },
      { clock },
    );
    clock.time = Date.parse('2032-01-02T00:00:00Z');
    await timer.start();
    await timer.stop();
    expect(await amountOf('W-1')).toEqual({ value: 110, decimalDigits: 2 });

    // The dates are written in the import's transaction: a replacement that fails leaves them.
    clock.time = Date.parse('2032-01-01T12:00:00Z');
    await run([validityArticle('W-2', 'Ends', validityPrices('2.00', undefined, '2032-06-30'))]);
    await expect(
      backend.replaceShopCatalog({
        shop,
        hash: 'failed',
        articles: (function* () {
          yield* [];
          throw new Error('the file broke off');
        })(),
      }),
    ).rejects.toThrow('the file broke off');
    expect((await schedule.due(new Date('2099-01-01T00:00:00Z'), 10)).map((r) => [r.id, r.dueAt])).toEqual([
      [`${shop.id}:W-2`, '2032-07-01T00:00:00.000Z'],
    ]);
    expect(await amountOf('W-2')).toEqual({ value: 200, decimalDigits: 2 });
  });
});
