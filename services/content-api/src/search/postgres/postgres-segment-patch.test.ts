import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describePostgresOnly } from '@triad/db/testing';
import type { AnyTables } from '@triad/db';
import type { Kysely } from 'kysely';
import { generateCatalog } from '../../demo/generate-catalog.js';
import type { Article } from '../../model/article.js';
import { loadTestCatalog, TEST_SEED } from '../../test-support/content-test-app.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import type { CatalogChange, SearchBackend } from '../search-backend.js';
import { COLUMN_NAMES, joinChunks, type ColumnName } from '../segments/segment-columns.js';
import { decodeBucket } from '../segments/word-postings.js';
import { rebuildPostgresSegment } from './postgres-segment-writer.js';
import { seededRandom } from '../../test-support/seeded-random.js';

const ARTICLES = 1200;
const catalog = generateCatalog({ articles: ARTICLES, seed: TEST_SEED });
const lab = [...catalog.articles()].filter((a) => a.shopId === 'labtools');
const labtools = catalog.shops.find((s) => s.id === 'labtools')!;

/** Everything a reader loads of a segment, postings decoded (bucket layout aside). */
async function segmentState(db: Kysely<AnyTables>, shopId: string) {
  const header = (
    await sql<{ slot: number; size: number; words: string }>`
      select slot, article_count as size, word_total::text as words from content_segments
      where shop_id = ${shopId}`.execute(db)
  ).rows[0]!;
  const chunks = await sql<{ name: ColumnName; data: Buffer }>`
    select name, data from content_segment_columns where slot = ${header.slot} order by name, chunk`.execute(db);
  const columns: Record<string, number[]> = {};
  for (const name of COLUMN_NAMES)
    columns[name] = [
      ...joinChunks(
        name,
        header.size,
        chunks.rows.filter((c) => c.name === name).map((c) => c.data),
      ),
    ];
  const buckets = await sql<{ data: Buffer }>`
    select data from content_postings where slot = ${header.slot}`.execute(db);
  const postings: Record<string, number[]> = {};
  for (const bucket of buckets.rows) for (const [word, list] of decodeBucket(bucket.data)) postings[word] = list;
  const dictionary = await sql<{ key: number; value: string }>`
    select value_key as key, facet_name || '=' || value as value from content_facet_values`.execute(db);
  const valueOf = new Map(dictionary.rows.map((r) => [r.key, r.value]));
  // Facet keys are numbered in the order values were first met: compare the values they stand for.
  for (const name of ['manufacturer', 'unspsc7', 'unspsc9'])
    columns[name] = columns[name]!.map((key) => (key === 0 ? 0 : (valueOf.get(key) as unknown as number)));
  return { size: header.size, words: header.words, columns, postings };
}

class Rollback extends Error {}

describePostgresOnly<ContentTables>('patched PostgreSQL segments', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), ARTICLES);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('equal segments built again from the rows after random deltas: add, replace, reprice, move, delete', async () => {
    const db = getDb().db as unknown as Kysely<AnyTables>;
    let current: Article[] = [...lab];
    let serial = 0;
    for (let seed = 1; seed <= 12; seed += 1) {
      const next = seededRandom(seed * 7919);
      const changes: CatalogChange[] = [];
      const words = ['quartz', 'beaker', 'flask', 'tongs', 'crucible', 'pipette', 'burette'];
      const text = () => `${words[next(words.length)]!} ${words[next(words.length)]!} ${next(1000)}`;
      const live = new Map(current.map((a) => [a.id, a]));
      for (let step = 1 + next(30); step > 0; step -= 1) {
        const ids = [...live.keys()];
        const pick = live.get(ids[next(ids.length)]!)!;
        const what = next(5);
        if (what === 0) {
          serial += 1;
          // New ids before every other id, right after an existing one, and after all of them.
          const kind = next(3);
          const supplierArticleId =
            kind === 0 ? `!${serial}` : kind === 1 ? `${pick.supplierArticleId}-${serial}` : `\u{1F600}P-${serial}`;
          const article: Article = {
            ...pick,
            id: `labtools:${supplierArticleId}`,
            supplierArticleId,
            description: text(),
            descriptions: [{ lang: 'en', value: text() }],
          };
          changes.push({ kind: 'upsert', article });
          live.set(article.id, article);
        } else if (what === 1) {
          const article: Article = {
            ...pick,
            description: next(3) === 0 ? lab[next(lab.length)]!.description : text(),
            descriptions: [{ lang: 'en', value: text() }],
            manufacturerName: next(2) === 0 ? `Maker ${next(3)}` : pick.manufacturerName,
          };
          changes.push({ kind: 'upsert', article });
          live.set(article.id, article);
        } else if (what === 2) {
          changes.push({
            kind: 'prices',
            articleId: pick.id,
            prices: { blockPrices: [{ lowerBound: 1, amount: { value: 100 + next(100_000), decimalDigits: 2 } }] },
          });
        } else if (live.size > 20) {
          changes.push({ kind: 'delete', articleId: pick.id });
          live.delete(pick.id);
        }
      }
      const how: string[] = [];
      await backend.applyShopDelta({
        shop: labtools,
        changes,
        hash: `patch-${seed}`,
        onSegment: (segment) => how.push(segment),
        // Every other delta writes each bucket in a statement of its own, overlapped with the patching.
        ...(seed % 2 === 0 ? { bucketBatch: 1 } : {}),
      });
      current = [...live.values()];
      expect(how, `seed ${seed}`).toEqual([changes.every((c) => c.kind === 'prices') ? 'prices' : 'patched']);
      const patched = await segmentState(db, 'labtools');
      expect(patched.size).toBe(current.length);
      let rebuilt: Awaited<ReturnType<typeof segmentState>> | undefined;
      await db
        .transaction()
        .execute(async (trx) => {
          const slot = (
            await sql<{ slot: number }>`
            select slot from content_segments where shop_id = 'labtools'`.execute(trx)
          ).rows[0]!.slot;
          await rebuildPostgresSegment(trx, 'labtools', slot);
          rebuilt = await segmentState(trx, 'labtools');
          throw new Rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof Rollback)) throw error;
        });
      expect(patched, `seed ${seed}`).toEqual(rebuilt);
    }
    // The searches agree with the catalog as the deltas left it.
    const page = await backend.search({
      words: [],
      shopIds: ['labtools'],
      sort: [],
      limit: 1000,
      offset: 0,
      facets: [],
    });
    expect(page.hits.map((h) => h.article.id)).toEqual(current.map((a) => a.id).sort());
  });
});
