import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { describePostgresOnly } from '@triad/db/testing';
import type { AnyTables } from '@triad/db';
import { contentStorageFor } from '../../content-api-core.js';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import type { StringWithLanguage } from '../../model/article.js';
import { loadTestCatalog, TEST_SEED } from '../../test-support/content-test-app.js';
import type { SearchBackend } from '../search-backend.js';
import { FACET_NAMES, type SearchQuery } from '../search-query.js';
import { bucketWords, vocabularyWords } from '../segments/word-postings.js';

const ARTICLES = 600;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });

/** Typed as a buyer types: exact, started, with a typo, two words. */
const QUERIES = [['pipette'], ['pipete'], ['ordn'], ['klebebnad'], ['bosch', 'bla'], ['copy', 'papr'], ['gants']];

const query = (words: readonly string[]): SearchQuery => ({
  words,
  shopIds: [],
  sort: [],
  limit: 20,
  offset: 0,
  facets: FACET_NAMES,
  matching: 'default',
});

/** A description with a word no other article holds. */
const quartz = (d: StringWithLanguage, i: number) => (i === 0 ? { ...d, value: `${d.value} Quarzglaskolben` } : d);

describePostgresOnly<ContentTables>('stored vocabulary of PostgreSQL postings buckets', (getDb) => {
  const opened: SearchBackend[] = [];
  /** A backend of its own (a fresh reader, as another process would be: it reads the vocabulary again). */
  const freshBackend = () => {
    const backend = contentStorageFor(getDb()).backend;
    opened.push(backend);
    return backend;
  };
  const db = () => getDb().db as unknown as Kysely<AnyTables>;
  /** Every bucket's stored words against those its postings hold; the buckets without stored words. */
  async function checkBuckets(): Promise<number> {
    const rows = await sql<{ slot: number; bucket: number; data: Buffer; words: Buffer | null }>`
      select slot, bucket, data, words from content_postings order by slot, bucket`.execute(db());
    expect(rows.rows.length).toBeGreaterThan(0);
    let without = 0;
    for (const row of rows.rows)
      if (row.words)
        expect(new Map(vocabularyWords(row.words)), `slot ${row.slot} bucket ${row.bucket}`).toEqual(
          new Map(bucketWords(row.data)),
        );
      else without += 1;
    return without;
  }
  async function answers(backend: SearchBackend) {
    const pages = [];
    for (const words of QUERIES) {
      const page = await backend.search(query(words));
      pages.push({ words, total: page.total, facets: page.facets, ids: page.hits.map((h) => h.article.id) });
    }
    return pages;
  }
  let expected: Awaited<ReturnType<typeof answers>>;

  beforeAll(async () => {
    opened.push(await loadTestCatalog(getDb(), ARTICLES));
  });
  afterAll(async () => {
    for (const b of opened) await b.close();
  });

  it('writes each bucket its words and counts with its postings, and patches them with a delta', async () => {
    expect(await checkBuckets()).toBe(0);
    expected = await answers(freshBackend());
    expect(expected.some((a) => a.total > 0 && a.words.length === 1 && a.words[0] === 'pipete')).toBe(true);
    const shop = catalog.shops.find((s) => s.id === 'labtools')!;
    const article = [...catalog.articles()].find((a) => a.shopId === shop.id)!;
    await opened[0]!.applyShopDelta({
      shop,
      changes: [{ kind: 'upsert', article: { ...article, descriptions: [...article.descriptions.map(quartz)] } }],
      hash: 'words-v2',
    });
    expect(await checkBuckets()).toBe(0);
    // The same article again: its buckets are written with the words they hold already, which
    // the trigger drops where data is set with unchanged words; the delta sets them again.
    await opened[0]!.applyShopDelta({
      shop,
      changes: [{ kind: 'upsert', article: { ...article, descriptions: [...article.descriptions.map(quartz)] } }],
      hash: 'words-v2-again',
    });
    expect(await checkBuckets()).toBe(0);
    const found = await freshBackend().search(query(['quarzglaskolbn']));
    expect(found.hits.map((h) => h.article.id)).toEqual([article.id]);
    expected = await answers(freshBackend());
  });

  it('reads the postings of buckets without stored words (older releases) and finds the same', async () => {
    // A release that knows only `data` updates it: the trigger drops the then stale words.
    await sql`update content_postings set data = data where bucket % 2 = 0`.execute(db());
    const dropped = await checkBuckets();
    expect(dropped).toBeGreaterThan(0);
    expect(await answers(freshBackend())).toEqual(expected);
    await sql`update content_postings set words = null`.execute(db());
    expect(await answers(freshBackend())).toEqual(expected);
  });

  it('migration 0015 gives the buckets of a stored catalog their words', async () => {
    const migration = contentStorageFor(getDb()).migrations['0015_postgres_bucket_words']!;
    await migration.down!(getDb().db);
    await migration.up(getDb().db);
    expect(await checkBuckets()).toBe(0);
    expect(await answers(freshBackend())).toEqual(expected);
  });
});
