import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { importCatalog } from '../commands/import-catalog.js';
import type { BusinessShop } from '../model/article.js';
import type { ContentTables } from '../migrations/content-tables.js';
import { WaitingArticleRepository } from '../repositories/waiting-article-repository.js';
import type { SearchBackend } from '../search/search-backend.js';
import { loadTestCatalog } from '../test-support/content-test-app.js';
import { validityArticle, validityCatalog, validityPrices } from '../test-support/bmecat-validity-fixtures.js';
import { MAX_WAKE_MS, MIN_WAKE_MS, PriceValidityTimer, type TimerClock } from './price-validity-timer.js';

const shop: BusinessShop = { id: 'timed', name: 'Timed', currency: 'EUR' } as BusinessShop;

/** A clock that moves only when told, and runs the timer it was given by hand. */
class FakeClock implements TimerClock {
  time: number;
  pending: { callback: () => void; at: number } | undefined;
  readonly waits: number[] = [];

  constructor(iso: string) {
    this.time = Date.parse(iso);
  }

  now(): Date {
    return new Date(this.time);
  }

  setTimeout(callback: () => void, ms: number): unknown {
    this.waits.push(ms);
    this.pending = { callback, at: this.time + ms };
    return this.pending;
  }

  clearTimeout(handle: unknown): void {
    if (handle === this.pending) this.pending = undefined;
  }
}

describeEachDatabase<ContentTables>('the price validity timer', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), 10);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('makes an article searchable when its price starts, without a new import, and sleeps bounded', async () => {
    const clock = new FakeClock('2030-01-01T09:30:00Z');
    const xml = validityCatalog('T_NEW_CATALOG', [
      validityArticle('T-NOW', 'Priced now', validityPrices('1.00')),
      validityArticle('T-10', 'Price from ten', validityPrices('2.00', '2030-01-01T10:00:00Z')),
      validityArticle('T-2099', 'Price far off', validityPrices('3.00', '2099-01-01')),
    ]).replace(/<DATE>2030-01-01T10:00:00Z<\/DATE>/, '<DATE>2030-01-01</DATE><TIME>10:00:00</TIME>');
    const imported = await importCatalog(backend, Readable.from([xml]), {
      format: 'bmecat',
      shop,
      pricesValidAt: clock.now(),
      parseThread: 'inline',
    });
    expect(imported).toMatchObject({ committed: true, imported: 1, notSearchable: 2 });
    const version = (await backend.shopVersions()).get(shop.id);
    const timer = new PriceValidityTimer({ backend, waiting: new WaitingArticleRepository(getDb()) }, { clock });
    await timer.start();
    // Nothing due yet: it sleeps until 10:00, 30 minutes.
    expect(clock.waits).toEqual([30 * 60_000]);
    expect(await backend.findArticle(`${shop.id}:T-10`)).toBeUndefined();

    clock.time = clock.pending!.at;
    clock.pending!.callback();
    await timer.wake();
    const article = await backend.findArticle(`${shop.id}:T-10`);
    expect(article?.blockPrices).toEqual([{ lowerBound: 1, amount: { value: 200, decimalDigits: 2 } }]);
    expect((await backend.shopVersions()).get(shop.id)).not.toBe(version);
    // Only 2099 is left: at least once an hour.
    expect(clock.waits.at(-1)).toBe(MAX_WAKE_MS);
    expect(await new WaitingArticleRepository(getDb()).next()).toBe('2099-01-01T00:00:00.000Z');
    await timer.stop();
    expect(clock.pending).toBeUndefined();
  });

  it('wakes at most once a minute, and leaves an article an import took out of waiting', async () => {
    const clock = new FakeClock('2031-05-05T09:59:30Z');
    const xml = validityCatalog('T_NEW_CATALOG', [
      validityArticle('M-1', 'Soon', validityPrices('2.00', '2031-05-06')),
    ]);
    await importCatalog(backend, Readable.from([xml]), {
      format: 'bmecat',
      shop,
      pricesValidAt: clock.now(),
      parseThread: 'inline',
    });
    const waiting = new WaitingArticleRepository(getDb());
    // The rows were read, then an import replaced the catalog before the delta ran.
    const stale = await waiting.due(new Date('2031-05-06T00:00:00Z'), 10);
    await importCatalog(backend, Readable.from([validityCatalog('T_NEW_CATALOG', [])]), {
      format: 'bmecat',
      shop,
      pricesValidAt: clock.now(),
      parseThread: 'inline',
      maxRejects: { count: 0 },
    });
    const timer = new PriceValidityTimer(
      {
        backend,
        waiting: { next: () => Promise.resolve('2031-05-05T09:59:40.000Z'), due: () => Promise.resolve(stale) },
      },
      { clock },
    );
    await timer.start();
    expect(clock.waits).toEqual([MIN_WAKE_MS]);
    expect(await backend.findArticle(`${shop.id}:M-1`)).toBeUndefined();
    await timer.stop();
  });
});
