import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest } from '@triad/db';
import { describeEachDatabase } from '@triad/db/testing';
import { generateCatalog } from '../demo/generate-catalog.js';
import { contentStorageFor } from '../content-api-core.js';
import { CONTENT_MIGRATION_TABLE } from '../migrations/index.js';
import type { Article, ArticleClassification } from '../model/article.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { SearchBackend } from './search-backend.js';
import { FACET_NAMES, type FacetCount, type SearchQuery } from './search-query.js';

const ARTICLES = 120;

const etim = (groupId: string, groupName?: string): ArticleClassification => ({
  systemName: 'ETIM-8.0',
  groupId,
  ...(groupName ? { groupName } : {}),
  features: [],
});

/**
 * The demo catalog (UNSPSC-7, UNSPSC-9 and a named ECLASS group each) made varied: every 4th
 * article classified in `UNSPSC` without a version only, every 5th also in ETIM (named or not),
 * every 6th in a second ECLASS group after the first, every 7th without any classification.
 */
function varied(article: Article, n: number): Article {
  if (n % 7 === 0) return { ...article, classifications: [] };
  let classifications = [...article.classifications];
  if (n % 4 === 0) classifications = [{ systemName: 'UNSPSC', groupId: '44121704', groupName: 'Pens', features: [] }];
  if (n % 5 === 0) classifications.push(n % 10 === 0 ? etim('EC000897', 'Terminal block') : etim('EC001744'));
  if (n % 6 === 0) classifications.push({ systemName: 'ECLASS-5.1', groupId: '99999999', features: [] });
  return { ...article, classifications };
}

const catalog = generateCatalog({ articles: ARTICLES, seed: 21 });
const all = [...catalog.articles()].map(varied);

/** The reference rule: the first classification of the system, of any version. */
function groupOf(article: Article, system: 'UNSPSC' | 'ECLASS' | 'ETIM' | 'UNSPSC-7'): string {
  const first = article.classifications.find(
    (c) => c.systemName === system || c.systemName.startsWith(`${system}${system === 'UNSPSC-7' ? '.' : '-'}`),
  );
  return first?.groupId ?? '';
}

function expectedCounts(system: 'UNSPSC' | 'ECLASS' | 'ETIM' | 'UNSPSC-7'): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of all) counts[groupOf(a, system)] = (counts[groupOf(a, system)] ?? 0) + 1;
  return counts;
}

const countsOf = (page: { facets: readonly FacetCount[] }, facetName: string) =>
  Object.fromEntries(page.facets.find((f) => f.facetName === facetName)!.buckets.map((b) => [b.value, b.count]));

function query(overrides: Partial<SearchQuery> = {}): SearchQuery {
  return { words: [], shopIds: [], sort: [], limit: 0, offset: 0, facets: FACET_NAMES, ...overrides };
}

