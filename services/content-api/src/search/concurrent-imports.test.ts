import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { Article } from '../model/article.js';
import { contentStorageFor } from '../content-api-core.js';
import { loadTestCatalog, TEST_SEED } from '../test-support/content-test-app.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { SearchBackend } from './search-backend.js';
import { StoreBusyError } from './store-busy-error.js';

const catalog = generateCatalog({ articles: 40, seed: TEST_SEED });
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;
const lab = [...catalog.articles()].filter((a) => a.shopId === 'labtools');
const renamed = (a: Article, id: string): Article => ({ ...a, supplierArticleId: id, id: `labtools:${id}` });

/** An article stream that holds the writer's transaction open until `release` is called. */
function held(articles: readonly Article[]) {
  let release!: () => void;
  let holding!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (holding = resolve));
  async function* stream(): AsyncGenerator<Article> {
    yield articles[0]!;
    holding();
    await gate;
    yield* articles.slice(1);
  }
  return { stream: stream(), started, release };
}

// Two backends on one database: two connections to one SQLite file, or two pooled PostgreSQL connections.
describeEachDatabase<ContentTables>('two imports at once', (getDb) => {
  let first: SearchBackend;
  let second: SearchBackend;
  beforeAll(async () => {
    first = await loadTestCatalog(getDb(), 40);
    second = contentStorageFor(getDb()).backend;
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('makes the second import wait for the first, then commits both in turn', async () => {
    const a = held([renamed(lab[0]!, 'A-1'), renamed(lab[1]!, 'A-2')]);
    const importing = first.replaceShopCatalog({ shop: labtools, articles: a.stream, hash: 'first' });
    await a.started;
    let waited = 0;
    const waiting = second.replaceShopCatalog({
      shop: labtools,
      articles: [renamed(lab[2]!, 'B-1')],
      hash: 'second',
      onWait: () => {
        waited += 1;
        a.release();
      },
    });
    expect(await importing).toBe(2);
    expect(await waiting).toBe(1);
    expect(waited).toBe(1);
    expect(await first.findArticle('labtools:A-1')).toBeUndefined();
    expect((await first.findArticle('labtools:B-1'))?.supplierArticleId).toBe('B-1');
    expect((await second.shopVersions()).get('labtools')).toBe('second');
  });

  it('says another import runs when it waited longer than allowed, changing nothing', async () => {
    const a = held([renamed(lab[0]!, 'C-1'), renamed(lab[1]!, 'C-2')]);
    const importing = first.replaceShopCatalog({ shop: labtools, articles: a.stream, hash: 'third' });
    await a.started;
    const refused = second.replaceShopCatalog({
      shop: labtools,
      articles: [renamed(lab[2]!, 'D-1')],
      hash: 'never',
      maxWaitMs: 0,
    });
    await expect(refused).rejects.toThrow(StoreBusyError);
    await expect(refused).rejects.toThrow(/another import into this content store is still running/);
    a.release();
    expect(await importing).toBe(2);
    expect(await first.findArticle('labtools:D-1')).toBeUndefined();
    expect((await first.shopVersions()).get('labtools')).toBe('third');
  });
});
