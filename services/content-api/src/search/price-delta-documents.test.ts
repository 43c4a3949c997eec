import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { AnyTables } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import type { Article, ArticlePriceChange } from '../model/article.js';
import { encodeArticleDocument, parseStoredArticle } from '../model/article-document.js';
import { loadTestCatalog } from '../test-support/content-test-app.js';
import { DELTA_TEST_ARTICLES, deltaQuery, labtools, labtoolsArticles } from '../test-support/delta-test-catalog.js';
import type { ContentTables } from '../migrations/content-tables.js';
import { articlePriceFields } from './article-index-fields.js';
import { compareCodePoints } from './code-point-order.js';
import type { CatalogChange, SearchBackend } from './search-backend.js';
import { FACET_NAMES, type SearchQuery } from './search-query.js';
import { addPostgresArticlePrices } from './postgres/postgres-article-prices-migration.js';

const ARTICLES = DELTA_TEST_ARTICLES;
const lab = labtoolsArticles;
const query = (overrides: Partial<SearchQuery>): SearchQuery => deltaQuery({ facets: [...FACET_NAMES], ...overrides });
const block = (value: number, decimalDigits = 2): ArticlePriceChange['blockPrices'] => [
  { lowerBound: 1, amount: { value, decimalDigits } },
];

/** An article as stored and read back. */
function stored(article: Article): Article {
  return parseStoredArticle(encodeArticleDocument(article), article.id);
}

/** An article as a price change leaves it: its prices replaced. */
function repriced(article: Article, prices: ArticlePriceChange): Article {
  return stored({ ...article, ...prices });
}

describeEachDatabase<ContentTables>('documents after price deltas', (getDb) => {
  let backend: SearchBackend;
  /** Every labtools article as the deltas so far leave it, by id. */
  const expected = new Map(lab.map((a) => [a.id, stored(a)]));
  const delta = async (changes: CatalogChange[], hash: string) => {
    for (const change of changes)
      if (change.kind === 'prices')
        expected.set(change.articleId, repriced(expected.get(change.articleId)!, change.prices));
      else if (change.kind === 'upsert') expected.set(change.article.id, stored(change.article as Article));
      else if (change.kind === 'delete') expected.delete(change.articleId);
    await backend.applyShopDelta({ shop: labtools, changes, hash });
  };
  /** Every article read alone and through searches (sorted by price both ways, all facets) is the expected one. */
  const expectArticles = async () => {
    for (const [id, article] of expected) expect(await backend.findArticle(id)).toEqual(article);
    for (const descending of [false, true]) {
      const page = await backend.search(
        query({
          shopIds: ['labtools'],
          sort: [
            { field: 'price', descending },
            { field: 'id', descending: false },
          ],
        }),
      );
      expect(page.total).toBe(expected.size);
      expect(page.hits.map((h) => h.article)).toEqual(page.hits.map((h) => expected.get(h.article.id)));
      // In the order of the indexed prices the expected articles give.
      const price = (a: Article) => articlePriceFields(a).priceScaled;
      const order = [...expected.values()]
        .sort((a, b) => (descending ? price(b) - price(a) : price(a) - price(b)) || compareCodePoints(a.id, b.id))
        .map((a) => a.id);
      expect(page.hits.map((h) => h.article.id)).toEqual(order);
    }
  };
  const pricesBeside = async () =>
    getDb().dialect === 'postgres'
      ? Number(
          (await sql<{ n: string }>`select count(*) as n from content_article_prices`.execute(getDb().db)).rows[0]!.n,
        )
      : undefined;

  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), ARTICLES);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('reads every article as its price changes left it, through product deltas that replace and move it', async () => {
    expect(lab.length).toBeGreaterThan(8);
    const last = lab[lab.length - 1]!;
    const taxes = { specialTaxes: [{ amount: { value: 150, decimalDigits: 2 }, taxType: 'WEEE' }] };
    const conditions = { priceConditions: { validFrom: '2026-01-01', territories: ['DE', 'AT'] } };
    await delta(
      [
        { kind: 'prices', articleId: lab[0]!.id, prices: { blockPrices: block(123456) } },
        { kind: 'prices', articleId: lab[1]!.id, prices: { blockPrices: block(7, 0), currency: 'EUR' } },
        { kind: 'prices', articleId: lab[2]!.id, prices: { blockPrices: block(999, 3), ...taxes } },
        { kind: 'prices', articleId: lab[3]!.id, prices: { blockPrices: block(4200), ...conditions } },
        {
          kind: 'prices',
          articleId: lab[4]!.id,
          prices: { blockPrices: block(31), tax: { value: 7, decimalDigits: 2 } },
        },
        { kind: 'prices', articleId: last.id, prices: { blockPrices: block(1) } },
      ],
      'prices-1',
    );
    await expectArticles();
    // Price changes that the document's price members hold are written beside it (PostgreSQL).
    const beside = await pricesBeside();
    if (beside !== undefined) expect(beside).toBeGreaterThanOrEqual(5);

    // Again on top of the first: prices beside the document changed again, conditions removed.
    await delta(
      [
        { kind: 'prices', articleId: lab[0]!.id, prices: { blockPrices: block(5) } },
        { kind: 'prices', articleId: lab[3]!.id, prices: { blockPrices: block(77), priceConditions: undefined } },
        { kind: 'prices', articleId: lab[2]!.id, prices: { blockPrices: block(12) } },
      ],
      'prices-2',
    );
    await expectArticles();

    // A product delta: a repriced article replaced, another deleted (the last one, repriced, moves into
    // its place), then a price change of the replaced one and of the moved one in the same delta.
    const replaced: Article = {
      ...lab[0]!,
      description: 'osmium tongs',
      descriptions: [{ lang: 'en', value: 'osmium tongs' }],
    };
    await delta(
      [
        { kind: 'upsert', article: replaced },
        { kind: 'delete', articleId: lab[1]!.id },
        { kind: 'prices', articleId: replaced.id, prices: { blockPrices: block(88) } },
        { kind: 'delete', articleId: lab[4]!.id },
      ],
      'products-1',
    );
    await expectArticles();
    await delta([{ kind: 'prices', articleId: last.id, prices: { blockPrices: block(66), ...taxes } }], 'prices-3');
    await expectArticles();
    // Prices kept beside an article went with it: none is left for a deleted one.
    if (getDb().dialect === 'postgres') {
      const orphans = await sql<{ n: string }>`select count(*) as n from content_article_prices p
        where not exists (select 1 from content_articles a where a.seq = p.seq)`.execute(getDb().db);
      expect(orphans.rows[0]!.n).toBe('0');
      expect(await pricesBeside()).toBeGreaterThan(0);
    }

    // A failing price delta changes nothing.
    const failing = backend.applyShopDelta({
      shop: labtools,
      changes: [{ kind: 'prices', articleId: last.id, prices: { blockPrices: block(3) } }],
      hash: 'never',
      beforeCommit: () => {
        throw new Error('refused');
      },
    });
    await expect(failing).rejects.toThrow('refused');
    await expectArticles();
  });

  it('puts the prices kept beside the documents back into them when migration 0019 is undone', async () => {
    if (getDb().dialect !== 'postgres') return;
    const db = getDb().db as unknown as Kysely<AnyTables>;
    await addPostgresArticlePrices.down!(db);
    for (const [id, article] of expected) {
      const row = await sql<{
        document: string;
      }>`select document from content_articles where article_id = ${id}`.execute(db);
      expect(parseStoredArticle(row.rows[0]!.document, id)).toEqual(article);
    }
    await addPostgresArticlePrices.up(db);
    await expectArticles();
  });
});