describeEachDatabase<ContentTables>('classification facets', (getDb) => {
  const opened: SearchBackend[] = [];
  /** A backend of its own (a fresh reader, as another process would be). */
  const freshBackend = () => {
    const backend = contentStorageFor(getDb()).backend;
    opened.push(backend);
    return backend;
  };
  let backend: SearchBackend;
  beforeAll(async () => {
    const storage = contentStorageFor(getDb());
    await migrateToLatest(getDb(), { migrations: storage.migrations, tableName: CONTENT_MIGRATION_TABLE });
    backend = storage.backend;
    opened.push(backend);
    await backend.replaceCatalog({ shops: catalog.shops, articles: all, hash: 'classes-v1' });
  });
  afterAll(async () => {
    for (const b of opened) await b.close();
  });

  it('counts the first UNSPSC, ECLASS and ETIM group of any version, named by the catalog', async () => {
    const page = await backend.search(query());
    expect(countsOf(page, 'ECLASS')).toEqual(expectedCounts('ECLASS'));
    expect(countsOf(page, 'ETIM')).toEqual(expectedCounts('ETIM'));
    expect(countsOf(page, 'UNSPSC')).toEqual(expectedCounts('UNSPSC'));
    // `UNSPSC` without a version is counted by the `UNSPSC` facet, not guessed into a version.
    expect(countsOf(page, 'UNSPSC-7')).toEqual(expectedCounts('UNSPSC-7'));
    expect(countsOf(page, 'UNSPSC-7')['']).toBe(all.filter((a, n) => n % 7 === 0 || n % 4 === 0).length);
    const buckets = (facetName: string) => page.facets.find((f) => f.facetName === facetName)!.buckets;
    expect(buckets('ECLASS').find((b) => b.value === '24250201')?.label).toBe('Ballpoint pen');
    expect(buckets('ETIM').find((b) => b.value === 'EC000897')?.label).toBe('Terminal block');
    expect(buckets('ETIM').find((b) => b.value === 'EC001744')).not.toHaveProperty('label');
    expect(buckets('UNSPSC').find((b) => b.value === '44121704')?.label).toBe('Pens');
    expect(buckets('ECLASS').find((b) => b.value === '')).not.toHaveProperty('label');
    expect(buckets('manufacturerName').every((b) => b.label === undefined)).toBe(true);
  });

  it('filters by an ECLASS, ETIM or UNSPSC group, and by "" to the articles without one', async () => {
    for (const [filterName, group] of [
      ['ECLASS', '24250201'],
      ['ECLASS', ''],
      ['ETIM', 'EC000897'],
      ['UNSPSC', '44121704'],
    ] as const) {
      const page = await backend.search(
        query({ limit: 1000, filter: { type: 'ExactReferenceFeatureMatchFilter', filterName, group } }),
      );
      const expected = all.filter((a) => groupOf(a, filterName) === group).map((a) => a.id);
      expect(page.hits.map((h) => h.article.id).sort(), `${filterName} ${group}`).toEqual(expected.sort());
      expect(expected.length).toBeGreaterThan(0);
    }
  });

  it('counts only the facets asked for, and the new ones with words too', async () => {
    const page = await backend.search(query({ words: ['blue'], facets: ['ECLASS'] }));
    expect(page.facets.map((f) => f.facetName)).toEqual(['ECLASS']);
    const blue = all.filter((a) => a.descriptions.some((d) => /\bblue\b/i.test(d.value)));
    expect(page.total).toBe(blue.length);
    const expected: Record<string, number> = {};
    for (const a of blue) expected[groupOf(a, 'ECLASS')] = (expected[groupOf(a, 'ECLASS')] ?? 0) + 1;
    expect(countsOf(page, 'ECLASS')).toEqual(expected);
  });

  it('reads a segment stored without the new columns (an older release) as articles without a group', async () => {
    await sql`delete from content_segment_columns where name in ('unspsc', 'eclass', 'etim')`.execute(getDb().db);
    const older = freshBackend();
    const page = await older.search(query({ limit: 5 }));
    expect(page.total).toBe(all.length);
    expect(page.facets.find((f) => f.facetName === 'ECLASS')!.buckets).toEqual([{ value: '', count: all.length }]);
    expect(countsOf(page, 'UNSPSC-7')).toEqual(expectedCounts('UNSPSC-7'));
    // A delta on such a segment writes the columns: the changed article has its group again.
    const changed = all.find((_, n) => n % 7 === 1)!;
    const shop = catalog.shops.find((s) => s.id === changed.shopId)!;
    await older.applyShopDelta({ shop, changes: [{ kind: 'upsert', article: changed }], hash: 'classes-v2' });
    const after = await freshBackend().search(
      query({
        limit: 1000,
        filter: { type: 'ExactReferenceFeatureMatchFilter', filterName: 'ECLASS', group: groupOf(changed, 'ECLASS') },
      }),
    );
    expect(after.hits.map((h) => h.article.id)).toContain(changed.id);
  });

  it('migration 0011 fills the new columns and labels of a stored catalog from its documents', async () => {
    for (const b of opened.splice(0)) await b.close();
    const migration = contentStorageFor(getDb()).migrations['0011_classification_facets']!;
    await migration.down!(getDb().db);
    await migration.up(getDb().db);
    const page = await freshBackend().search(query());
    expect(countsOf(page, 'ECLASS')).toEqual(expectedCounts('ECLASS'));
    expect(countsOf(page, 'ETIM')).toEqual(expectedCounts('ETIM'));
    expect(countsOf(page, 'UNSPSC')).toEqual(expectedCounts('UNSPSC'));
    const buckets = (facetName: string) => page.facets.find((f) => f.facetName === facetName)!.buckets;
    expect(buckets('ECLASS').find((b) => b.value === '24250201')?.label).toBe('Ballpoint pen');
    expect(buckets('ETIM').find((b) => b.value === 'EC000897')?.label).toBe('Terminal block');
  });
});
