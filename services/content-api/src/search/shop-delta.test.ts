import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { Article } from '../model/article.js';
import { loadTestCatalog } from '../test-support/content-test-app.js';
import {
  DELTA_TEST_ARTICLES,
  deltaArticles,
  deltaQuery,
  labtools,
  labtoolsArticles,
} from '../test-support/delta-test-catalog.js';
import { compareCodePoints } from './code-point-order.js';
import type { ContentTables } from '../migrations/content-tables.js';
import type { CatalogChange, SearchBackend } from './search-backend.js';
import { FACET_NAMES, type SearchQuery } from './search-query.js';

const ARTICLES = DELTA_TEST_ARTICLES;
const all = deltaArticles;
const lab = labtoolsArticles;
const query = deltaQuery;
const ids = async (backend: SearchBackend, q: Partial<SearchQuery>) =>
  (await backend.search(query(q))).hits.map((h) => h.article.id).sort();

describeEachDatabase<ContentTables>('shop catalog delta', (getDb) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await loadTestCatalog(getDb(), ARTICLES);
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('adds, replaces, deletes and reprices articles of one shop, leaving the others alone', async () => {
    const added: Article = {
      ...lab[0]!,
      id: 'labtools:DELTA-1',
      supplierArticleId: 'DELTA-1',
      description: 'vanadium crucible',
      descriptions: [{ lang: 'en', value: 'vanadium crucible' }],
      manufacturerName: 'Deltawerk',
    };
    const replaced: Article = {
      ...lab[1]!,
      description: 'osmium tongs',
      descriptions: [{ lang: 'en', value: 'osmium tongs' }],
    };
    const repriced = lab[2]!;
    const gone = lab[3]!;
    const versionsBefore = await backend.shopVersions();
    const unknown: CatalogChange[] = [];
    const changes: CatalogChange[] = [
      { kind: 'upsert', article: added },
      { kind: 'upsert', article: replaced },
      {
        kind: 'prices',
        articleId: repriced.id,
        prices: { blockPrices: [{ lowerBound: 1, amount: { value: 123456, decimalDigits: 2 } }] },
      },
      { kind: 'delete', articleId: gone.id },
      { kind: 'delete', articleId: 'labtools:NO-SUCH' },
      { kind: 'delete', articleId: all.find((a) => a.shopId === 'office-direct')!.id },
    ];
    const counts = await backend.applyShopDelta({
      shop: labtools,
      changes,
      hash: 'delta-1',
      onUnknown: (change) => unknown.push(change),
    });
    expect(counts).toEqual({ added: 1, updated: 2, deleted: 1 });
    expect(unknown).toEqual([changes[4], changes[5]]);

    const expectedLab = [...lab.filter((a) => a.id !== gone.id).map((a) => a.id), added.id].sort();
    expect(await ids(backend, { shopIds: ['labtools'] })).toEqual(expectedLab);
    expect(await backend.countArticles()).toBe(ARTICLES);
    expect(await ids(backend, { words: ['vanadium'] })).toEqual([added.id]);
    expect(await ids(backend, { words: ['osmium'] })).toEqual([replaced.id]);
    expect(await backend.findArticle(gone.id)).toBeUndefined();
    expect((await backend.findArticle(repriced.id))?.blockPrices[0]?.amount).toEqual({
      value: 123456,
      decimalDigits: 2,
    });
    const expensive = await backend.search(
      query({
        shopIds: ['labtools'],
        filter: {
          type: 'DecimalRangeFilter',
          filterName: 'pricePerMinimumOrderQuantity',
          lowerBound: { value: 1234, decimalDigits: 0 },
        },
      }),
    );
    expect(expensive.hits.map((h) => h.article.id)).toContain(repriced.id);
    const facets = (await backend.search(query({ shopIds: ['labtools'], limit: 0, facets: [...FACET_NAMES] }))).facets;
    const makers = facets.find((f) => f.facetName === 'manufacturerName')!.buckets;
    expect(makers.find((b) => b.value === 'Deltawerk')?.count).toBe(1);
    expect(makers.reduce((n, b) => n + b.count, 0)).toBe(expectedLab.length);
    // Id order (sorting by id) follows the new ids.
    const byId = await backend.search(query({ shopIds: ['labtools'], sort: [{ field: 'id', descending: false }] }));
    expect(byId.hits.map((h) => h.article.id)).toEqual(expectedLab);

    const versions = await backend.shopVersions();
    expect(versions.get('labtools')).toBe('delta-1');
    expect(versions.get('office-direct')).toBe(versionsBefore.get('office-direct'));
    expect(await ids(backend, { shopIds: ['office-direct'] })).toEqual(
      all
        .filter((a) => a.shopId === 'office-direct')
        .map((a) => a.id)
        .sort(),
    );
  });

  it('changes nothing when reading the changes fails halfway', async () => {
    const before = await ids(backend, { shopIds: ['labtools'] });
    async function* failing(): AsyncGenerator<CatalogChange> {
      yield { kind: 'delete', articleId: lab[4]!.id };
      await Promise.resolve();
      throw new Error('disk gone');
    }
    await expect(backend.applyShopDelta({ shop: labtools, changes: failing(), hash: 'never' })).rejects.toThrow(
      'disk gone',
    );
    expect(await ids(backend, { shopIds: ['labtools'] })).toEqual(before);
    expect((await backend.shopVersions()).get('labtools')).toBe('delta-1');
  });

  it('keeps every article found by its words when one delta adds, replaces, moves and deletes', async () => {
    const current = (await backend.search(query({ shopIds: ['labtools'] }))).hits.map((h) => h.article);
    const [replacedThenDeleted, replaced, gone] = current;
    const added = (n: number): Article => ({
      ...current[3]!,
      id: `labtools:MOVE-${n}`,
      supplierArticleId: `MOVE-${n}`,
      descriptions: [{ lang: 'en', value: `tantalum${n} dish` }],
    });
    const changes: CatalogChange[] = [
      { kind: 'upsert', article: added(1) },
      { kind: 'upsert', article: { ...replacedThenDeleted!, descriptions: [{ lang: 'en', value: 'niobium' }] } },
      { kind: 'upsert', article: { ...replaced!, descriptions: [{ lang: 'en', value: 'hafnium rod' }] } },
      { kind: 'upsert', article: added(2) },
      // Each delete moves the shop's last article into the freed place: here the new ones.
      { kind: 'delete', articleId: replacedThenDeleted!.id },
      { kind: 'delete', articleId: gone!.id },
    ];
    expect(await backend.applyShopDelta({ shop: labtools, changes, hash: 'delta-moves' })).toEqual({
      added: 2,
      updated: 2,
      deleted: 2,
    });
    expect(await ids(backend, { words: ['tantalum1'] })).toEqual(['labtools:MOVE-1']);
    expect(await ids(backend, { words: ['tantalum2'] })).toEqual(['labtools:MOVE-2']);
    expect(await ids(backend, { words: ['hafnium'] })).toEqual([replaced!.id]);
    expect(await ids(backend, { words: ['niobium'] })).toEqual([]);
    const remaining = current.filter((a) => a.id !== replacedThenDeleted!.id && a.id !== gone!.id);
    // The supplier id's number is a word of its article only.
    const word = (a: Article) => a.supplierArticleId.toLowerCase().split('-')[1]!;
    for (const a of remaining) expect(await ids(backend, { words: [word(a)] })).toEqual([a.id]);
    expect(await ids(backend, { words: [word(gone!)] })).toEqual([]);
  });

  it('sorts by description after a delta that replaces, adds and deletes a few articles', async () => {
    const byDescription = async () =>
      (await backend.search(query({ shopIds: ['labtools'], sort: [{ field: 'description', descending: false }] })))
        .hits;
    const current = (await byDescription()).map((h) => h.article);
    const [first, second, third] = current;
    // One description shared with an article that stays, one between two others.
    const changes: CatalogChange[] = [
      { kind: 'upsert', article: { ...second!, description: current.at(-1)!.description } },
      {
        kind: 'upsert',
        article: {
          ...third!,
          id: 'labtools:SORT-1',
          supplierArticleId: 'SORT-1',
          description: `${first!.description} `,
        },
      },
      { kind: 'delete', articleId: third!.id },
    ];
    await backend.applyShopDelta({ shop: labtools, changes, hash: 'delta-sort' });
    const hits = (await byDescription()).map((h) => h.article);
    const expected = [...hits].sort(
      (a, b) => compareCodePoints(a.description, b.description) || compareCodePoints(a.id, b.id),
    );
    expect(hits.map((a) => a.id)).toEqual(expected.map((a) => a.id));
    // One article a page: the engine keeps only the first few by the stored ranks, then orders them by text.
    const pages: string[] = [];
    for (let offset = 0; offset < hits.length; offset += 1) {
      const page = await backend.search(
        query({ shopIds: ['labtools'], sort: [{ field: 'description', descending: false }], limit: 1, offset }),
      );
      pages.push(...page.hits.map((h) => h.article.id));
    }
    expect(pages).toEqual(expected.map((a) => a.id));
    expect(hits.map((a) => a.id)).toContain('labtools:SORT-1');
    expect(hits.map((a) => a.id)).not.toContain(third!.id);
    expect(hits.find((a) => a.id === second!.id)?.description).toBe(current.at(-1)!.description);
    expect(hits.at(-1)!.description).toBe(current.at(-1)!.description);
  });

  it('applies two price changes of one article in order and reports unknown ones before the commit', async () => {
    const article = (await backend.search(query({ shopIds: ['labtools'], limit: 1 }))).hits[0]!.article;
    const price = (value: number, articleId = article.id): CatalogChange => ({
      kind: 'prices',
      articleId,
      prices: { blockPrices: [{ lowerBound: 1, amount: { value, decimalDigits: 2 } }] },
    });
    const unknown: string[] = [];
    let seenBeforeCommit: string[] = [];
    await backend.applyShopDelta({
      shop: labtools,
      changes: [price(111), price(1, 'labtools:NOPE'), price(222)],
      hash: 'delta-prices',
      onUnknown: (change) => unknown.push('articleId' in change ? change.articleId : change.article.id),
      beforeCommit: () => (seenBeforeCommit = [...unknown]),
    });
    expect(seenBeforeCommit).toEqual(['labtools:NOPE']);
    expect((await backend.findArticle(article.id))?.blockPrices).toEqual([
      { lowerBound: 1, amount: { value: 222, decimalDigits: 2 } },
    ]);
    const failing = backend.applyShopDelta({
      shop: labtools,
      changes: [price(333)],
      hash: 'never',
      beforeCommit: () => {
        throw new Error('refused');
      },
    });
    await expect(failing).rejects.toThrow('refused');
    expect((await backend.findArticle(article.id))?.blockPrices[0]?.amount.value).toBe(222);
    expect((await backend.shopVersions()).get('labtools')).toBe('delta-prices');
  });

  it('puts an article whose price alone changed where price order and price filters expect it', async () => {
    const article = (await backend.search(query({ shopIds: ['labtools'], limit: 1, offset: 3 }))).hits[0]!.article;
    await backend.applyShopDelta({
      shop: labtools,
      changes: [
        {
          kind: 'prices',
          articleId: article.id,
          prices: { blockPrices: [{ lowerBound: 1, amount: { value: 1, decimalDigits: 4 } }] },
        },
      ],
      hash: 'delta-cheapest',
    });
    const cheapest = await backend.search(
      query({ shopIds: ['labtools'], sort: [{ field: 'price', descending: false }], limit: 1 }),
    );
    expect(cheapest.hits[0]?.article.id).toBe(article.id);
    const filtered = await backend.search(
      query({
        filter: {
          type: 'DecimalRangeFilter',
          filterName: 'pricePerMinimumOrderQuantity',
          upperBound: { value: 1, decimalDigits: 3 },
        },
      }),
    );
    expect(filtered.hits.map((h) => h.article.id)).toEqual([article.id]);
    expect(filtered.total).toBe(1);
  });

  it('shows searches during a delta the catalog before it, and the whole delta after its commit', async () => {
    const stored = (await backend.search(query({ shopIds: ['labtools'], limit: 4 }))).hits.map((h) => h.article);
    const dear = query({
      shopIds: ['labtools'],
      limit: 0,
      filter: {
        type: 'DecimalRangeFilter',
        filterName: 'pricePerMinimumOrderQuantity',
        lowerBound: { value: 900_000, decimalDigits: 2 },
      },
    });
    expect((await backend.search(dear)).total).toBe(0);
    const seen: number[] = [];
    async function* changes(): AsyncGenerator<CatalogChange> {
      for (const [i, article] of stored.entries()) {
        yield {
          kind: 'prices',
          articleId: article.id,
          prices: { blockPrices: [{ lowerBound: 1, amount: { value: 999_900 + i, decimalDigits: 2 } }] },
        };
        // The change before is applied in the delta's open transaction: searches must not see it.
        seen.push((await backend.search(dear)).total);
      }
    }
    await backend.applyShopDelta({ shop: labtools, changes: changes(), hash: 'delta-isolated' });
    expect(seen).toEqual([0, 0, 0, 0]);
    expect((await backend.search(dear)).total).toBe(stored.length);
  });

  it('applies changes of one id in order within a delta: add, change and delete again', async () => {
    const stored = (await backend.search(query({ shopIds: ['labtools'], limit: 3 }))).hits.map((h) => h.article);
    const [y, z] = [stored[0]!, stored[1]!];
    const named = (article: Article, description: string): Article => ({
      ...article,
      description,
      descriptions: [{ lang: 'en', value: description }],
    });
    const x = named({ ...y, id: 'labtools:ORDER-X', supplierArticleId: 'ORDER-X' }, 'tantalum boat');
    const before = (await backend.search(query({ shopIds: ['labtools'], limit: 0 }))).total;
    const counts = await backend.applyShopDelta({
      shop: labtools,
      changes: [
        { kind: 'upsert', article: x },
        { kind: 'upsert', article: named(x, 'tantalum boat, large') },
        { kind: 'delete', articleId: x.id },
        { kind: 'delete', articleId: y.id },
        { kind: 'upsert', article: named(y, 'rhodium foil') },
        { kind: 'upsert', article: named(z, 'iridium wire') },
        { kind: 'upsert', article: named(z, 'iridium wire, thin') },
      ],
      hash: 'delta-order',
    });
    expect(counts).toEqual({ added: 2, updated: 3, deleted: 2 });
    expect(await backend.findArticle(x.id)).toBeUndefined();
    expect((await backend.findArticle(y.id))?.description).toBe('rhodium foil');
    expect((await backend.findArticle(z.id))?.description).toBe('iridium wire, thin');
    expect(await ids(backend, { words: ['tantalum'] })).toEqual([]);
    expect(await ids(backend, { words: ['rhodium'] })).toEqual([y.id]);
    expect(await ids(backend, { words: ['iridium', 'thin'] })).toEqual([z.id]);
    expect((await backend.search(query({ shopIds: ['labtools'], limit: 0 }))).total).toBe(before);
  });

  it('sorts by id after deltas that add, move and delete, new ids among the old in code point order', async () => {
    const byId = async (descending: boolean) =>
      (
        await backend.search(
          query({ shopIds: ['labtools'], sort: [{ field: 'id', descending }], limit: 1000, facets: [] }),
        )
      ).hits.map((h) => h.article.id);
    const template = (await backend.search(query({ shopIds: ['labtools'], limit: 1 }))).hits[0]!.article;
    const article = (supplierArticleId: string): Article => ({
      ...template,
      id: `labtools:${supplierArticleId}`,
      supplierArticleId,
    });
    // Ids that UTF-16 order and code point order sort differently (U+E000 against U+1F600), one
    // that is a prefix of others, ids before and after every generated one.
    const awkward = ['\u{1F600}', '\uE000', 'A', 'A-', 'zz', '0', 'Ω', 'Ä-1', ' first'];
    // A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed.
    let seed = 0x7e1d;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    // A first delta of many new ids (the shop's order built whole), then small ones (patched).
    const present = new Set(await byId(false));
    let next = 0;
    const fresh = () => {
      next += 1;
      const pick = awkward[next % awkward.length]!;
      return `${pick}${Math.floor(random() * 1000)}-${next}`;
    };
    const rounds = [120, 3, 2, 4, 1, 3, 0, 2];
    for (const [round, adds] of rounds.entries()) {
      const changes: CatalogChange[] = [];
      const addedNow: string[] = [];
      for (let n = 0; n < adds; n += 1) {
        const a = article(fresh());
        changes.push({ kind: 'upsert', article: a });
        addedNow.push(a.id);
      }
      // Deletes of old ids (each moves the shop's last article, often a new one, into its place)
      // and, in every other round, of one just added.
      const old = [...present];
      for (let n = 0; n < 2; n += 1) {
        const id = old[Math.floor(random() * old.length)]!;
        if (changes.some((c) => c.kind === 'delete' && c.articleId === id)) continue;
        changes.push({ kind: 'delete', articleId: id });
      }
      if (round % 2 === 1 && addedNow.length > 0) changes.push({ kind: 'delete', articleId: addedNow.at(-1)! });
      for (const change of changes) {
        if (change.kind === 'upsert') present.add(change.article.id);
        else if (change.kind === 'delete') present.delete(change.articleId);
      }
      await backend.applyShopDelta({ shop: labtools, changes, hash: `delta-ids-${round}` });
      const expected = [...present].sort(compareCodePoints);
      expect(await byId(false), `round ${round}`).toEqual(expected);
      expect(await byId(true), `round ${round}`).toEqual(expected.reverse());
    }
    expect(present.size).toBeGreaterThan(100);
  });
});
