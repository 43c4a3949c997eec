import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import type { InvalidQueryParamBody } from '../../errors.js';
import type { ContentTables } from '../../migrations/content-tables.js';
import type { SearchResultReply } from '../../presenters/search-presenter.js';
import { searchWords } from '../../search/search-query.js';
import { buildTestContentApp, type TestContentApp } from '../../test-support/content-test-app.js';

type Member = SearchResultReply['members'][number];
interface TextHighlight {
  spans: [number, number][];
  snippet: string;
}
interface Highlights {
  title?: TextHighlight;
  description?: TextHighlight & { lang: string };
}
const highlightsOf = (member: Member) => (member as Member & { highlights?: Highlights }).highlights;
const withoutHighlights = (member: Member) => {
  const { highlights: _, ...rest } = member as Member & { highlights?: Highlights };
  return rest;
};

describeEachDatabase<ContentTables>('search highlights', (getDb) => {
  let t: TestContentApp;
  beforeAll(async () => {
    t = await buildTestContentApp(getDb(), { articles: 60 });
  });
  afterAll(async () => {
    await t?.app.close();
  });
  const search = async (query: string) => {
    const response = await t.get(`/api/articles?${query}`);
    expect(response.statusCode, query).toBe(200);
    return response.json<SearchResultReply>();
  };

  it('adds highlights only with highlight=true and changes nothing else', async () => {
    const plain = await search('q=etiketten&limit=50');
    const off = await search('q=etiketten&limit=50&highlight=false');
    const on = await search('q=etiketten&limit=50&highlight=true');
    expect(plain.total).toBeGreaterThan(0);
    expect(plain.members.every((m) => highlightsOf(m) === undefined)).toBe(true);
    expect(off.members).toEqual(plain.members);
    expect(on.members.every((m) => highlightsOf(m) !== undefined)).toBe(true);
    expect(on.members.map(withoutHighlights)).toEqual(plain.members);
    // Facet links repeat the request's parameters, highlight=true among them.
    const counts = (body: SearchResultReply) =>
      body.facets.map((f) => [f.facetName, f.buckets.map((b) => [b.value, b.count])]);
    expect(counts(on)).toEqual(counts(plain));
    expect(on.total).toBe(plain.total);
  });

  it('gives spans into the title that hold the matched words, typos and prefixes included', async () => {
    for (const q of ['etiketten', 'etiketen', 'etik', 'ETIKETTEN schwarz']) {
      const body = await search(`q=${encodeURIComponent(q)}&highlight=true&limit=50`);
      expect(body.total, q).toBeGreaterThan(0);
      for (const member of body.members) {
        const title = highlightsOf(member)?.title;
        const text = member.article.description;
        expect(title, `${q}: ${text}`).toBeDefined();
        const marked = title!.spans.map(([a, b]) => searchWords(text.slice(a, b)).join(' '));
        expect(marked, text).toContain('etiketten');
        for (const [a, b] of title!.spans) expect(a < b && b <= text.length).toBe(true);
        expect(title!.snippet).toMatch(/<mark>Etiketten<\/mark>/);
      }
    }
  });

  it('highlights another language of the description when only it matched, naming its language', async () => {
    const body = await search('q=labels&highlight=true&limit=50');
    expect(body.total).toBeGreaterThan(0);
    for (const member of body.members) {
      const highlights = highlightsOf(member)!;
      expect(highlights.title).toBeUndefined();
      const entry = member.article.descriptions.find((d) => d.lang === highlights.description?.lang);
      expect(entry?.lang).toBe('en');
      const spans = highlights.description!.spans;
      expect(spans.map(([a, b]) => entry!.value.slice(a, b))).toEqual(['labels']);
      expect(highlights.description!.snippet).toContain('<mark>labels</mark>');
    }
  });

  it('marks only the words as typed with matching=exact', async () => {
    expect((await search('q=etiketen&matching=exact&highlight=true')).total).toBe(0);
    const body = await search('q=etiketten&matching=exact&highlight=true&limit=5');
    for (const member of body.members)
      expect(highlightsOf(member)!.title!.spans.map(([a, b]) => member.article.description.slice(a, b))).toEqual([
        'Etiketten',
      ]);
  });

  it('gives every hit an empty highlights object without q, and repeats highlight in paging links', async () => {
    const body = await search('highlight=true&limit=2');
    expect(body.members.map(highlightsOf)).toEqual([{}, {}]);
    const next = body._schema.links.find((l) => l.rel === 'next')!;
    expect(new URL(next.href).searchParams.get('highlight')).toBe('true');
  });

  it('refuses a highlight that is neither true nor false', async () => {
    const response = await t.get('/api/articles?q=x&highlight=yes');
    expect(response.statusCode).toBe(400);
    expect(response.json<InvalidQueryParamBody>()).toMatchObject({
      queryParam: 'highlight',
      errors: [{ path: '#/highlight', code: 'TYPE' }],
    });
  });
});
