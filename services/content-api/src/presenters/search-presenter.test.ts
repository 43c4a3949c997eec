import { describe, expect, it } from 'vitest';
import { parseSearchQuery, type RawQuery } from '../search/parse-search-query.js';
import type { FacetCount, FacetName, FilterExpression, SearchPage } from '../search/search-query.js';
import { formEncode, LinkBuilder } from './links.js';
import { presentSearchResult, searchParams } from './search-presenter.js';

/** Values a bucket may carry: empty, spaces, quotes, every character the form encoding treats apart, non-ASCII. */
const VALUES = [
  '',
  'Bosch',
  'A & B = C?',
  'say "hi" \\ back/slash',
  "!'()*-._~ +%#",
  'Müller Größe 3½ 😀',
  '\u0000\u001f\t\n',
  '27-01-01-01',
  'ﬁle ℃',
];

function page(names: readonly FacetName[]): SearchPage {
  const facets: FacetCount[] = names.map((facetName) => ({
    facetName,
    buckets: [...VALUES.map((value, i) => ({ value, count: 100 - i })), { value: 'rest', count: 1, otherValues: 5 }],
  }));
  return { total: 0, hits: [], facets };
}

/** The href as the presenter built it before templates: the whole query serialised again for each bucket. */
function expectedHref(raw: RawQuery, facetName: FacetName, value: string, links: LinkBuilder): string {
  const search = parseSearchQuery(raw);
  const added: FilterExpression =
    facetName === 'businessShopId' || facetName === 'manufacturerName'
      ? { type: 'ExactStringMatchFilter', filterName: facetName, value }
      : { type: 'ExactReferenceFeatureMatchFilter', filterName: facetName, group: value };
  const expression = search.query.filter ? { type: 'And' as const, operands: [search.query.filter, added] } : added;
  const sortText =
    search.query.sort.length > 0
      ? search.query.sort.map((k) => `${k.descending ? '-' : '+'}${k.field}`).join(',')
      : undefined;
  return links.link('apply-filter', '/api/articles', searchParams(search, 0, JSON.stringify({ expression }), sortText))
    .href;
}

const FQ = JSON.stringify({
  expression: {
    type: 'Or',
    operands: [
      { type: 'ExactStringMatchFilter', filterName: 'manufacturerName', value: 'Tesa "Ü" & Co' },
      { type: 'ExactReferenceFeatureMatchFilter', filterName: 'ECLASS', group: '24-30' },
    ],
  },
});

const REQUESTS: RawQuery[] = [
  {},
  { q: 'kleber blau', facet: ['manufacturerName', 'ECLASS'] },
  { q: 'a&b=c? ~!', fq: FQ, sort: '-price,+description', currency: 'EUR', limit: '7', offset: '14' },
  { fq: FQ, businessShopId: ['shop-1', 'shop 2'], matching: 'exact', highlight: 'true' },
];

describe('presentSearchResult apply-filter links', () => {
  const versions = { versionOf: (ids: readonly string[]) => (ids.length === 0 ? 'all-v1' : `v-${ids.join('+')}`) };
  const names: FacetName[] = ['businessShopId', 'manufacturerName', 'ECLASS', 'UNSPSC'];

  it.each(REQUESTS.map((raw, i) => [i, raw] as const))(
    'are byte for byte those built from the whole query (request %i)',
    (_, raw) => {
      const links = new LinkBuilder('http://127.0.0.1:8081/', versions);
      const result = presentSearchResult(parseSearchQuery(raw), page(names), new Map(), links, 1);
      for (const facet of result.facets) {
        for (const bucket of facet.buckets) {
          const hrefs = bucket._schema.links.map((l) => l.href);
          if (bucket.otherValues !== undefined) expect(hrefs).toEqual([]);
          else expect(hrefs).toEqual([expectedHref(raw, facet.facetName, bucket.value, links)]);
        }
      }
      const link = result.facets[0]!.buckets[0]!._schema.links[0]!;
      expect(link).toEqual({
        href: link.href,
        mediaType: 'application/vnd.vendor.content.v1+json',
        method: 'GET',
        rel: 'apply-filter',
      });
      expect(Object.keys(link)).toEqual(['href', 'mediaType', 'method', 'rel']);
    },
  );
});

describe('formEncode', () => {
  it('encodes as URLSearchParams does, piece by piece', () => {
    let all = '';
    for (let c = 0; c < 0x3000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      all += String.fromCharCode(c);
    }
    all += '😀𝄞';
    const whole = new URLSearchParams({ v: all }).toString().slice('v='.length);
    expect(formEncode(all)).toBe(whole);
    expect(formEncode(all.slice(0, 500)) + formEncode(all.slice(500))).toBe(whole);
  });
});
